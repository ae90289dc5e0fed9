/*===- pool.c - fp32 2-D max pooling for generated code -------------------===*
 *
 * The compiler replaces the fp32 MaxPool generic (NCHW, no Indices) by a
 * call to onnxc_rt_smaxpool2d (onnxc-linalg-to-ukernel; runtime_abi.h has
 * the contract). The padding is never materialized: windows are clipped to
 * the input, which is what a -inf padding gives under max.
 *
 * For unit-stride rows, stride 1 or 2 and no column dilation, each output
 * row goes to the tier's maxpool_row (kernels/dispatch.h: 16 columns a
 * vector with AVX-512, 8 with AVX2, scalar in the portable tier); every
 * other shape takes the scalar window max here. Every path is exact and
 * computes arith.maximumf's max (NaN wins, +0 over -0). A large call is
 * split by output rows over threads (onnxc_rt_parallel_range): U-Net's
 * pools at 256 x 256 stayed on one thread otherwise.
 *===----------------------------------------------------------------------===*/

#include "internal.h"
#include "kernels/dispatch.h"

#include "onnxc/runtime_abi.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ceil(a / b) for b > 0, any sign of a. */
static i64 ceil_div(i64 a, i64 b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/* The taps k in [*k0, *k1) of a window at `origin` (dilation d, size k)
 * that fall in [0, size). */
static void clip(i64 origin, i64 d, i64 k, i64 size, i64 *k0, i64 *k1) {
  /* No divisions for the usual d = 1: this runs for every edge output. */
  *k0 = origin >= 0 ? 0 : d == 1 ? -origin : ceil_div(-origin, d);
  *k1 = d == 1 ? size - origin : ceil_div(size - origin, d);
  if (*k1 > k)
    *k1 = k;
}

/* The scalar window max of the output at input origin (ih0, iw0). */
static float window_max(const onnxc_maxpool2d_params *q, const float *plane,
                        i64 ih0, i64 iw0) {
  const i64 *xs = q->x_strides;
  float acc = -INFINITY;
  i64 kh, kw, h0, h1, w0, w1;
  clip(ih0, q->dilation_h, q->kernel_h, q->in_h, &h0, &h1);
  clip(iw0, q->dilation_w, q->kernel_w, q->in_w, &w0, &w1);
  for (kh = h0; kh < h1; ++kh) {
    const float *row = plane + (ih0 + kh * q->dilation_h) * xs[2];
    for (kw = w0; kw < w1; ++kw)
      acc = max_nan(acc, row[(iw0 + kw * q->dilation_w) * xs[3]]);
  }
  return acc;
}

/* A pool call's output rows [first, end), counted over all planes
 * (n * channels + c). */
typedef struct pool_job {
  const onnxc_kernels *kt;
  const onnxc_maxpool2d_params *q;
  const float *x;
  float *y;
  i64 a, b; /* the interior columns */
  int vector;
} pool_job;

static void pool_rows(void *p, int64_t first, int64_t end) {
  const pool_job *j = p;
  const onnxc_maxpool2d_params *q = j->q;
  const i64 *xs = q->x_strides, *ys = q->y_strides;
  i64 sh = q->stride_h, sw = q->stride_w, t, ow;
  for (t = first; t < end; ++t) {
    i64 n = t / q->out_h / q->channels, c = t / q->out_h % q->channels;
    i64 oh = t % q->out_h;
    const float *plane = j->x + n * xs[0] + c * xs[1];
    float *yrow = j->y + n * ys[0] + c * ys[1] + oh * ys[2];
    i64 ih0 = oh * sh - q->pad_top;
    if (j->vector) {
      /* The window rows inside the input: kh in [k0, k1). */
      i64 dh = q->dilation_h, k0, k1;
      clip(ih0, dh, q->kernel_h, q->in_h, &k0, &k1);
      if (k1 > k0)
        j->kt->maxpool_row(plane + (ih0 + k0 * dh) * xs[2], dh * xs[2],
                           k1 - k0, q->kernel_w, sw, q->pad_left, q->in_w,
                           j->a, j->b, q->out_w, yrow);
      else
        for (ow = 0; ow < q->out_w; ++ow)
          yrow[ow] = -INFINITY;
      continue;
    }
    for (ow = 0; ow < q->out_w; ++ow)
      yrow[ow * ys[3]] = window_max(q, plane, ih0, ow * sw - q->pad_left);
  }
}

void onnxc_rt_smaxpool2d(const onnxc_maxpool2d_params *q, const float *x,
                         float *y) {
  const i64 *xs = q->x_strides, *ys = q->y_strides;
  i64 sw = q->stride_w, rows;
  /* The interior columns [a, b): ow * sw - pad_left >= 0 and
   * ow * sw - pad_left + (kernel_w - 1) * dilation_w < in_w. */
  i64 span = (q->kernel_w - 1) * q->dilation_w;
  i64 last = q->in_w - 1 - span + q->pad_left; /* ow * sw <= last */
  pool_job j;
  int threads;
  if (q->out_h <= 0 || q->out_w <= 0 || q->batch <= 0 || q->channels <= 0)
    return;
  j.kt = onnxc_rt_kernels();
  j.q = q;
  j.x = x;
  j.y = y;
  j.a = ceil_div(q->pad_left, sw);
  j.b = last < 0 ? 0 : last / sw + 1;
  if (j.a < 0)
    j.a = 0;
  if (j.b > q->out_w)
    j.b = q->out_w;
  if (j.b < j.a)
    j.b = j.a;
  j.vector = j.kt->maxpool_row && xs[3] == 1 && ys[3] == 1 &&
             q->dilation_w == 1 && (sw == 1 || sw == 2) && q->kernel_w > 0;
  /* Output rows split over threads (a row is computed alike on any
   * thread): a pass over the input and the output. */
  rows = q->batch * q->channels * q->out_h;
  threads = onnxc_rt_threads_for(
      ONNXC_COPY_FLOP_PER_ELEMENT *
      (double)(rows * q->out_w + q->batch * q->channels * q->in_h * q->in_w));
  onnxc_rt_parallel_range(rows, 1, threads, pool_rows, &j);
}
