/*===- conv.c - fp32 2-D convolutions for generated code -----------------===*
 *
 * onnxc_rt_sconv2d (onnxc-linalg-to-ukernel; runtime_abi.h has the
 * contract): the path per call (depthwise kernels, a 1 x 1 product, the
 * indirect GEMM over packed weights, im2col + GEMM), the weights' packing
 * (conv_pad.c: the padded copy of the input). The products run through gemm.c's packed
 * GEMM driver (gemm.h) and the tier's tiles (kernels/dispatch.h).
 *===----------------------------------------------------------------------===*/

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The fused activation of a convolution (ONNXC_CONV_ACT), in `a`, or
 * NULL. */
static const act_ep *conv_act(const onnxc_conv2d_params *q, act_ep *a) {
  a->kind = (int)((q->flags & ONNXC_CONV_ACT_MASK) >> ONNXC_CONV_ACT_SHIFT);
  a->alpha = q->act_alpha;
  a->beta = q->act_beta;
  return a->kind != ONNXC_ACT_NONE ? a : NULL;
}

/* ONNXC_CONV_BIAS_ADD: the bias added to Y's values (the start of a call
 * that then sums into Y) over output channels [m0, m0 + count) of group g
 * and the flat positions [p0, p0 + np) of image n (Y flat: ys[4] == 1,
 * ys[3] == out_w), where the call's tiles read them next (in cache). */
static void bias_add_block(const onnxc_conv2d_params *q, i64 n, i64 g,
                           i64 m0, i64 count, i64 p0, i64 np, float *y) {
  const i64 *ys = q->y_strides;
  i64 m, p;
  if (!(q->flags & ONNXC_CONV_BIAS_ADD) || !q->bias)
    return;
  for (m = m0; m < m0 + count; ++m) {
    float b = q->bias[g * q->out_channels + m], *row;
    row = y + n * ys[0] + g * ys[1] + m * ys[2] + p0;
    for (p = 0; p < np; ++p)
      row[p] += b;
  }
}

/* bias_add_block over all of Y, any strides: the paths that do not add
 * the bias block by block. */
static void bias_add_all(const onnxc_conv2d_params *q, float *y) {
  const i64 *ys = q->y_strides;
  i64 n, g, m, oh, ow;
  if (!(q->flags & ONNXC_CONV_BIAS_ADD) || !q->bias)
    return;
  for (n = 0; n < q->batch; ++n)
    for (g = 0; g < q->groups; ++g)
      for (m = 0; m < q->out_channels; ++m) {
        float b = q->bias[g * q->out_channels + m];
        for (oh = 0; oh < q->out_h; ++oh) {
          float *row = y + n * ys[0] + g * ys[1] + m * ys[2] + oh * ys[3];
          for (ow = 0; ow < q->out_w; ++ow)
            row[ow * ys[4]] += b;
        }
      }
}

/* The call to run on paths that do not add a fused residual's bias block
 * by block: with ONNXC_CONV_BIAS_ADD, the bias added over all of Y and
 * the flag cleared in `plain`; else q itself. */
static const onnxc_conv2d_params *
bias_added(const onnxc_conv2d_params *q, float *y, onnxc_conv2d_params *plain) {
  if (!(q->flags & ONNXC_CONV_BIAS_ADD))
    return q;
  bias_add_all(q, y);
  *plain = *q;
  plain->flags &= ~(int64_t)ONNXC_CONV_BIAS_ADD;
  return plain;
}

/* The epilogue of one K block of output channels [m0, m0 + 32) of group g
 * of a convolution: with ONNXC_CONV_BIAS the first block writes Y from the
 * bias (per row or per column of the tile: `per_row`), later blocks add to
 * it; without, every block adds to Y (which holds the initial values).
 * ONNXC_CONV_CLAMP clamps after the last block, and `act` (may be NULL)
 * is the tile's activation after it. NULL when there is nothing to do but
 * accumulate. */
static const tile_ep *conv_block_ep(const onnxc_conv2d_params *q, i64 g,
                                    i64 m0, int first, int last, int per_row,
                                    const act_ep *act, int *accumulate,
                                    tile_ep *ep) {
  int bias = (q->flags & ONNXC_CONV_BIAS) && first;
  int clamp = (q->flags & ONNXC_CONV_CLAMP) && last;
  *accumulate = !bias;
  act = last ? act : NULL;
  /* A null bias with ONNXC_CONV_BIAS: Y starts from zero. */
  bias = bias && q->bias;
  if (!bias && !clamp && !act)
    return NULL;
  ep->row_bias = bias && per_row ? q->bias + g * q->out_channels + m0 : NULL;
  ep->col_bias = bias && !per_row ? q->bias + g * q->out_channels + m0 : NULL;
  ep->clamp = clamp;
  ep->lo = q->clamp_lo;
  ep->hi = q->clamp_hi;
  ep->act = act;
  return ep;
}

