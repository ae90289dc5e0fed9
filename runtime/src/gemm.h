/*===- gemm.h - Shared by the kernels of gemm.c, gemv.c, depthwise.c -----===*
 *
 * Not part of any API: the functions here are hidden (internal.h), so that
 * a model library exports only what runtime.h and runtime_abi.h declare.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_GEMM_H
#define ONNXC_RUNTIME_GEMM_H

#include "internal.h"

#include <stdint.h>

typedef int64_t i64;

static inline i64 min64(i64 a, i64 b) { return a < b ? a : b; }

#define NR ONNXC_SGEMM_PANEL /* columns per packed panel */

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ONNXC_AVX512 __attribute__((target("avx512f")))
/* Tile helpers take the accumulators by pointer: inlined, they stay in
 * registers; called, all 16 would go through the stack. */
#define ONNXC_INLINE __attribute__((always_inline)) inline
#endif

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

/* A convolution's scratch: 64-byte aligned, from the models' allocator
 * (alloc.c); released with onnxc_rt_free_scratch(*raw). Fails with
 * ONNXC_ERROR_OUT_OF_MEMORY (onnxc_rt_fail). */
ONNXC_HIDDEN float *onnxc_rt_alloc_scratch(int64_t floats, void **raw);
ONNXC_HIDDEN void onnxc_rt_free_scratch(void *raw);

#if defined(__x86_64__) && defined(__GNUC__)
/* depthwise.c. A row of a padded input: dst[0, wp) is src[c - lo] for c
 * in [lo, hi), else 0. */
ONNXC_HIDDEN ONNXC_AVX512 void onnxc_rt_pad_row_avx512(float *dst, int64_t wp,
                                                      int64_t lo, int64_t hi,
                                                      const float *src);
/* The depthwise convolution (one input channel per group) with AVX-512F,
 * Y holding the bias unless ONNXC_CONV_BIAS; its rows have unit stride
 * (the caller checks). */
ONNXC_HIDDEN ONNXC_AVX512 void
onnxc_rt_depthwise_avx512(const onnxc_conv2d_params *q, const float *x,
                          const float *w, float *y);
#endif

#endif /* ONNXC_RUNTIME_GEMM_H */
