/*===- kernels/act_avx2.c - Fused activations, AVX2 -----------------------===*
 *
 * The AVX2 tier's act_row (dispatch.h): 8 elements at a time, the scheme
 * of act_avx512.h (Cephes' expf: x clamped to [-104, 89] with NaN kept,
 * n = round(x log2 e), r = x - n ln 2 in two steps, the same degree-7
 * polynomial, a real division) with 2^n, n in [-150, 128], made without
 * VSCALEFPS: as 2^(n >> 1) * 2^(n - (n >> 1)), two powers in the normal
 * range whose second product rounds once, to +inf above the float range
 * and gradually to 0 below it, as VSCALEFPS does. Before it, the AVX2 tier
 * used the portable act_row (libm's expf per element), which made a fused
 * activation slower than the generated loops it replaces. Compiled with
 * the AVX2 and FMA flags; called only when dispatch.c chose this tier.
 * onnxc-gemm-test measures the distance from act_scalar per tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>
#include <math.h>

#include "lanes_avx2.h"

static ONNXC_INLINE __m256 pow2i(__m256i k) {
  return _mm256_castsi256_ps(
      _mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
}

/* exp(x) / 2^n for n = round(x log2 e) (as a float): r = x - n ln 2 in two
 * steps, then Cephes' degree-7 polynomial 1 + r + r^2 P(r). */
static ONNXC_INLINE __m256 exp_reduced(__m256 x, __m256 n) {
  __m256 r, p;
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), r);
  return _mm256_add_ps(p, _mm256_set1_ps(1.0f));
}

static ONNXC_INLINE __m256 exp8(__m256 x) {
  __m256 n, p;
  __m256i ni, n1;
  x = _mm256_min_ps(_mm256_set1_ps(89.0f), x); /* NaN: x */
  x = _mm256_max_ps(_mm256_set1_ps(-104.0f), x);
  n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504f)),
                      _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  p = exp_reduced(x, n);
  /* A NaN's n converts to INT_MIN: its powers are garbage, p is NaN. */
  ni = _mm256_cvtps_epi32(n);
  n1 = _mm256_srai_epi32(ni, 1);
  return _mm256_mul_ps(_mm256_mul_ps(p, pow2i(n1)),
                       pow2i(_mm256_sub_epi32(ni, n1)));
}

static ONNXC_INLINE __m256 neg8(__m256 v) {
  return _mm256_xor_ps(v, _mm256_set1_ps(-0.0f));
}

/* exp(u) for Sigmoid and Swish, which read it only through 1 + exp(u):
 * exp8's polynomial (the same results within an ulp: act 3 ulp from libm,
 * as before) in 17 instructions instead of 25, on ports 0 and 1, which
 * bound the row (0.47 -> 0.33 ns an element). u is clamped to [-86, 89]:
 * below, 1 + exp(u) is 1 either way; above 88.73 exp(u) is +inf, as
 * libm's. n = round(u log2 e) comes out of one FMA with 1.5 * 2^23 + 126,
 * whose low bits are then n + 126 (n in [-125, 128]): shifted into the
 * exponent, 2^(n - 1), times 2 P (P doubled exactly). One rounding, and
 * +inf only past the float range (n = 128 with P < 1 is finite). NaN
 * stays NaN (the clamps keep it). */
static ONNXC_INLINE __m256 exp8_sig(__m256 u) {
  const __m256 magic = _mm256_set1_ps(12583038.0f); /* 1.5 * 2^23 + 126 */
  __m256 k, n, p;
  u = _mm256_max_ps(_mm256_set1_ps(-86.0f), u); /* NaN: u */
  u = _mm256_min_ps(_mm256_set1_ps(89.0f), u);
  k = _mm256_fmadd_ps(u, _mm256_set1_ps(1.44269504f), magic);
  n = _mm256_sub_ps(k, magic);
  p = exp_reduced(u, n);
  p = _mm256_add_ps(p, p);
  return _mm256_mul_ps(
      p, _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_castps_si256(k), 23)));
}

/* One vector of kind `kind` (a constant where inlined): act16's formulas. */
static ONNXC_INLINE __m256 act8(__m256 v, int kind, __m256 alpha,
                                __m256 beta) {
  const __m256 one = _mm256_set1_ps(1.0f), zero = _mm256_setzero_ps();
  __m256 t;
  switch (kind) {
  case ONNXC_ACT_SIGMOID:
    return _mm256_div_ps(one, _mm256_add_ps(one, exp8_sig(neg8(v))));
  case ONNXC_ACT_SWISH: /* alpha negated by the row */
    return _mm256_div_ps(v, _mm256_add_ps(one, exp8_sig(_mm256_mul_ps(alpha, v))));
  default: /* hard sigmoid / swish */
    t = _mm256_add_ps(_mm256_mul_ps(alpha, v), beta);
    t = _mm256_min_ps(one, t);  /* NaN: t */
    t = _mm256_max_ps(zero, t); /* NaN: t; (0, -0): -0 */
    t = _mm256_add_ps(t, zero); /* -0 + 0 = +0, as maximumf gives */
    return kind == ONNXC_ACT_HARD_SWISH ? _mm256_mul_ps(v, t) : t;
  }
}