/* conv_block_ep for a block_args whose rows are output channels from m0;
 * the activation `act` (may be NULL) after the last block. */
static void set_block_ep(block_args *b, const onnxc_conv2d_params *q, i64 g,
                         i64 m0, int first, int last, const act_ep *act) {
  tile_ep ep;
  int accumulate;
  const tile_ep *e =
      conv_block_ep(q, g, m0, first, last, 1, NULL, &accumulate, &ep);
  b->accumulate = accumulate;
  b->row_bias = e ? e->row_bias : NULL;
  b->col_bias = NULL;
  b->clamp = e ? e->clamp : 0;
  b->lo = q->clamp_lo;
  b->hi = q->clamp_hi;
  b->act = last ? act : NULL;
}

/* ---- Convolution ------------------------------------------------------ */

/* Bp <- the im2col rows [p0, p0 + kc) and columns [j0, j0 + nc) of one
 * image and group, as panels: row (ci, kh, kw), column (oh, ow) holds
 * X[ci, oh * sh + kh * dh, ow * sw + kw * dw]. The input is padded already,
 * so every index is in range. `rows` is scratch for kc row pointers. */
static void pack_im2col(const onnxc_kernels *kt,
                        const onnxc_conv2d_params *q, const float *x, i64 p0,
                        i64 kc, i64 j0, i64 nc, float *bp, const float **rows,
                        int vector) {
  i64 khw = q->kernel_h * q->kernel_w;
  i64 j, p, col;
  for (p = 0; p < kc; ++p) {
    i64 kk = p0 + p;
    i64 ci = kk / khw, kh = (kk % khw) / q->kernel_w, kw = kk % q->kernel_w;
    rows[p] = x + ci * q->x_strides[2] + kh * q->dilation_h * q->x_strides[3] +
              kw * q->dilation_w * q->x_strides[4];
  }
  for (j = 0; j < nc; j += NR) {
    i64 nw = min64(NR, nc - j);
    int32_t off[NR];
    int contiguous = 1;
    for (col = 0; col < NR; ++col) {
      i64 pos = j0 + j + (col < nw ? col : 0);
      i64 oh = pos / q->out_w, ow = pos % q->out_w;
      off[col] = (int32_t)(oh * q->stride_h * q->x_strides[3] +
                           ow * q->stride_w * q->x_strides[4]);
      if (col < nw && off[col] != off[0] + col)
        contiguous = 0;
    }
    /* The tier's copy (gathers take the offsets as int32 lanes: the caller
     * checks that they fit), or the portable one. */
    (vector ? kt->im2col : onnxc_rt_im2col_portable)(rows, kc, off, nw,
                                                     contiguous, bp);
    bp += kc * NR;
  }
}

/* ---- The 1 x 1 path's weights in micro-panels ------------------------- */

/* The AVX-512 tier's 8-row tiles broadcast 8 weights per k: in the
 * compiler's panels (32 channels a k) a tile's weights are 32 bytes of
 * every 128, and a 256-deep block's panel (32 KiB) and X's panel (32 KiB)
 * do not both fit in L1. In micro-panels of 8 channels (8 floats a k) a
 * tile's weights are one stream. Constant weights are re-laid once and
 * kept (onnxc_rt_kept_weights, as Winograd's transforms);
 * ONNXC_CONV_MICROPANELS=0 turns this off. */
static int micro_enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_CONV_MICROPANELS", &on);
}

/* q's packed weights `wp` ([groups][panels][K][32]) as
 * [groups][panels][4][K][8] (onnxc_rt_kept_weights' derive). */
static float *relay_micro(const onnxc_conv2d_params *q, const float *wp,
                          const void *arg) {
  i64 kdim = q->in_channels, panels = (q->out_channels + NR - 1) / NR, i, k, r;
  float *u = onnxc_rt_malloc_large(sizeof(float) *
                                   (size_t)(q->groups * panels * kdim * NR));
  (void)arg;
  if (!u)
    return NULL;
  for (i = 0; i < q->groups * panels; ++i) {
    const float *src = wp + i * kdim * NR;
    float *dst = u + i * kdim * NR;
    for (r = 0; r < NR / 8; ++r)
      for (k = 0; k < kdim; ++k)
        memcpy(dst + (r * kdim + k) * 8, src + k * NR + r * 8,
               8 * sizeof(float));
  }
  return u;
}

