/*===- kernels/act_avx512.h - Fused activations on zmm registers ----------===*
 *
 * The AVX-512 activation of 16 floats (runtime_abi.h's ONNXC_ACT_*
 * formulas), for act_avx512.c's rows and for the AVX-512 GEMM and
 * convolution tiles, which apply it to their accumulators before the
 * store (sgemm_avx512.c). Include only from files compiled with the
 * AVX-512 flags. exp is Cephes' expf scheme: x clamped to [-104, 89] (NaN
 * kept: VMINPS / VMAXPS return the second operand, x, when either is NaN),
 * n = round(x log2 e), r = x - n ln 2 in two steps (Cody-Waite), a
 * degree-7 polynomial for exp(r) on |r| <= ln 2 / 2, and VSCALEFPS for the
 * 2^n (overflow to +inf, gradual underflow to 0). The division of Sigmoid
 * and Swish is a real one (VDIVPS: on the AMD EPYC we measured on,
 * VRCP14PS with a Newton step was 25% slower). Max 3 ulp from act_scalar
 * (libm's expf and a division) over [-100, 100]: onnxc-gemm-test measures
 * and prints it.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_ACT_AVX512_H
#define ONNXC_RUNTIME_KERNELS_ACT_AVX512_H

#include "common.h"

#include <immintrin.h>

static ONNXC_INLINE __m512 exp16(__m512 x) {
  __m512 n, r, p;
  x = _mm512_min_ps(_mm512_set1_ps(89.0f), x);
  x = _mm512_max_ps(_mm512_set1_ps(-104.0f), x);
  n = _mm512_roundscale_ps(_mm512_mul_ps(x, _mm512_set1_ps(1.44269504f)),
                           _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  p = _mm512_set1_ps(1.9875691500e-4f);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.3981999507e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(8.3334519073e-3f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(4.1665795894e-2f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.6666665459e-1f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(5.0000001201e-1f));
  p = _mm512_fmadd_ps(p, _mm512_mul_ps(r, r), r);
  p = _mm512_add_ps(p, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n);
}

static ONNXC_INLINE __m512 neg16(__m512 v) {
  return _mm512_castsi512_ps(_mm512_xor_si512(_mm512_castps_si512(v),
                                              _mm512_set1_epi32(INT32_MIN)));
}

/* One vector of kind `kind` (a constant where inlined). */
static ONNXC_INLINE __m512 act16(__m512 v, int kind, __m512 alpha,
                                 __m512 beta) {
  const __m512 one = _mm512_set1_ps(1.0f), zero = _mm512_setzero_ps();
  __m512 t;
  switch (kind) {
  case ONNXC_ACT_SIGMOID:
    return _mm512_div_ps(one, _mm512_add_ps(one, exp16(neg16(v))));
  case ONNXC_ACT_SWISH:
    t = _mm512_mul_ps(alpha, v);
    return _mm512_div_ps(v, _mm512_add_ps(one, exp16(neg16(t))));
  default: /* hard sigmoid / swish */
    t = _mm512_add_ps(_mm512_mul_ps(alpha, v), beta);
    t = _mm512_min_ps(one, t);  /* NaN: t */
    t = _mm512_max_ps(zero, t); /* NaN: t; (0, -0): -0 */
    t = _mm512_add_ps(t, zero); /* -0 + 0 = +0, as maximumf gives */
    return kind == ONNXC_ACT_HARD_SWISH ? _mm512_mul_ps(v, t) : t;
  }
}

/* The activation `a` over 2 `rows` vectors (a tile held as lo and hi
 * halves per row): independent chains, so the exp latencies overlap. */
static ONNXC_INLINE void act_tile16x2(int rows, __m512 *lo, __m512 *hi,
                                      const act_ep *a) {
  const __m512 alpha = _mm512_set1_ps(a->alpha), beta = _mm512_set1_ps(a->beta);
  int r;
#define ONNXC_ACT_TILE(KIND)                                                   \
  for (r = 0; r < rows; ++r) {                                                 \
    lo[r] = act16(lo[r], KIND, alpha, beta);                                   \
    if (hi)                                                                    \
      hi[r] = act16(hi[r], KIND, alpha, beta);                                 \
  }
  ONNXC_ACT_SWITCH(a->kind, ONNXC_ACT_TILE)
#undef ONNXC_ACT_TILE
}

#endif /* ONNXC_RUNTIME_KERNELS_ACT_AVX512_H */
