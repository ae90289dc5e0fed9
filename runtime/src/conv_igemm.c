/*===- conv_igemm.c - The indirect GEMM of fp32 convolutions -------------===*
 *
 * onnxc_rt_conv_igemm (conv.h), conv.c's path for packed weights and a
 * flat Y: blocks of MCP output positions whose windows the tiles read
 * through the taps' offsets, two panels of output channels at a time
 * (conv_tile2, then conv_store2), single panels (conv_tile1, conv_tile),
 * narrow panels with positions in lanes (conv_rows) or over unit-stride
 * runs (conv_tile16); K in steps whose weights stay in L1.
 *===----------------------------------------------------------------------===*/

#include "conv.h"

#include <stdint.h>

/* How many positions from ir (at most `max`, below mc) have windows
 * `step` elements apart (xr[ir + t] == xr[ir] + t * step: one stride-1
 * output row; step 1, or ONNXC_CONV_CBLOCK in a copy in channel blocks). */
static i64 unit_run(const float *const *xr, i64 ir, i64 mc, i64 max,
                    i64 step) {
  i64 n = 1;
  /* A whole run at once when its ends are in place: with `step` the
   * windows' step along an output row (as at both callers), the windows
   * between are too (each row wrap moves them by the same amount off
   * the step, so the ends agree only with no wrap or a zero move). */
  if (ir + max <= mc && xr[ir + max - 1] == xr[ir] + (max - 1) * step)
    return max;
  while (n < max && ir + n < mc && xr[ir + n] == xr[ir] + n * step)
    ++n;
  return n;
}

/* The K step of conv_rows: its tiles read 3 cache lines of input per k
 * (a 32-position row segment, unaligned) where conv_tile16's read 1 or 2,
 * and with K = 432 (48 channels, 3 x 3) in one step the second channel
 * group no longer found them in L1: in U-Net's 48 -> 16 layer at 256 x
 * 256 the rows took 20-35% longer than conv_tile16 (AMD EPYC), where 16
 * -> 16 and 3 -> 16 ran 15-25% faster. In steps of 144 (16 channels),
 * each summed into Y (16 channels of the block's positions, stored
 * without a transpose, in L1), the rows take any K: against
 * conv_tile16, 48 -> 16 at 256 x 256 the same to 5% faster, 64 -> 16 at
 * 128 x 128 and 128 -> 16 at 64 x 64 10% faster (Intel Xeon). */
#define ROWS_KSTEP 144

/* One K block [pc, pc + kc) of a panel of nw <= 16 channels from m0 over
 * `mc` positions whose windows start at xr[0, mc), Y from `y` (position
 * t at y[t], channel ch at ch * ys[2]): segments of up to NR positions
 * of one stride-1 output row (windows one element apart) by channel
 * groups of at most conv_rmr, through the tier's conv_rtile (positions in
 * lanes; the per-channel bias per row). */
static void conv_rows(const onnxc_kernels *kt, const onnxc_conv2d_params *q,
                      i64 g, i64 pc, i64 kc, i64 kdim, const act_ep *act,
                      const float *const *xr, i64 mc, const i64 *koff,
                      const float *panel, float *y, i64 m0, i64 nw) {
  const i64 csc = q->y_strides[2];
  i64 groups = (nw + kt->conv_rmr - 1) / kt->conv_rmr;
  i64 per = (nw + groups - 1) / groups; /* 12 channels: 6 and 6 */
  i64 ir, c0, kb;
  for (kb = 0; kb < kc; kb += ROWS_KSTEP) {
    i64 kl = min64(ROWS_KSTEP, kc - kb);
    for (ir = 0; ir < mc;) {
      i64 len = unit_run(xr, ir, mc, NR, 1);
      for (c0 = 0; c0 < nw;) {
        i64 rows = min64(per, nw - c0);
        tile_ep storage;
        int accumulate;
        const tile_ep *ep = conv_block_ep(
            q, g, m0 + c0, pc + kb == 0, pc + kb + kl == kdim, 1,
            kt->tile_act ? act : NULL, &accumulate, &storage);
        kt->conv_rtile((int)rows, kl, xr[ir], koff + kb,
                       panel + kb * NR + c0, y + c0 * csc + ir, csc, len,
                       accumulate, ep);
        c0 += rows;
      }
      ir += len;
    }
  }
}
/* Depth of an indirect-GEMM block: the whole K of a 3 x 3 convolution of
 * 256 channels, so that each tile has one epilogue (a transposed store)
 * instead of one per 256; its 2304 x 32 weight panel (288 KiB) stays in
 * L2. 5-10% on ResNet's convolutions against KC. */
#define KCI 2304
/* (KSTEP2, the K step of conv_tile2 within a KCI block, is in gemm.h.) */
/* The K step of single-panel tiles (conv_tile1; 24 KiB of weights). */
#define KSTEP1 192