/* The micro-panels of q's packed weights, or NULL (another tier, weights
 * that are not constants, channels not a multiple of 8, no memory). */
static const float *micro_panels(const onnxc_kernels *kt,
                                 const onnxc_conv2d_params *q,
                                 const float *wp) {
  i64 panels = (q->out_channels + NR - 1) / NR;
  if (kt->sgemm_mr != 8 || q->out_channels % 8 != 0 ||
      !(q->flags & ONNXC_CONV_W_CONST) || !micro_enabled())
    return NULL;
  return onnxc_rt_kept_weights(q, wp, q->groups * panels * q->in_channels * NR,
                               ONNXC_KEPT_MICRO_PANELS, relay_micro, NULL);
}

/* The 1 x 1 convolution over packed weights (see onnxc_rt_sconv2d). */
static void conv1x1_packed(const onnxc_conv2d_params *q, const float *x,
                           const float *wp, float *y) {
  const i64 *xs = q->x_strides, *ys = q->y_strides;
  i64 kdim = q->in_channels, npos = q->out_h * q->out_w;
  i64 panels = (q->out_channels + NR - 1) / NR;
  const onnxc_kernels *kt = onnxc_rt_kernels();
  void *raw;
  float *buf = onnxc_rt_alloc_scratch(KC * min64(NC, (npos + NR - 1) / NR * NR), &raw);
  act_ep act_storage;
  const act_ep *act = conv_act(q, &act_storage);
  /* Shallow products read X in place (the tier's strided tile, up to its
   * sgemm_strided_k input channels: dispatch.h): a packed panel saves
   * little over K rows of 128 bytes, and packing is a pass over the input
   * as large as the product's reads of it. Unless 64 input channels or
   * more meet 128 output channels or more (four panels or more read the
   * packed block): packed, ResNeXt's 128 -> 256 over 56 x 56 took 6% less
   * time on AVX-512, 64 -> 256 2-3% less (docs/performance.md). The last
   * part of a block short of a panel is packed. */
  int in_place = kt->sgemm_tile_strided && kdim <= kt->sgemm_strided_k &&
                 !(kdim >= 64 && q->out_channels >= 128);
  const float *mp = micro_panels(kt, q, wp);
  i64 n, g, jc, pc, j;
  for (n = 0; n < q->batch; ++n)
    for (g = 0; g < q->groups; ++g) {
      const float *xg = x + n * xs[0] + g * xs[1];
      float *yg = y + n * ys[0] + g * ys[1];
      for (jc = 0; jc < npos; jc += NC) {
        i64 nc = min64(NC, npos - jc);
        i64 nfull = in_place ? nc / NR * NR : 0; /* columns read in place */
        for (pc = 0; pc < kdim; pc += KC) {
          i64 kc = min64(KC, kdim - pc);
          if (nc > nfull)
            onnxc_rt_gemm_pack_b(kt, xg + pc * xs[2] + jc + nfull, xs[2], 1,
                                 kc, nc - nfull, buf);
          for (j = 0; j < panels; ++j) {
            block_args b;
            memset(&b, 0, sizeof b);
            b.m = min64(NR, q->out_channels - j * NR);
            if (pc == 0)
              bias_add_block(q, n, g, j * NR, b.m, jc, nc, y);
            b.kc = kc;
            if (mp) {
              b.a = mp + (g * panels + j) * kdim * NR + pc * 8;
              b.rsa = 1;
              b.csa = 8;
              b.a_group = kdim * 8;
            } else {
              b.a = wp + ((g * panels + j) * kdim + pc) * NR;
              b.rsa = 1;
              b.csa = NR;
            }
            b.rsc = ys[2];
            b.csc = 1;
            set_block_ep(&b, q, g, j * NR, pc == 0, pc + kc == kdim, act);
            if (nfull) {
              b.nc = nfull;
              b.b_in_place = xg + pc * xs[2] + jc;
              b.ldb = xs[2];
              b.c = yg + j * NR * ys[2] + jc;
              onnxc_rt_gemm_block(kt, &b);
            }
            if (nc > nfull) {
              b.nc = nc - nfull;
              b.b_in_place = NULL;
              b.bp = buf;
              b.panel_stride = kc * NR;
              b.c = yg + j * NR * ys[2] + jc + nfull;
              onnxc_rt_gemm_block(kt, &b);
            }
          }
        }
      }
    }
  onnxc_rt_free_scratch(raw);
}

