/*===- kernels/act_avx512.c - Fused activations, AVX-512 ------------------===*
 *
 * The AVX-512 tier's act_row (dispatch.h): 16 elements at a time, the
 * tail through a mask. exp is Cephes' expf scheme: x clamped to
 * [-104, 89] (NaN kept: VMINPS / VMAXPS return the second operand, x,
 * when either is NaN), n = round(x log2 e), r = x - n ln 2 in two steps
 * (Cody-Waite), a degree-7 polynomial for exp(r) on |r| <= ln 2 / 2, and
 * VSCALEFPS for the 2^n (overflow to +inf, gradual underflow to 0). The
 * division of Sigmoid and Swish is a real one (VDIVPS). Measured against
 * act_scalar (libm's expf) by onnxc-gemm-test over every float in
 * [-100, 100] step 2^-10 and the special values: runtime_abi.h's doc and
 * docs/performance.md give the figure. Compiled with the AVX-512 flags;
 * called only when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
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

/* A row of at least 16: the last 16 elements are loaded first, so that a
 * tail shorter than a vector is computed from the inputs and stored whole
 * after the rest (its lanes that overlap the last full vector get the same
 * values again). No masked store: a masked store followed, in the next
 * call, by a load of the same cache line does not forward and stalls until
 * the store retires, which serializes rows of a few elements (7 x 7 maps)
 * on the exp's latency: 2.5 ns per element against 0.15. Shorter rows
 * through a mask. */
static ONNXC_INLINE void row(float *y, i64 n, int kind, const act_ep *a) {
  const __m512 alpha = _mm512_set1_ps(a->alpha), beta = _mm512_set1_ps(a->beta);
  i64 i = 0;
  if (n < 16) {
    __mmask16 m = (__mmask16)((1u << n) - 1u);
    _mm512_mask_storeu_ps(
        y, m, act16(_mm512_maskz_loadu_ps(m, y), kind, alpha, beta));
    return;
  }
  {
    __m512 tail = _mm512_loadu_ps(y + n - 16);
    for (; i + 16 <= n; i += 16)
      _mm512_storeu_ps(y + i, act16(_mm512_loadu_ps(y + i), kind, alpha, beta));
    if (i < n)
      _mm512_storeu_ps(y + n - 16, act16(tail, kind, alpha, beta));
  }
}

static void act_row_avx512(float *y, i64 n, const act_ep *a) {
  switch (a->kind) {
  case ONNXC_ACT_SIGMOID:
    row(y, n, ONNXC_ACT_SIGMOID, a);
    break;
  case ONNXC_ACT_SWISH:
    row(y, n, ONNXC_ACT_SWISH, a);
    break;
  case ONNXC_ACT_HARD_SIGMOID:
    row(y, n, ONNXC_ACT_HARD_SIGMOID, a);
    break;
  case ONNXC_ACT_HARD_SWISH:
    row(y, n, ONNXC_ACT_HARD_SWISH, a);
    break;
  default:
    break;
  }
}

void onnxc_rt_act_fill_avx512(onnxc_kernels *k) { k->act_row = act_row_avx512; }

#else
typedef int onnxc_act_avx512_empty; /* not x86-64: nothing here */
#endif