/* ONNXC_CONV_PREFETCH (gemm.h: onnxc_rt_pf_start). */
int onnxc_rt_conv_prefetch_on(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_CONV_PREFETCH", &on);
}

/* The partial-sum flags (dispatch.h) of the K step [kb, kb + kl) of a
 * block of kc: from the sums of the steps before it, into the scratch for
 * the steps after it. */
static int step_flags(i64 kb, i64 kl, i64 kc) {
  return (kb > 0 ? ONNXC_TILE2_FROM_S : 0) |
         (kb + kl < kc ? ONNXC_TILE2_TO_S : 0);
}

/* Share t of `tiles` of the block's output, rows [0, mc) of channels
 * [0, nch) at y[ch * csc], prefetched for writing: conv_store2 writes the
 * block after its last tile, and its stores of lines not in cache (an
 * output past L2, as a stem's 3 MB) waited on each read for ownership,
 * with no FMAs left to overlap (SqueezeNet's stem 535 -> 415 us, ResNet's
 * 1563 -> 1409; docs/performance.md). */
static void prefetch_y_share(const float *y, i64 csc, i64 nch, i64 mc, i64 t,
                             i64 tiles) {
  i64 ch;
  for (ch = t * nch / tiles; ch < (t + 1) * nch / tiles; ++ch) {
    const char *a = (const char *)(y + ch * csc);
    const char *end = (const char *)(y + ch * csc + mc);
    for (a = (const char *)((uintptr_t)a & ~(uintptr_t)63); a < end; a += 64)
      __builtin_prefetch(a, 1, 3);
  }
}

/* The convolution over packed weights `wp` ([groups][panels][K][32],
 * runtime_abi.h) with Y laid out flat (ys[4] == 1, ys[3] == out_w).
 * Blocks: K in KCI steps, MCP positions, every channel panel; tiles of
 * at most conv_mr positions through the tier's conv_tile. */