#define MCP 128 /* output positions per block (their windows stay in L2) */

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
                onnxc_pf_span pf;
                onnxc_rt_pf_next_step(&pf, panel, kdim * NR, kb, kl, kc,
                                      KSTEP2,
                                      (mc + kt->conv_mr2 - 1) / kt->conv_mr2);
                onnxc_tile_seq ts = onnxc_rt_tile_seq(mc, kt->conv_mr2);
                i64 tiles = (mc + kt->conv_mr2 - 1) / kt->conv_mr2, t = 0;
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

/* Packed weights back to W[g, m, ci, kh, kw] (contiguous), for the paths
 * that read W in place. */
static void unpack_conv_weights(const onnxc_conv2d_params *q, const float *wp,
                                float *out) {
  i64 khw = q->kernel_h * q->kernel_w, kdim = q->in_channels * khw;
  i64 panels = (q->out_channels + NR - 1) / NR;
  int cblock = (q->flags & ONNXC_CONV_W_CBLOCK) != 0;
  i64 g, m, k;
  for (g = 0; g < q->groups; ++g)
    for (m = 0; m < q->out_channels; ++m)
      for (k = 0; k < kdim; ++k) {
        /* k = (c, t) with t = (kh, kw); its panel row. */
        i64 c = k / khw, t = k % khw;
        i64 row = cblock ? ((c / ONNXC_CONV_CBLOCK) * khw + t) * ONNXC_CONV_CBLOCK +
                               c % ONNXC_CONV_CBLOCK
                         : k;
        out[(g * q->out_channels + m) * kdim + k] =
            wp[((g * panels + m / NR) * kdim + row) * NR + m % NR];
      }
}

/* q's packed weights unpacked into a scratch buffer (*raw, freed by the
 * caller with onnxc_rt_free_scratch), and in *plain q's parameters for
 * them: contiguous W[g, m, ci, kh, kw], ONNXC_CONV_W_PACKED cleared. */
static const float *unpacked_weights(const onnxc_conv2d_params *q,
                                     const float *wp,
                                     onnxc_conv2d_params *plain, void **raw) {
  i64 khw = q->kernel_h * q->kernel_w, kdim = q->in_channels * khw;
  float *wbuf = onnxc_rt_gemm_alloc_panels(q->groups * q->out_channels * kdim, raw);
  unpack_conv_weights(q, wp, wbuf);
  *plain = *q;
  plain->flags =
      q->flags & ~(int64_t)(ONNXC_CONV_W_PACKED | ONNXC_CONV_W_CBLOCK);
  plain->w_strides[0] = q->out_channels * kdim;
  plain->w_strides[1] = kdim;
  plain->w_strides[2] = khw;
  plain->w_strides[3] = q->kernel_w;
  plain->w_strides[4] = 1;
  return wbuf;
}

static void conv_unpacked(const onnxc_conv2d_params *q, const float *x,
                          const float *w, float *y);

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

/* Weights that arrive unpacked (they change between calls: a training
 * step's weights, or the output gradient that is the "kernel" of a weight
 * gradient's convolution) are packed here, once per call, for the
 * indirect GEMM when that costs less than the im2col + GEMM path's
 * packing: the im2col path packs kdim rows of every image's positions
 * (rounded up to panels of 32), this one the weights' kdim rows of every
 * channel (rounded up to panels). A weight gradient's convolution has
 * few positions (3 x 3 from 14 x 14 kernels): the im2col path fills 9 of
 * each panel's 32 columns and packs 6272 rows per image for them, and the
 * indirect GEMM puts the positions on the tile's rows instead. A
 * training step's convolutions have batches of images against small
 * weights. An inference call with unpacked weights and a single image
 * whose weights outweigh it stays on the im2col path. */
int onnxc_rt_sconv2d_packs_weights(const onnxc_conv2d_params *q) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  i64 kdim = q->in_channels * q->kernel_h * q->kernel_w;
  i64 npos = q->out_h * q->out_w;
  i64 panels = (q->out_channels + NR - 1) / NR;
  if ((q->flags & (ONNXC_CONV_W_PACKED | ONNXC_CONV_IN_PLACE)) ||
      !kt->conv_tile || kdim <= 0 || npos <= 0 || q->batch <= 0 ||
      q->y_strides[4] != 1 || q->y_strides[3] != q->out_w ||
      onnxc_rt_depthwise_takes(q))
    return 0;
  return panels <= q->batch * ((npos + NR - 1) / NR);
}

