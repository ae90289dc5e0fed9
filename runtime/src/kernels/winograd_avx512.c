/*===- kernels/winograd_avx512.c - Winograd transforms, AVX-512 --------===*
 *
 * winograd_impl.h compiled with this tier's flags (runtime/CMakeLists.txt),
 * and its own output transform: the 16 x 16 block of outputs (positions x
 * channels) transposed in registers and stored as four 4-float rows per
 * channel, where the plain C stores element by element (54% of a run of
 * 64-channel 3 x 3 layers). The arithmetic is winograd_impl.h's, in the
 * same order. dispatch.c calls the fill only on CPUs with AVX-512.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "transpose_avx512.h"

#define WINO_FILL wino_fill_c
#define WINO_FILL_LINKAGE static
#include "winograd_impl.h"

/* (A^T m)[0..3] of m[0..5], as wino_at. */
static inline void at4(const __m512 *m, __m512 *o) {
  __m512 s12 = _mm512_add_ps(m[1], m[2]), d12 = _mm512_sub_ps(m[1], m[2]);
  __m512 s34 = _mm512_add_ps(m[3], m[4]), d34 = _mm512_sub_ps(m[3], m[4]);
  o[0] = _mm512_add_ps(_mm512_add_ps(m[0], s12), s34);
  o[1] = _mm512_fmadd_ps(_mm512_set1_ps(2.0f), d34, d12);
  o[2] = _mm512_fmadd_ps(_mm512_set1_ps(4.0f), s34, s12);
  o[3] = _mm512_add_ps(_mm512_fmadd_ps(_mm512_set1_ps(8.0f), d34, d12), m[5]);
}

/* One output row of a channel: 4 floats (cols of them) at p. */
static inline void store_row(float *p, __m128 v, __mmask8 mask,
                             const wino_store *s) {
  if (s->accumulate)
    v = _mm_add_ps(v, _mm_maskz_loadu_ps(mask, p));
  if (s->clamp && s->accumulate)
    v = _mm_min_ps(_mm_set1_ps(s->hi), _mm_max_ps(_mm_set1_ps(s->lo), v));
  _mm_mask_storeu_ps(p, mask, v);
}

static void wino_output_avx512(const float *m, i64 ms, const wino_store *s,
                               float *y, int rows, int cols) {
  __m512 t[4][6], o[16];
  __mmask8 mask = (__mmask8)((1u << cols) - 1u);
  int i, j, l;
  for (j = 0; j < 6; ++j) {
    __m512 col[6], r[4];
    for (i = 0; i < 6; ++i)
      col[i] = _mm512_loadu_ps(m + (i * 6 + j) * ms);
    at4(col, r);
    for (i = 0; i < 4; ++i)
      t[i][j] = r[i];
  }
  for (i = 0; i < 4; ++i)
    at4(t[i], o + 4 * i);
  if (s->bias) {
    __m512 b = _mm512_loadu_ps(s->bias);
    for (i = 0; i < 16; ++i)
      o[i] = _mm512_add_ps(o[i], b);
  }
  if (s->clamp && !s->accumulate) {
    /* NaN kept, as the scalar clamp: max/min return their second operand
     * for a NaN, the value. */
    __m512 lo = _mm512_set1_ps(s->lo), hi = _mm512_set1_ps(s->hi);
    for (i = 0; i < 16; ++i)
      o[i] = _mm512_min_ps(hi, _mm512_max_ps(lo, o[i]));
  }
  transpose16(o);
  for (l = 0; l < 16; ++l) {
    float *p = y + l * s->ycs;
    store_row(p, _mm512_castps512_ps128(o[l]), mask, s);
    if (rows > 1)
      store_row(p + s->yrs, _mm512_extractf32x4_ps(o[l], 1), mask, s);
    if (rows > 2)
      store_row(p + 2 * s->yrs, _mm512_extractf32x4_ps(o[l], 2), mask, s);
    if (rows > 3)
      store_row(p + 3 * s->yrs, _mm512_extractf32x4_ps(o[l], 3), mask, s);
  }
}

void onnxc_rt_winograd_fill_avx512(onnxc_kernels *k) {
  wino_fill_c(k);
  k->wino_output = wino_output_avx512;
}
#else
typedef int onnxc_winograd_avx512_empty; /* not x86-64: nothing here */
#endif