static void conv_igemm(const onnxc_kernels *kt, const onnxc_conv2d_params *q,
                       const float *x, const float *wp, float *y,
                       const i64 *koff) {
  const i64 *xs = q->x_strides, *ys = q->y_strides;
  i64 kdim = q->in_channels * q->kernel_h * q->kernel_w;
  i64 panels = (q->out_channels + NR - 1) / NR;
  i64 npos = q->out_h * q->out_w;
  i64 kcb = KCI, mr = kt->conv_mr;
  /* The tile of a narrow panel: windows one element apart (conv_tile16),
   * or one channel block apart in a copy in channel blocks
   * (conv_tile16c), over stride-1 output rows. */
  int blocked = (q->flags & ONNXC_CONV_X_CBLOCK) != 0;
  i64 pstep = q->stride_w * xs[4];
  onnxc_conv_tile16_fn tile16 =
      !blocked && pstep == 1                     ? kt->conv_tile16
      : blocked && pstep == ONNXC_CONV_CBLOCK ? kt->conv_tile16c
                                                 : NULL;
  const float *xr[MCP];
  /* Every panel with positions in lanes: over a copy split by column
   * parity (ONNXC_CONV_X_SPLIT, conv_pad.c says when), and for a
   * stride-1 stem of two panels or more (K <= 32: 3 channels, 3 x 3),
   * whose two-panel tiles store 6 positions into each of 64 channel
   * planes at a time (3 -> 64 over 112 x 112: -29%). */
  int rows_ok = kt->conv_rtile && pstep == 1 && q->out_w >= NR;
  int rows_all = rows_ok && ((q->flags & ONNXC_CONV_X_SPLIT) ||
                             (kdim <= 32 && q->out_channels > NR + NR / 2 &&
                              !(q->flags & ONNXC_CONV_X_CBLOCK)));
  act_ep act_storage;
  const act_ep *act = conv_act(q, &act_storage);
  /* The partial sums of conv_tile2 and conv_tile1 (MCP positions x 2 NR
   * channels). */
  void *sraw = NULL;
  float *sums = kt->conv_tile2 || kt->conv_tile1
                    ? onnxc_rt_gemm_alloc_panels(MCP * 2 * NR, &sraw)
                    : NULL;
  i64 n, g, pc, ic, j, ir, t;
  for (n = 0; n < q->batch; ++n)
    for (g = 0; g < q->groups; ++g) {
      const float *xg = x + n * xs[0] + g * xs[1];
      float *yg = y + n * ys[0] + g * ys[1];
      for (pc = 0; pc < kdim; pc += kcb) {
        i64 kc = min64(kcb, kdim - pc);
        for (ic = 0; ic < npos; ic += MCP) {
          i64 mc = min64(MCP, npos - ic);
          /* Position ic + t's window; (oh, ow) stepped, not divided nor
           * multiplied (two imul a position were 10% of a 3 -> 16 stem). */
          i64 oh = ic / q->out_w, ow = ic % q->out_w;
          const i64 rstep = q->stride_h * xs[3], cstep = q->stride_w * xs[4];
          const float *row = xg + oh * rstep, *win = row + ow * cstep;
          if (pc == 0)
            bias_add_block(q, n, g, 0, q->out_channels, ic, mc, y);
          for (t = 0; t < mc; ++t) {
            xr[t] = win;
            win += cstep;
            if (++ow == q->out_w) {
              ow = 0;
              row += rstep;
              win = row;
            }
          }
          for (j = 0; j < panels; ++j) {
            const float *panel = wp + ((g * panels + j) * kdim + pc) * NR;
            i64 nw = min64(NR, q->out_channels - j * NR);
            tile_ep storage;
            int accumulate;
            const tile_ep *ep = conv_block_ep(
                q, g, j * NR, pc == 0, pc + kc == kdim, 0,
                kt->tile_act ? act : NULL, &accumulate, &storage);
            /* Two panels at once (the second one wide enough not to take
             * a narrow panel's tiles): the positions' inputs read once
             * for 2 NR channels. */
            if (!rows_all && sums && kt->conv_tile2 && j + 1 < panels &&
                q->out_channels - (j + 1) * NR > NR / 2) {
              i64 nw1 = min64(NR, q->out_channels - (j + 1) * NR);
              tile_ep storage1;
              int accumulate1;
              const tile_ep *ep1 = conv_block_ep(
                  q, g, (j + 1) * NR, pc == 0, pc + kc == kdim, 0,
                  kt->tile_act ? act : NULL, &accumulate1, &storage1);
              i64 kb;
              for (kb = 0; kb < kc; kb += KSTEP2) {
                i64 kl = min64(KSTEP2, kc - kb);
                int sflags = kb > 0 ? ONNXC_TILE2_FROM_S : 0;
                i64 tiles = (mc + kt->conv_mr2 - 1) / kt->conv_mr2, t = 0;
                onnxc_pf_span pf;
                onnxc_rt_pf_next_step(&pf, panel, kdim * NR, kb, kl, kc,
                                      KSTEP2, tiles);
                onnxc_tile_seq ts = onnxc_rt_tile_seq(mc, kt->conv_mr2);
                int ypf = kb + kl == kc && onnxc_rt_conv_prefetch_on();
                for (ir = 0; ir < mc;) {
                  i64 rows = onnxc_rt_tile_next(&ts);
                  onnxc_rt_pf_some(&pf);
                  if (ypf)
                    prefetch_y_share(yg + j * NR * ys[2] + ic, ys[2], NR + nw1,
                                     mc, t++, tiles);
                  kt->conv_tile2((int)rows, kl, xr + ir, koff + pc + kb,
                                 panel + kb * NR, kdim * NR,
                                 sums + ir * 2 * NR, sflags);
                  ir += rows;
                }
              }
              kt->conv_store2(sums, mc, yg + j * NR * ys[2] + ic, ys[2], nw1,
                              accumulate, ep, ep1);
              if (act && !kt->tile_act && pc + kc == kdim)
                onnxc_rt_gemm_act_block(kt, yg + j * NR * ys[2] + ic, NR + nw1,
                                        mc, ys[2], 1, act);
              ++j;
              continue;
            }
            /* A panel of at most 16 channels (any panel, rows_all):
             * positions in lanes over rows, or tiles of up to conv_mr16
             * positions whose windows are one element apart (a stride-1
             * output row; a tile ends where the row does), one vector per
             * position. */
            if ((nw <= NR / 2 || rows_all) && rows_ok) {
              conv_rows(kt, q, g, pc, kc, kdim, act, xr, mc, koff + pc,
                        panel, yg + j * NR * ys[2] + ic, j * NR, nw);
            } else if (nw <= NR / 2 && tile16) {
              i64 mr16 = kt->conv_mr16;
              for (ir = 0; ir < mc;) {
                i64 rows = unit_run(xr, ir, mc, mr16, pstep);
                tile16((int)rows, kc, xr[ir], koff + pc, panel,
                       yg + j * NR * ys[2] + ic + ir, ys[2], nw, accumulate,
                       ep);
                ir += rows;
              }
            } else if (sums && kt->conv_tile1 && kc >= kt->conv_k1) {
              /* Up to conv_mr1 positions per tile, K in steps as for two
               * panels, the step's weights in L1 (dispatch.h). */
              i64 kb;
              for (kb = 0; kb < kc; kb += KSTEP1) {
                i64 kl = min64(KSTEP1, kc - kb);
                int sflags = step_flags(kb, kl, kc);
                onnxc_pf_span pf;
                onnxc_rt_pf_next_step(&pf, panel, 0, kb, kl, kc, KSTEP1,
                                      (mc + kt->conv_mr1 - 1) / kt->conv_mr1);
                onnxc_tile_seq ts = onnxc_rt_tile_seq(mc, kt->conv_mr1);
                for (ir = 0; ir < mc;) {
                  i64 rows = onnxc_rt_tile_next(&ts);
                  onnxc_rt_pf_some(&pf);
                  kt->conv_tile1((int)rows, kl, xr + ir, koff + pc + kb,
                                 panel + kb * NR,
                                 yg + j * NR * ys[2] + ic + ir, ys[2], nw,
                                 accumulate, ep, sums + ir * NR, sflags);
                  ir += rows;
                }
              }
            } else {
              /* Tiles of equal height (49 positions: 7 of 7, not 6 of 8
               * and 1 of 1, whose one row costs a third of a full tile). */
              onnxc_tile_seq ts = onnxc_rt_tile_seq(mc, mr);
              for (ir = 0; ir < mc;) {
                i64 rows = onnxc_rt_tile_next(&ts);
                kt->conv_tile((int)rows, kc, xr + ir, koff + pc, panel,
                              yg + j * NR * ys[2] + ic + ir, ys[2], nw,
                              accumulate, ep);
                ir += rows;
              }
            }
            /* The activation after the last K block, over the panel's
             * channels and the block's positions (16 KiB, in L1), unless
             * the tiles applied it. */
            if (act && !kt->tile_act && pc + kc == kdim)
              onnxc_rt_gemm_act_block(kt, yg + j * NR * ys[2] + ic, nw, mc, ys[2], 1, act);
          }
        }
      }
    }
  onnxc_rt_free_scratch(sraw);
}

