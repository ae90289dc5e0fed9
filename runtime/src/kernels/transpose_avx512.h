/*===- transpose_avx512.h - The 16 x 16 register transpose, AVX-512 ------===*
 *
 * Included by the AVX-512 files (pack: B transposed in memory; depthwise:
 * channels in lanes; winograd: the outputs' store) after <immintrin.h>.
 * Static inline, one copy per file (common.h says why).
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_TRANSPOSE_AVX512_H
#define ONNXC_RUNTIME_KERNELS_TRANSPOSE_AVX512_H

#include "common.h"

#include <immintrin.h>

/* r[0..15] <- its transpose: r[j] lane i = old r[i] lane j. */
ONNXC_INLINE static void transpose16(__m512 r[16]) {
  __m512 t[16], u[16];
  int k, m;
  for (k = 0; k < 8; ++k) {
    t[2 * k] = _mm512_unpacklo_ps(r[2 * k], r[2 * k + 1]);
    t[2 * k + 1] = _mm512_unpackhi_ps(r[2 * k], r[2 * k + 1]);
  }
  /* u[4k + m]: rows 4k..4k+3 of columns m, m + 4, m + 8, m + 12 (one per
   * 128-bit lane). */
  for (k = 0; k < 4; ++k) {
    u[4 * k + 0] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0x44);
    u[4 * k + 1] = _mm512_shuffle_ps(t[4 * k], t[4 * k + 2], 0xEE);
    u[4 * k + 2] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0x44);
    u[4 * k + 3] = _mm512_shuffle_ps(t[4 * k + 1], t[4 * k + 3], 0xEE);
  }
  for (m = 0; m < 4; ++m) {
    __m512 v1 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0x88);
    __m512 v2 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0x88);
    __m512 w1 = _mm512_shuffle_f32x4(u[m], u[4 + m], 0xDD);
    __m512 w2 = _mm512_shuffle_f32x4(u[8 + m], u[12 + m], 0xDD);
    r[m] = _mm512_shuffle_f32x4(v1, v2, 0x88);
    r[m + 8] = _mm512_shuffle_f32x4(v1, v2, 0xDD);
    r[m + 4] = _mm512_shuffle_f32x4(w1, w2, 0x88);
    r[m + 12] = _mm512_shuffle_f32x4(w1, w2, 0xDD);
  }
}

#endif /* ONNXC_RUNTIME_KERNELS_TRANSPOSE_AVX512_H */
