/*===- gemm.h - Shared by the matrix kernels of gemm.c and gemv.c ---------===*
 *
 * Not part of any API: the function here is hidden (internal.h), so that
 * a model library exports only what runtime.h and runtime_abi.h declare.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_GEMM_H
#define ONNXC_RUNTIME_GEMM_H

#include "internal.h"

#include <stdint.h>

/* What a tile store does besides writing A * B: C's value is added
 * (accumulate), or else a bias per row and/or per column; then the result
 * may be clamped to [lo, hi] (a fused Relu or Clip, on the last K block).
 * Bias pointers are relative to the tile's first row / column. */
typedef struct tile_ep {
  const float *row_bias, *col_bias;
  int clamp;
  float lo, hi;
} tile_ep;

/* C[m x n] (+)= A[m x k] * B for products with few rows (m <= 4) or, when
 * B is not packed, few columns (n <= 4), with the AVX-512 kernels of
 * gemv.c: `packed` is ONNXC_SGEMM_B_PACKED's layout (runtime_abi.h), the
 * strides as in onnxc_rt_sgemm, the epilogue `ep` (may be NULL) applied
 * once over the whole of K. Returns 0, having done nothing, for the shapes
 * and layouts it does not take (the caller's packed GEMM does them). Only
 * to be called where AVX-512F is usable; m, n, k > 0. */
ONNXC_HIDDEN int
onnxc_rt_sgemm_small(int64_t m, int64_t n, int64_t k, const float *a,
                     int64_t rsa, int64_t csa, const float *b, int64_t rsb,
                     int64_t csb, int packed, float *c, int64_t rsc,
                     int64_t csc, int accumulate, const tile_ep *ep);

#endif /* ONNXC_RUNTIME_GEMM_H */
