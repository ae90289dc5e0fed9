/*===- kernels/act_portable.c - Fused activations, portable C -------------===*
 *
 * The portable tier's act_row (dispatch.h): common.h's act_scalar per
 * element, libm's expf for Sigmoid and Swish. The drivers (gemm.c,
 * depthwise.c) call it on each block of a convolution's results after its
 * last K block; tiers without their own act_row inherit it.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

static void act_row_portable(float *y, i64 n, const act_ep *a) {
  i64 i;
  for (i = 0; i < n; ++i)
    y[i] = act_scalar(y[i], a);
}

void onnxc_rt_act_fill_portable(onnxc_kernels *k) {
  k->act_row = act_row_portable;
}
