/*===- lanes_avx2.h - Lane masks of the AVX2 float kernels ----------------===*
 *
 * Included by the AVX2 files (sgemm, gemv, pack, depthwise, max pool) after
 * <immintrin.h>: the maskload/maskstore masks of 8 float lanes. Static
 * inline, one copy per file (common.h says why).
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_LANES_AVX2_H
#define ONNXC_RUNTIME_KERNELS_LANES_AVX2_H

#include "common.h"

#include <immintrin.h>

/* 8 zeros, 8 ones, 8 zeros: a window of 8 starting at 8 - lo has lanes
 * >= lo set, one starting at 16 - hi lanes < hi. */
static const int32_t onnxc_lane_table[24] = {0,  0,  0,  0,  0,  0,  0,  0,
                                             -1, -1, -1, -1, -1, -1, -1, -1,
                                             0,  0,  0,  0,  0,  0,  0,  0};

/* Lanes [lo, hi) of 8 (clipped) as a maskload mask. */
static inline __m256i lanes(i64 lo, i64 hi) {
  __m256i a, b;
  lo = lo < 0 ? 0 : lo > 8 ? 8 : lo;
  hi = hi < 0 ? 0 : hi > 8 ? 8 : hi;
  if (hi <= lo)
    return _mm256_setzero_si256();
  /* Lanes >= lo, and lanes < hi. */
  a = _mm256_loadu_si256((const __m256i *)(onnxc_lane_table + 8 - lo));
  b = _mm256_loadu_si256((const __m256i *)(onnxc_lane_table + 16 - hi));
  return _mm256_and_si256(a, b);
}

/* The first n of 8 lanes, n clamped to [0, 8]. */
static inline __m256i lanes8(i64 n) {
  n = n < 0 ? 0 : n > 8 ? 8 : n;
  return _mm256_loadu_si256((const __m256i *)(onnxc_lane_table + 16 - n));
}

#endif /* ONNXC_RUNTIME_KERNELS_LANES_AVX2_H */