const float *onnxc_rt_sconv2d_pack_weights(const onnxc_conv2d_params *q,
                                           const float *w,
                                           onnxc_conv2d_params *packed,
                                           void **raw) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  const i64 *ws = q->w_strides;
  i64 kdim = q->in_channels * q->kernel_h * q->kernel_w;
  i64 panels = (q->out_channels + NR - 1) / NR;
  void *oraw;
  float *wp = onnxc_rt_alloc_scratch(q->groups * panels * kdim * NR, raw);
  i64 *woff = (i64 *)onnxc_rt_alloc_scratch(kdim * 2, &oraw); /* kdim int64 */
  i64 g, j, k0, k, col;
  /* woff[k]: tap k = (ci, kh, kw) of a channel's weights. */
  {
    i64 ci, kh, kw;
    k = 0;
    for (ci = 0; ci < q->in_channels; ++ci)
      for (kh = 0; kh < q->kernel_h; ++kh)
        for (kw = 0; kw < q->kernel_w; ++kw)
          woff[k++] = ci * ws[2] + kh * ws[3] + kw * ws[4];
  }
  /* Panel j, row k: the 32 channels' weights of tap k. Taps contiguous
   * per channel (W[m, (c, kh, kw)] with unit stride, as a transposed or
   * computed kernel comes): each group's weights are B transposed, K x
   * out_channels, packed from columns. */
  if ((q->kernel_w == 1 || ws[4] == 1) &&
      (q->kernel_h == 1 || ws[3] == q->kernel_w) &&
      (q->in_channels == 1 || ws[2] == q->kernel_h * q->kernel_w)) {
    for (g = 0; g < q->groups; ++g)
      kt->pack_cols(w + g * ws[0], ws[1], kdim, q->out_channels,
                    wp + g * panels * kdim * NR);
    onnxc_rt_free_scratch(oraw);
    *packed = *q;
    packed->flags |= ONNXC_CONV_W_PACKED;
    return wp;
  }
  /* Otherwise in blocks of 64 rows (8 KiB of the panel, in L1), one
   * channel's taps at a time. */
  for (g = 0; g < q->groups; ++g)
    for (j = 0; j < panels; ++j) {
      i64 nw = min64(NR, q->out_channels - j * NR);
      float *panel = wp + (g * panels + j) * kdim * NR;
      for (k0 = 0; k0 < kdim; k0 += 64) {
        i64 ke = min64(kdim, k0 + 64);
        for (col = 0; col < nw; ++col) {
          const float *src = w + g * ws[0] + (j * NR + col) * ws[1];
          for (k = k0; k < ke; ++k)
            panel[k * NR + col] = src[woff[k]];
        }
        for (k = k0; k < ke; ++k)
          for (col = nw; col < NR; ++col)
            panel[k * NR + col] = 0.0f;
      }
    }
  onnxc_rt_free_scratch(oraw);
  *packed = *q;
  packed->flags |= ONNXC_CONV_W_PACKED;
  return wp;
}

/* The padded copy of a band of output rows stays under this many bytes,
 * in L2 (where the whole copy of a large input went to L3 and came back
 * for the product). */
#define PAD_BAND_BYTES (512 << 10)

void onnxc_rt_sconv2d_rows(const onnxc_conv2d_params *q, i64 lo, i64 count,
                           onnxc_conv2d_params *part, const float **x,
                           float **y) {
  *part = *q;
  part->out_h = count;
  if (q->flags & ONNXC_CONV_PADDED)
    part->pad_top -= lo * q->stride_h;
  else
    *x += lo * q->stride_h * q->x_strides[3];
  *y += lo * q->y_strides[3];
}

/* Output rows per band of a padded convolution: its padded input rows
 * within PAD_BAND_BYTES, at least MCP positions (a band re-reads the
 * weights once per MCP positions anyway), all of out_h when one band
 * would hold most of them. */
