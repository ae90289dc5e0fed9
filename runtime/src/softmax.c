/*===- softmax.c - Softmax and LogSoftmax rows for generated code ---------===*
 *
 * onnxc_rt_softmax (runtime_abi.h has the contract): convert-onnx-quantized-
 * to-ukernel turns an fp32 Softmax or LogSoftmax along the last axis into
 * this call. Each row goes through the tier's softmax_row (kernels/
 * dispatch.h): the maximum, then the exponentials and their sum, then the
 * scale, three passes over a row that stays in L1, where the linalg
 * lowering made four passes over the whole tensor (ViT's attention
 * Softmax took twice ORT's time). Rows split over threads.
 *===----------------------------------------------------------------------===*/

#include "internal.h"
#include "kernels/dispatch.h"

#include "onnxc/runtime_abi.h"

typedef struct softmax_job {
  const onnxc_kernels *kt;
  i64 n;
  const float *x;
  float *y;
  int log;
} softmax_job;

static void softmax_rows(void *arg, int64_t lo, int64_t hi) {
  const softmax_job *j = arg;
  i64 r;
  for (r = lo; r < hi; ++r)
    j->kt->softmax_row(j->x + r * j->n, j->y + r * j->n, j->n, j->log);
}

void onnxc_rt_softmax(int64_t rows, int64_t n, const float *x, float *y,
                      int64_t flags) {
  softmax_job j;
  if (rows <= 0 || n <= 0)
    return;
  j.kt = onnxc_rt_kernels();
  j.n = n;
  j.x = x;
  j.y = y;
  j.log = (flags & ONNXC_SOFTMAX_LOG) != 0;
  /* About 30 operations per element (exp's polynomial, the passes). */
  onnxc_rt_parallel_range(rows, 1,
                          onnxc_rt_threads_for(30.0 * (double)rows * (double)n),
                          softmax_rows, &j);
}
