/*===- kernels/winograd_avx2.c - Winograd transforms, AVX2 -------------===*
 *
 * winograd_impl.h compiled with this tier's flags (runtime/CMakeLists.txt),
 * with its own store of the outputs: the 16 positions x 16 channels
 * transposed in 8 x 8 blocks in registers and written as 4-float rows per
 * channel, where the plain C stores element by element (10% of a ResNet-18
 * run on this tier). dispatch.c calls the fill only on CPUs with AVX2.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "lanes_avx2.h"

/* One output row of a channel: `cols` of 4 floats at p. */
static inline void store_row(float *p, __m128 v, __m128i mask, int cols,
                             const wino_store *s) {
  if (s->accumulate)
    v = _mm_add_ps(v, cols == 4 ? _mm_loadu_ps(p) : _mm_maskload_ps(p, mask));
  if (s->clamp)
    v = _mm_min_ps(_mm_set1_ps(s->hi), _mm_max_ps(_mm_set1_ps(s->lo), v));
  store_first4(p, v, cols);
}

/* o[position * 16 + channel], positions (i, j) = 4 i + j: channels in
 * blocks of 8, positions in halves of 8 (rows 0-1, rows 2-3). The clamp as
 * the scalar one: MAXPS / MINPS return their second operand, the value,
 * for a NaN. */
static void store_avx2(const float *o, const wino_store *s, float *y,
                       int rows, int cols) {
  const __m128i mask = _mm_cmpgt_epi32(_mm_set1_epi32(cols),
                                       _mm_setr_epi32(0, 1, 2, 3));
  int cb, h, l;
  for (cb = 0; cb < 2; ++cb)
    for (h = 0; h < 2 && 2 * h < rows; ++h) {
      __m256 p8[8], r[8];
      for (l = 0; l < 8; ++l)
        p8[l] = _mm256_loadu_ps(o + (8 * h + l) * 16 + 8 * cb);
      transpose8(p8, r); /* r[l]: channel 8 cb + l, positions 8 h .. 8 h + 7 */
      for (l = 0; l < 8; ++l) {
        float *p = y + (8 * cb + l) * s->ycs + 2 * h * s->yrs;
        store_row(p, _mm256_castps256_ps128(r[l]), mask, cols, s);
        if (2 * h + 1 < rows)
          store_row(p + s->yrs, _mm256_extractf128_ps(r[l], 1), mask, cols,
                    s);
      }
    }
}

#define WINO_FILL onnxc_rt_winograd_fill_avx2
#define WINO_STORE store_avx2
#include "winograd_impl.h"
#else
typedef int onnxc_winograd_avx2_empty; /* not x86-64: nothing here */
#endif