static i64 pad_band_rows(const onnxc_conv2d_params *q) {
  i64 wp = (q->out_w - 1) * q->stride_w + (q->kernel_w - 1) * q->dilation_w + 1;
  i64 halo = (q->kernel_h - 1) * q->dilation_h + 1 - q->stride_h;
  double row = 4.0 * (double)(q->batch * q->groups * q->in_channels) *
               (double)wp; /* bytes of one padded input row */
  i64 min_rows = (MCP + q->out_w - 1) / q->out_w, rows;
  if (row <= 0)
    return q->out_h;
  rows = (i64)((PAD_BAND_BYTES / row - (double)halo) / (double)q->stride_h);
  if (rows < min_rows)
    rows = min_rows;
  return 2 * rows > q->out_h ? q->out_h : rows;
}

/* onnxc_rt_sconv2d on this thread (parallel.c splits the calls). */
void onnxc_rt_sconv2d_serial(const onnxc_conv2d_params *q, const float *x,
                             const float *w, float *y) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  i64 khw = q->kernel_h * q->kernel_w;
  i64 kdim = q->in_channels * khw;
  int packed = (q->flags & ONNXC_CONV_W_PACKED) != 0;
  int y_flat = q->y_strides[4] == 1 && q->y_strides[3] == q->out_w;
  if (q->batch <= 0 || q->groups <= 0 || q->out_channels <= 0 ||
      q->out_h <= 0 || q->out_w <= 0)
    return;
  if (onnxc_rt_sconv2d_packs_weights(q)) {
    onnxc_conv2d_params p;
    void *raw;
    const float *wp = onnxc_rt_sconv2d_pack_weights(q, w, &p, &raw);
    onnxc_rt_sconv2d_serial(&p, x, wp, y);
    onnxc_rt_free_scratch(raw);
    return;
  }
  if (packed && q->in_channels > 1 && onnxc_rt_depthwise_takes(q)) {
    /* Grouped with few channels per group (the compiler packed its
     * constant weights): the depthwise kernels, on the weights unpacked
     * (a group's few channels fill a fraction of a GEMM panel). */
    onnxc_conv2d_params plain;
    void *wraw;
    const float *wbuf = unpacked_weights(q, w, &plain, &wraw);
    onnxc_rt_sconv2d_serial(&plain, x, wbuf, y);
    onnxc_rt_free_scratch(wraw);
    return;
  }
  if (q->flags & ONNXC_CONV_PADDED) {
    onnxc_conv2d_params padded;
    void *raw;
    const float *xp;
    /* The depthwise kernel reads around the padding or pads each channel
     * into a small plane itself. */
    if (!packed && onnxc_rt_depthwise_takes(q)) {
      onnxc_conv2d_params plain;
      onnxc_rt_depthwise(bias_added(q, y, &plain), x, w, y);
      return;
    }
    /* The GEMM paths: a padded copy (one pass over the input, small next
     * to the product; all of it read before y is written, as
     * ONNXC_CONV_IN_PLACE needs), in channel blocks for ONNXC_CONV_W_CBLOCK
     * weights. A large input in bands of output rows, each padding its
     * own rows into a copy that stays in L2 (not in place: a band's
     * output would overwrite rows the next band reads). */
    if (!(q->flags & ONNXC_CONV_IN_PLACE)) {
      i64 band = pad_band_rows(q);
      if (band < q->out_h) {
        i64 lo;
        for (lo = 0; lo < q->out_h; lo += band) {
          onnxc_conv2d_params part;
          const float *xb = x;
          float *yb = y;
          onnxc_rt_sconv2d_rows(q, lo, min64(band, q->out_h - lo), &part, &xb,
                                &yb);
          onnxc_rt_sconv2d_serial(&part, xb, w, yb);
        }
        return;
      }
    }
    xp = onnxc_rt_sconv2d_pad_input(q, x, &padded, &raw, 1);
    onnxc_rt_sconv2d_serial(&padded, xp, w, y);
    onnxc_rt_free_scratch(raw);
    return;
  }
  /* Weights packed (by the compiler: constant weights of convolutions with
   * several input channels per group) and Y flat: the indirect GEMM.
   * Packing here instead would cost a pass over the weights per call, more
   * than the convolution itself for small images: unpacked weights take
   * the im2col path. */
  /* 1 x 1, stride 1, unpadded rows: Y = W X with X read as a C x (H W)
   * matrix, the GEMM's own orientation (packed weights as A, one 32-channel
   * panel at a time: rows 1 float apart, k 32 floats apart; X packed into
   * panels per block as B). No transposed stores, unlike the indirect
   * GEMM, whose epilogue dominates such small-K convolutions. With narrow
   * maps and a deeper K, the indirect GEMM is faster (rows are positions:
   * no 32-wide panel of positions mostly empty, as 49 or 196 give, deeper
   * K blocks, and the transposed stores matter less): 10-20% on
   * MobileNetV2's 28 x 28 to 7 x 7 layers. The choice depends on the row
   * width, not the row count, so that every band of rows of a split call
   * takes the same path (the two sum in different K blocks). Both are the
   * tier's vector tiles; without conv_tile (the portable tier), the im2col
   * path below. */
  /* A strided 1 x 1 convolution (ResNet's downsampling shortcuts) over a
   * copy of the positions it reads, then as a stride-1 one, when a row of
   * its output spans 64 KiB of input or more (ResNeXt's: 114 KiB, an
   * input of 0.8 to 3.2 MB, past L2 with the rest): with stride 2 each
   * line read served 8 positions, not 16, once per two panels of output
   * channels. About -3% on each of ResNeXt's three on AVX-512 and -7 to
   * -12% on AVX2; ResNet-18's (28 KiB a row) were 1-4% slower so
   * (docs/performance.md). Not on the row count or the channel count, so
   * that the parts of a split call take the whole call's path. */
  if (packed && kt->conv_tile && y_flat && q->kernel_h == 1 &&
      q->kernel_w == 1 && (q->stride_h > 1 || q->stride_w > 1) &&
      !(q->flags & ONNXC_CONV_PADDED) &&
      q->in_channels * q->stride_h * ((q->out_w - 1) * q->stride_w + 1) *
              (i64)sizeof(float) >=
          64 * 1024) {
    onnxc_conv2d_params sub;
    void *raw;
    const float *xs = onnxc_rt_sconv2d_subsample(q, x, &sub, &raw);
    onnxc_rt_sconv2d_serial(&sub, xs, w, y);
    onnxc_rt_free_scratch(raw);
    return;
  }
  if (packed && kt->conv_tile && y_flat && q->kernel_h == 1 &&
      q->kernel_w == 1 && q->stride_h == 1 && q->stride_w == 1 &&
      q->x_strides[4] == 1 && q->x_strides[3] == q->out_w &&
      !(q->out_w <= 32 && kdim >= 64)) {
    conv1x1_packed(q, x, w, y);
    return;
  }
  if (packed && kt->conv_tile && y_flat && kdim > 0) {
    void *kraw;
    i64 *koff = (i64 *)onnxc_rt_gemm_alloc_panels(kdim * 2, &kraw); /* kdim int64 */
    conv_tap_offsets(q, koff);
    conv_igemm(kt, q, x, w, y, koff);
    onnxc_rt_free_scratch(kraw);
    return;
  }
  if (packed) {
    /* Packed weights on a path that reads them in place: unpack. */
    onnxc_conv2d_params plain;
    void *wraw;
    const float *wbuf = unpacked_weights(q, w, &plain, &wraw);
    conv_unpacked(&plain, x, wbuf, y);
    onnxc_rt_free_scratch(wraw);
    return;
  }
  conv_unpacked(q, x, w, y);
}

