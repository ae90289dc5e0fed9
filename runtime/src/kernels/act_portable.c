/*===- kernels/act_portable.c - Fused activations, portable C -------------===*
 *
 * The portable tier's act_row (dispatch.h): common.h's act_scalar per
 * element, libm's expf for Sigmoid and Swish. The drivers (gemm.c,
 * depthwise.c) call it on each block of a convolution's results after its
 * last K block; tiers without their own act_row inherit it.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#include <math.h>

static void act_row_portable(float *y, i64 n, const act_ep *a) {
  i64 i;
  for (i = 0; i < n; ++i)
    y[i] = act_scalar(y[i], a);
}

/* dispatch.h's softmax_row: libm's expf and logf, sums in order. */
static void softmax_row_portable(const float *x, float *y, i64 n, int lg) {
  float m = x[0], s = 0.0f;
  i64 i;
  for (i = 1; i < n; ++i)
    m = x[i] > m ? x[i] : m;
  if (lg) {
    for (i = 0; i < n; ++i)
      s += expf(x[i] - m);
    s = logf(s);
    for (i = 0; i < n; ++i)
      y[i] = (x[i] - m) - s;
    return;
  }
  for (i = 0; i < n; ++i) {
    float e = expf(x[i] - m);
    y[i] = e;
    s += e;
  }
  s = 1.0f / s;
  for (i = 0; i < n; ++i)
    y[i] *= s;
}

void onnxc_rt_act_fill_portable(onnxc_kernels *k) {
  k->act_row = act_row_portable;
  k->softmax_row = softmax_row_portable;
}