/* A row: whole vectors, then a tail shorter than a vector computed from
 * the last 8 inputs (loaded first) and stored whole, as act_avx512.c does
 * (no masked store before the next row's loads); rows under 8 by a
 * masked load and store_first. */
static ONNXC_INLINE void row(float *y, i64 n, int kind, const act_ep *a) {
  const __m256 alpha = _mm256_set1_ps(kind == ONNXC_ACT_SWISH ? -a->alpha : a->alpha),
               beta = _mm256_set1_ps(a->beta);
  i64 i = 0;
  if (n < 8) {
    store_first(y, act8(_mm256_maskload_ps(y, lanes8(n)), kind, alpha, beta),
                n);
    return;
  }
  {
    __m256 tail = _mm256_loadu_ps(y + n - 8);
    for (; i + 8 <= n; i += 8)
      _mm256_storeu_ps(y + i, act8(_mm256_loadu_ps(y + i), kind, alpha, beta));
    if (i < n)
      _mm256_storeu_ps(y + n - 8, act8(tail, kind, alpha, beta));
  }
}

static void act_row_avx2(float *y, i64 n, const act_ep *a) {
#define ONNXC_ACT_ROW(K) row(y, n, K, a)
  ONNXC_ACT_SWITCH(a->kind, ONNXC_ACT_ROW)
#undef ONNXC_ACT_ROW
}

static ONNXC_INLINE float hmax8(__m256 v) {
  __m128 h = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  h = _mm_max_ps(h, _mm_movehl_ps(h, h));
  h = _mm_max_ss(h, _mm_shuffle_ps(h, h, 1));
  return _mm_cvtss_f32(h);
}

static ONNXC_INLINE float hsum8(__m256 v) {
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_shuffle_ps(h, h, 1));
  return _mm_cvtss_f32(h);
}

/* dispatch.h's softmax_row: 8 elements at a time, the tail through a mask
 * (its lanes left out of the maximum and the sum). */
static void softmax_row_avx2(const float *x, float *y, i64 n, int lg) {
  const i64 full = n / 8 * 8, rest = n - full;
  const __m256i mk = lanes8(rest);
  const __m256 ninf = _mm256_set1_ps(-INFINITY);
  __m256 vm = ninf, vs = _mm256_setzero_ps(), vx, e, t;
  float m, s;
  i64 i;
  /* (load, running): a NaN element is left out of the maximum; its
   * exponential makes the sum NaN. */
  for (i = 0; i < full; i += 8)
    vm = _mm256_max_ps(_mm256_loadu_ps(x + i), vm);
  if (rest)
    vm = _mm256_max_ps(_mm256_blendv_ps(ninf, _mm256_maskload_ps(x + full, mk),
                                        _mm256_castsi256_ps(mk)),
                       vm);
  m = hmax8(vm);
  vx = _mm256_set1_ps(m);
  for (i = 0; i < full; i += 8) {
    e = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), vx));
    vs = _mm256_add_ps(vs, e);
    if (!lg)
      _mm256_storeu_ps(y + i, e);
  }
  if (rest) {
    e = exp8(_mm256_sub_ps(_mm256_maskload_ps(x + full, mk), vx));
    vs = _mm256_add_ps(vs, _mm256_and_ps(e, _mm256_castsi256_ps(mk)));
    if (!lg)
      store_first(y + full, e, rest);
  }
  s = hsum8(vs);
  if (lg) {
    const __m256 vl = _mm256_set1_ps(logf(s));
    for (i = 0; i < full; i += 8)
      _mm256_storeu_ps(
          y + i, _mm256_sub_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), vx), vl));
    if (rest) {
      t = _mm256_sub_ps(_mm256_sub_ps(_mm256_maskload_ps(x + full, mk), vx), vl);
      store_first(y + full, t, rest);
    }
    return;
  }
  vs = _mm256_set1_ps(1.0f / s);
  for (i = 0; i < full; i += 8)
    _mm256_storeu_ps(y + i, _mm256_mul_ps(_mm256_loadu_ps(y + i), vs));
  if (rest)
    store_first(y + full, _mm256_mul_ps(_mm256_maskload_ps(y + full, mk), vs),
                rest);
}

void onnxc_rt_act_fill_avx2(onnxc_kernels *k) {
  k->act_row = act_row_avx2;
  k->softmax_row = softmax_row_avx2;
}

#else
typedef int onnxc_act_avx2_empty; /* not x86-64: nothing here */
#endif