/* Weights in place (strided): depthwise, im2col + GEMM, or loops; with
 * ONNXC_CONV_BIAS_ADD, Y's values plus the bias first. */
static void conv_unpacked(const onnxc_conv2d_params *call, const float *x,
                          const float *w, float *y) {
  onnxc_conv2d_params plain;
  const onnxc_conv2d_params *q = bias_added(call, y, &plain);
  const onnxc_kernels *kt = onnxc_rt_kernels();
  i64 khw = q->kernel_h * q->kernel_w;
  i64 kdim = q->in_channels * khw;
  i64 npos = q->out_h * q->out_w;
  const i64 *xs = q->x_strides, *ws = q->w_strides, *ys = q->y_strides;
  void *raw = NULL, *wraw = NULL;
  float *buf, *wbuf = NULL;
  const float *rows[KC];
  int vector = 1;
  act_ep act_storage;
  const act_ep *act = conv_act(q, &act_storage);
  i64 n, g, jc, pc;
  /* The kernel reads W as a matrix M x (C * KH * KW) with unit column
   * stride and Y as M x (OH * OW): copy whichever is not laid out so. */
  int w_flat = ws[4] == 1 && ws[3] == q->kernel_w && ws[2] == khw;
  int y_flat = ys[4] == 1 && ys[3] == q->out_w;
  /* Depthwise: a direct kernel (im2col would copy KH x KW values per
   * product). */
  if (onnxc_rt_depthwise_takes(q)) {
    onnxc_rt_depthwise(q, x, w, y);
    return;
  }
  if (kdim <= 0 || !y_flat || q->in_channels == 1) {
    /* Degenerate or unusual layouts, and depthwise where the tier has no
     * depthwise kernel: the plain loop nest. */
    i64 m, oh, ow, ci, kh, kw;
    for (n = 0; n < q->batch; ++n)
      for (g = 0; g < q->groups; ++g)
        for (m = 0; m < q->out_channels; ++m)
          for (oh = 0; oh < q->out_h; ++oh)
            for (ow = 0; ow < q->out_w; ++ow) {
              float acc = 0.0f;
              for (ci = 0; ci < q->in_channels; ++ci)
                for (kh = 0; kh < q->kernel_h; ++kh)
                  for (kw = 0; kw < q->kernel_w; ++kw)
                    acc += x[n * xs[0] + g * xs[1] + ci * xs[2] +
                             (oh * q->stride_h + kh * q->dilation_h) * xs[3] +
                             (ow * q->stride_w + kw * q->dilation_w) * xs[4]] *
                           w[g * ws[0] + m * ws[1] + ci * ws[2] + kh * ws[3] +
                             kw * ws[4]];
              {
                float *dst = &y[n * ys[0] + g * ys[1] + m * ys[2] +
                                oh * ys[3] + ow * ys[4]];
                float v = !(q->flags & ONNXC_CONV_BIAS) ? *dst + acc
                          : q->bias ? q->bias[g * q->out_channels + m] + acc
                                    : acc;
                if (q->flags & ONNXC_CONV_CLAMP)
                  v = v < q->clamp_lo   ? q->clamp_lo
                      : v > q->clamp_hi ? q->clamp_hi
                                        : v;
                *dst = act ? act_scalar(v, act) : v;
              }
            }
    return;
  }
  if (!w_flat) {
    i64 m, ci, kh, kw;
    wbuf = onnxc_rt_gemm_alloc_panels(q->groups * q->out_channels * kdim, &wraw);
    for (g = 0; g < q->groups; ++g)
      for (m = 0; m < q->out_channels; ++m)
        for (ci = 0; ci < q->in_channels; ++ci)
          for (kh = 0; kh < q->kernel_h; ++kh)
            for (kw = 0; kw < q->kernel_w; ++kw)
              wbuf[(g * q->out_channels + m) * kdim + ci * khw +
                   kh * q->kernel_w + kw] =
                  w[g * ws[0] + m * ws[1] + ci * ws[2] + kh * ws[3] +
                    kw * ws[4]];
  }
  /* Offsets within one image and group must fit the packing's int32. */
  if ((q->out_h * q->stride_h + q->kernel_h * q->dilation_h) * xs[3] +
          (q->out_w * q->stride_w + q->kernel_w * q->dilation_w) * xs[4] +
          q->in_channels * xs[2] >
      INT32_MAX)
    vector = 0;
  buf = onnxc_rt_gemm_alloc_panels(KC * min64(NC, (npos + NR - 1) / NR * NR), &raw);
  for (n = 0; n < q->batch; ++n) {
    for (g = 0; g < q->groups; ++g) {
      const float *xg = x + n * xs[0] + g * xs[1];
      const float *wg = wbuf ? wbuf + g * q->out_channels * kdim : w + g * ws[0];
      i64 rsa = wbuf ? kdim : ws[1];
      float *yg = y + n * ys[0] + g * ys[1];
      for (jc = 0; jc < npos; jc += NC) {
        i64 nc = min64(NC, npos - jc);
        for (pc = 0; pc < kdim; pc += KC) {
          block_args b;
          memset(&b, 0, sizeof b);
          b.kc = min64(KC, kdim - pc);
          pack_im2col(kt, q, xg, pc, b.kc, jc, nc, buf, rows, vector);
          b.m = q->out_channels;
          b.nc = nc;
          b.a = wg + pc;
          b.rsa = rsa;
          b.csa = 1;
          b.bp = buf;
          b.panel_stride = b.kc * NR;
          b.c = yg + jc;
          b.rsc = ys[2];
          b.csc = 1;
          set_block_ep(&b, q, g, 0, pc == 0, pc + b.kc == kdim, act);
          onnxc_rt_gemm_block(kt, &b);
        }
      }
    }
  }
  onnxc_rt_free_scratch(raw);
  onnxc_rt_free_scratch(wraw);
}
