/*===- depthwise.c - Direct depthwise convolutions for generated code ----===*
 *
 * The convolutions with one input channel per group, and grouped ones
 * with a few (ONNXC_DW_GROUPED_MAX; one pass per input channel) (gemm.c's
 * onnxc_rt_sconv2d hands them here when the tier has a depthwise kernel):
 * each output is a sum of KH x KW input values times per-channel weights,
 * computed directly (im2col would copy KH x KW values per product). This
 * driver is ISA-independent: it walks the images, groups and output
 * channels and calls the tier's dw_channel (kernels/dispatch.h) for each
 * output plane.
 *
 * ONNXC_CONV_PADDED: when the tier's dw_reads_padding accepts the call
 * (3 x 3 strips of AVX-512 and AVX2 that mask the padding out of their
 * loads), the kernel reads the input in place. Otherwise each input
 * channel is first copied into a zeroed scratch plane of exactly the rows
 * and columns its windows read (the padding is zeroed once per call; each
 * channel rewrites only the part that comes from the input), whole before
 * any of its outputs is written, as ONNXC_CONV_IN_PLACE (y over x) needs;
 * the plane stays in L1 / L2, and the kernel sees no border. Either costs
 * less than a padded copy of the whole tensor through memory.
 *
 * ONNXC_CONV_ACT: the tier's act_row over each output plane right after
 * the channel kernel wrote it (still in cache).
 *===----------------------------------------------------------------------===*/

#include "kernels/dispatch.h"

#include "onnxc/runtime_abi.h"

#include <stdint.h>
#include <string.h>


int onnxc_rt_depthwise_takes(const onnxc_conv2d_params *q) {
  /* Gathers (strides other than 1 and 2, or strided input rows; the
   * padded plane has unit stride) take 16 column offsets in int32. */
  i64 xcol = (q->flags & ONNXC_CONV_PADDED) ? 1
             : q->x_strides[4] < 0          ? -q->x_strides[4]
                                            : q->x_strides[4];
  /* Not on the group count: a thread's part of a grouped call may hold one
   * group, and must take the whole call's path (parallel.c). */
  const onnxc_kernels *kt = onnxc_rt_kernels();
  int grouped = q->in_channels <= kt->dw_grouped_max &&
                q->out_channels <= kt->dw_grouped_max &&
                !(q->flags & ONNXC_CONV_IN_PLACE);
  return (q->in_channels == 1 || grouped) && q->y_strides[4] == 1 &&
         kt->dw_channel && q->stride_w <= INT32_MAX / 16 &&
         (xcol == 0 || q->stride_w * 16 <= INT32_MAX / xcol);
}

int onnxc_rt_depthwise_reads_padding(const onnxc_conv2d_params *q) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  return (q->flags & ONNXC_CONV_PADDED) && kt->dw_reads_padding &&
         kt->dw_reads_padding(q);
}

/* Rows [from, to) of a depthwise plane: columns [c0, c1) from input row
 * r - pad_top, column c - pad_left, of channel `xc`; the rest of the
 * plane stays zero. */
static void fill_plane(const onnxc_kernels *kt, const onnxc_conv2d_params *q,
                       const float *xc, float *plane, i64 wp, i64 c0, i64 c1,
                       i64 from, i64 to) {
  const i64 *xs = q->x_strides;
  i64 r, col;
  for (r = from; r < to; ++r) {
    const float *src =
        xc + (r - q->pad_top) * xs[3] + (c0 - q->pad_left) * xs[4];
    float *dst = plane + r * wp + c0;
    if (xs[4] == 1)
      kt->pad_row(dst, c1 - c0, 0, c1 - c0, src);
    else
      for (col = 0; col < c1 - c0; ++col)
        dst[col] = src[col * xs[4]];
  }
}

