/*===- lanes_avx2.h - Lane masks and transposes of the AVX2 kernels ------===*
 *
 * Included by the AVX2 files (sgemm, gemv, pack, depthwise, max pool,
 * winograd, act) after <immintrin.h>: the maskload masks of 8 float
 * lanes, the stores of a vector's first lanes, and the 8 x 8 register
 * transpose. Static inline, one copy per
 * file (common.h says why).
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

/* The first n lanes of v (n clamped to [0, 4]) stored at p by plain
 * stores of 4, 2 and 1 lanes; the other floats at p are not touched.
 * Never vmaskmovps to memory: on AMD Zen 3 it takes about 13 cycles a
 * store, whatever the mask (4.6 ns in a loop of them, against 0.7 ns for
 * these; on Intel, about one cycle), and the tiles' tails, the transposed
 * stores of the indirect GEMM and Winograd's output rows made many of
 * them (docs/performance.md). */
ONNXC_INLINE static void store_first4(float *p, __m128 v, i64 n) {
  if (n >= 4) {
    _mm_storeu_ps(p, v);
    return;
  }
  if (n >= 2) {
    _mm_storel_pi((__m64 *)p, v);
    v = _mm_movehl_ps(v, v);
    p += 2;
    n -= 2;
  }
  if (n >= 1)
    _mm_store_ss(p, v);
}

/* The same for 8 lanes (n clamped to [0, 8]). */
ONNXC_INLINE static void store_first(float *p, __m256 v, i64 n) {
  if (n >= 8) {
    _mm256_storeu_ps(p, v);
    return;
  }
  if (n >= 4) {
    _mm_storeu_ps(p, _mm256_castps256_ps128(v));
    store_first4(p + 4, _mm256_extractf128_ps(v, 1), n - 4);
    return;
  }
  store_first4(p, _mm256_castps256_ps128(v), n);
}

/* t[i] <- column i of the 8 x 8 matrix whose row r is v[r]. */
ONNXC_INLINE static void transpose8(const __m256 *v, __m256 *t) {
  __m256 a[8], b[8];
  int i;
  for (i = 0; i < 4; ++i) {
    a[2 * i] = _mm256_unpacklo_ps(v[2 * i], v[2 * i + 1]);
    a[2 * i + 1] = _mm256_unpackhi_ps(v[2 * i], v[2 * i + 1]);
  }
  for (i = 0; i < 2; ++i) {
    b[4 * i + 0] = _mm256_shuffle_ps(a[4 * i], a[4 * i + 2], 0x44);
    b[4 * i + 1] = _mm256_shuffle_ps(a[4 * i], a[4 * i + 2], 0xEE);
    b[4 * i + 2] = _mm256_shuffle_ps(a[4 * i + 1], a[4 * i + 3], 0x44);
    b[4 * i + 3] = _mm256_shuffle_ps(a[4 * i + 1], a[4 * i + 3], 0xEE);
  }
  for (i = 0; i < 4; ++i) {
    t[i] = _mm256_permute2f128_ps(b[i], b[4 + i], 0x20);
    t[4 + i] = _mm256_permute2f128_ps(b[i], b[4 + i], 0x31);
  }
}

#endif /* ONNXC_RUNTIME_KERNELS_LANES_AVX2_H */
