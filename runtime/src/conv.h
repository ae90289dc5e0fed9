/*===- conv.h - What conv.c and conv_igemm.c share ------------------------===*
 *
 * The fp32 convolution's epilogue helpers (the fused activation, a fused
 * residual's bias, a K block's tile epilogue), the block of output
 * positions, and the indirect GEMM's entry (conv_igemm.c).
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_CONV_H
#define ONNXC_RUNTIME_CONV_H

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#define MCP 128 /* output positions per block (their windows stay in L2) */

/* The fused activation of a convolution (ONNXC_CONV_ACT), in `a`, or
 * NULL. */
static inline const act_ep *conv_act(const onnxc_conv2d_params *q, act_ep *a) {
  a->kind = (int)((q->flags & ONNXC_CONV_ACT_MASK) >> ONNXC_CONV_ACT_SHIFT);
  a->alpha = q->act_alpha;
  a->beta = q->act_beta;
  return a->kind != ONNXC_ACT_NONE ? a : NULL;
}

/* ONNXC_CONV_BIAS_ADD: the bias added to Y's values (the start of a call
 * that then sums into Y) over output channels [m0, m0 + count) of group g
 * and the flat positions [p0, p0 + np) of image n (Y flat: ys[4] == 1,
 * ys[3] == out_w), where the call's tiles read them next (in cache). */
static inline void bias_add_block(const onnxc_conv2d_params *q, i64 n, i64 g,
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

/* The epilogue of one K block of output channels [m0, m0 + 32) of group g
 * of a convolution: with ONNXC_CONV_BIAS the first block writes Y from the
 * bias (per row or per column of the tile: `per_row`), later blocks add to
 * it; without, every block adds to Y (which holds the initial values).
 * ONNXC_CONV_CLAMP clamps after the last block, and `act` (may be NULL)
 * is the tile's activation after it. NULL when there is nothing to do but
 * accumulate. */
static inline const tile_ep *
conv_block_ep(const onnxc_conv2d_params *q, i64 g, i64 m0, int first,
              int last, int per_row, const act_ep *act, int *accumulate,
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

/* The convolution over packed weights `wp` ([groups][panels][K][32],
 * runtime_abi.h) with Y laid out flat (ys[4] == 1, ys[3] == out_w) as an
 * indirect GEMM: each tile's rows are output positions, read through the
 * offsets of the window's taps (no im2col copy). */
ONNXC_HIDDEN void onnxc_rt_conv_igemm(const onnxc_kernels *kt,
                                      const onnxc_conv2d_params *q,
                                      const float *x, const float *wp,
                                      float *y);

#endif /* ONNXC_RUNTIME_CONV_H */