void onnxc_rt_depthwise(const onnxc_conv2d_params *q, const float *x,
                        const float *w, float *y) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  const i64 *xs = q->x_strides, *ws = q->w_strides, *ys = q->y_strides;
  int padded = (q->flags & ONNXC_CONV_PADDED) != 0;
  int direct = onnxc_rt_depthwise_reads_padding(q);
  /* The padded plane: hp x wp; columns [c0, c1) of its rows [r0, r1)
   * come from the input (row r - pad_top, column c - pad_left). */
  i64 hp = (q->out_h - 1) * q->stride_h + (q->kernel_h - 1) * q->dilation_h + 1;
  i64 wp = (q->out_w - 1) * q->stride_w + (q->kernel_w - 1) * q->dilation_w + 1;
  i64 c0 = 0, c1 = 0, r0 = 0, r1 = 0, xrow = xs[3], xcol = xs[4];
  float *plane = NULL, *yout = NULL;
  void *raw = NULL, *yraw = NULL;
  int in_place = (q->flags & ONNXC_CONV_IN_PLACE) != 0;
  i64 n, g, m, ci, block;
  dw_geom geom;
  tile_ep clamp;
  act_ep act;
  dw_args d;
  geom.pad_top = q->pad_top;
  geom.pad_left = q->pad_left;
  geom.in_h = q->in_h;
  geom.in_w = q->in_w;
  clamp.row_bias = clamp.col_bias = NULL;
  clamp.clamp = 1;
  clamp.act = NULL;
  clamp.lo = q->clamp_lo;
  clamp.hi = q->clamp_hi;
  /* Short rows: 16 channels at a time, one per vector lane, when the
   * tier has that kernel and it takes the call (its own padded tile). */
  block = kt->dw_block && !(q->flags & ONNXC_CONV_DW_NO_BLOCK)
              ? kt->dw_block_scratch(q)
              : 0;
  if (padded && !direct && block <= 0) {
    c0 = q->pad_left < 0 ? 0 : min64(q->pad_left, wp);
    c1 = min64(q->pad_left + q->in_w, wp);
    c1 = c1 < c0 ? c0 : c1;
    r0 = q->pad_top < 0 ? 0 : min64(q->pad_top, hp);
    r1 = min64(q->pad_top + q->in_h, hp);
    r1 = r1 < r0 ? r0 : r1;
    plane = onnxc_rt_alloc_scratch(hp * wp, &raw);
    memset(plane, 0, (size_t)(hp * wp) * sizeof(float));
    xrow = wp;
    xcol = 1;
  }
  d.xrow = xrow;
  d.xcol = xcol;
  d.wrow = ws[3];
  d.wcol = ws[4];
  d.yrow = ys[3];
  d.out_h = q->out_h;
  d.out_w = q->out_w;
  d.kernel_h = q->kernel_h;
  d.kernel_w = q->kernel_w;
  d.stride_h = q->stride_h;
  d.stride_w = q->stride_w;
  d.dilation_h = q->dilation_h;
  d.dilation_w = q->dilation_w;
  d.gm = direct ? &geom : NULL;
  d.clamp = (q->flags & ONNXC_CONV_CLAMP) ? &clamp : NULL;
  act.kind = (int)((q->flags & ONNXC_CONV_ACT_MASK) >> ONNXC_CONV_ACT_SHIFT);
  act.alpha = q->act_alpha;
  act.beta = q->act_beta;
  if (block > 0) {
    /* Short rows: 16 channels at a time, one per vector lane. */
    float *scratch = onnxc_rt_alloc_scratch(block, &raw);
    for (n = 0; n < q->batch; ++n)
      for (g = 0; g < q->groups; g += 16) {
        i64 nc = min64(16, q->groups - g), c;
        kt->dw_block(q, x, w, y, n, g, nc, scratch);
        /* The fused activation over the planes just written (flat: the
         * block takes only those). */
        if (act.kind != ONNXC_ACT_NONE)
          for (c = 0; c < nc; ++c)
            kt->act_row(y + n * ys[0] + (g + c) * ys[1], q->out_h * q->out_w,
                        &act);
      }
    onnxc_rt_free_scratch(raw);
    return;
  }
  /* In place on small planes, each plane's outputs go to a scratch plane
   * first, then to y by memcpy: the kernels' masked vector stores span
   * 64 bytes from a row's start, into the next channel's first rows, and
   * a load that overlaps a masked store waits for it to reach the cache
   * (no forwarding). MobileNetV2's 960 channels of 7 x 7: 92 us a layer
   * in place, 41-43 us through the scratch (39 into another buffer);
   * its 14 x 14 planes, whose last row only reaches 8 bytes into the
   * next, took 23 us in place and 29 through the scratch (Intel Xeon).
   * Only where Y's values are not read (ONNXC_CONV_BIAS). */
  if (in_place && (q->flags & ONNXC_CONV_BIAS) && q->out_h * ys[3] <= 100)
    yout = onnxc_rt_alloc_scratch(q->out_h * ys[3] + 16, &yraw);
  for (n = 0; n < q->batch; ++n)
    for (g = 0; g < q->groups; ++g)
     for (ci = 0; ci < q->in_channels; ++ci) {
      const float *xc = x + n * xs[0] + g * xs[1] + ci * xs[2];
      int last = ci == q->in_channels - 1;
      /* The whole channel before any of its outputs: y may be x itself
       * (ONNXC_CONV_IN_PLACE). */
      if (plane && c1 > c0)
        fill_plane(kt, q, xc, plane, wp, c0, c1, r0, r1);
      d.x = plane ? plane : xc;
      /* Grouped: the clamp after the last input channel's pass. */
      d.clamp = last && (q->flags & ONNXC_CONV_CLAMP) ? &clamp : NULL;
      for (m = 0; m < q->out_channels; ++m) {
        /* The fused bias (written, not added) on the first pass; the
         * other input channels' passes add to it. */
        static const float zero = 0.0f;
        float *yc = y + n * ys[0] + g * ys[1] + m * ys[2];
        d.w = w + g * ws[0] + m * ws[1] + ci * ws[2];
        d.y = yout ? yout : yc;
        d.bias = ci > 0 || !(q->flags & ONNXC_CONV_BIAS) ? NULL
                 : q->bias ? q->bias + g * q->out_channels + m
                           : &zero;
        kt->dw_channel(&d);
        /* The fused activation over the plane just written (L1 / L2). */
        if (last && act.kind != ONNXC_ACT_NONE) {
          i64 r;
          if (ys[3] == q->out_w)
            kt->act_row(d.y, q->out_h * q->out_w, &act);
          else
            for (r = 0; r < q->out_h; ++r)
              kt->act_row(d.y + r * ys[3], q->out_w, &act);
        }
        if (yout) {
          i64 r;
          if (ys[3] == q->out_w)
            memcpy(yc, yout, (size_t)(q->out_h * q->out_w) * sizeof(float));
          else
            for (r = 0; r < q->out_h; ++r)
              memcpy(yc + r * ys[3], yout + r * ys[3],
                     (size_t)q->out_w * sizeof(float));
        }
      }
    }
  onnxc_rt_free_scratch(yraw);
  onnxc_rt_free_scratch(raw);
}