/* The offset of channel ci in a window: ci planes on, or in a copy in
 * channel blocks (ONNXC_CONV_X_CBLOCK) ci / 16 blocks and ci % 16 on. */
static i64 channel_offset(const onnxc_conv2d_params *q, i64 ci) {
  if (q->flags & ONNXC_CONV_X_CBLOCK)
    return ci / ONNXC_CONV_CBLOCK * q->x_strides[2] + ci % ONNXC_CONV_CBLOCK;
  return ci * q->x_strides[2];
}

/* koff[k] for k = (ci, kh, kw) in that order, or in the order of
 * ONNXC_CONV_W_CBLOCK weights, (ci / 16, kh, kw, ci % 16): the offset of
 * tap k in a window (no division: K reaches thousands). */
static void conv_tap_offsets(const onnxc_conv2d_params *q, i64 *koff) {
  i64 k = 0, ci, kh, kw, c;
  if (q->flags & ONNXC_CONV_W_CBLOCK) {
    for (ci = 0; ci < q->in_channels; ci += ONNXC_CONV_CBLOCK)
      for (kh = 0; kh < q->kernel_h; ++kh)
        for (kw = 0; kw < q->kernel_w; ++kw)
          for (c = 0; c < ONNXC_CONV_CBLOCK; ++c)
            koff[k++] = channel_offset(q, ci + c) +
                        kh * q->dilation_h * q->x_strides[3] +
                        kw * q->dilation_w * q->x_strides[4];
    return;
  }
  if (q->flags & ONNXC_CONV_X_SPLIT) {
    /* Column 2 ow + kw of the original row: kw / 2 on among the even
     * columns, or (kw - 1) / 2 on among the odd ones (internal.h). */
    for (ci = 0; ci < q->in_channels; ++ci)
      for (kh = 0; kh < q->kernel_h; ++kh)
        for (kw = 0; kw < q->kernel_w; ++kw)
          koff[k++] = ci * q->x_strides[2] +
                      kh * q->dilation_h * q->x_strides[3] +
                      (kw & 1 ? q->in_w : 0) + kw / 2;
    return;
  }
  for (ci = 0; ci < q->in_channels; ++ci)
    for (kh = 0; kh < q->kernel_h; ++kh)
      for (kw = 0; kw < q->kernel_w; ++kw)
        koff[k++] = ci * q->x_strides[2] +
                    kh * q->dilation_h * q->x_strides[3] +
                    kw * q->dilation_w * q->x_strides[4];
}

void onnxc_rt_conv_igemm(const onnxc_kernels *kt, const onnxc_conv2d_params *q,
                         const float *x, const float *wp, float *y) {
  i64 kdim = q->in_channels * q->kernel_h * q->kernel_w;
  void *kraw;
  i64 *koff = (i64 *)onnxc_rt_gemm_alloc_panels(kdim * 2, &kraw); /* kdim int64 */
  conv_tap_offsets(q, koff);
  conv_igemm(kt, q, x, wp, y, koff);
  onnxc_rt_free_scratch(kraw);
}
