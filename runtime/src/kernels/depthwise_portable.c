/*===- kernels/depthwise_portable.c - Depthwise convolutions in plain C ---===*
 *
 * The portable tier's dw_channel (dispatch.h; depthwise.c drives it, one
 * channel at a time, through a zero-padded plane when the input has
 * padding): any window, stride and dilation. Per output row, 64 columns
 * at a time in an array: the bias (or Y's values), then one pass per tap
 * adding weight * input over the columns, then the clamp. The passes are
 * loops over contiguous columns (stride 1) that the compiler vectorizes
 * for the target's baseline (SSE2 on x86-64, NEON on aarch64); each output
 * is summed over the taps in (kh, kw) order.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#define COLS 64

static void dw_channel_portable(const dw_args *d) {
  const i64 sx = d->stride_w * d->xcol;
  float acc[COLS];
  i64 oh, ow, kh, kw, j;
  for (oh = 0; oh < d->out_h; ++oh) {
    const float *x0 = d->x + oh * d->stride_h * d->xrow;
    float *yr = d->y + oh * d->yrow;
    for (ow = 0; ow < d->out_w; ow += COLS) {
      const i64 n = min64(COLS, d->out_w - ow);
      if (d->bias)
        for (j = 0; j < n; ++j)
          acc[j] = *d->bias;
      else
        for (j = 0; j < n; ++j)
          acc[j] = yr[ow + j];
      for (kh = 0; kh < d->kernel_h; ++kh)
        for (kw = 0; kw < d->kernel_w; ++kw) {
          const float w = d->w[kh * d->wrow + kw * d->wcol];
          const float *src = x0 + kh * d->dilation_h * d->xrow +
                             (ow * d->stride_w + kw * d->dilation_w) * d->xcol;
          if (sx == 1)
            for (j = 0; j < n; ++j)
              acc[j] += w * src[j];
          else
            for (j = 0; j < n; ++j)
              acc[j] += w * src[j * sx];
        }
      if (d->clamp)
        for (j = 0; j < n; ++j)
          acc[j] = acc[j] < d->clamp->lo   ? d->clamp->lo
                   : acc[j] > d->clamp->hi ? d->clamp->hi
                                           : acc[j];
      for (j = 0; j < n; ++j)
        yr[ow + j] = acc[j];
    }
  }
}

void onnxc_rt_depthwise_fill_portable(onnxc_kernels *k) {
  k->dw_channel = dw_channel_portable;
  k->dw_grouped_max = ONNXC_DW_GROUPED_MAX;
}
