/*===- conv.c - fp32 2-D convolutions for generated code -----------------===*
 *
 * onnxc_rt_sconv2d (onnxc-linalg-to-ukernel; runtime_abi.h has the
 * contract): the path per call (depthwise kernels, a 1 x 1 product, the
 * indirect GEMM over packed weights, im2col + GEMM), the weights' packing
 * (conv_pad.c: the padded copy of the input; conv_igemm.c: the indirect
 * GEMM). The products run through gemm.c's packed
 * GEMM driver (gemm.h) and the tier's tiles (kernels/dispatch.h).
 *===----------------------------------------------------------------------===*/

#include "conv.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

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
    onnxc_rt_conv_igemm(kt, q, x, w, y);
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
