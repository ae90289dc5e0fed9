/*===- kernels/act_avx512.c - Fused activations, AVX-512 ------------------===*
 *
 * The AVX-512 tier's act_row (dispatch.h): 16 elements at a time with
 * act_avx512.h's act16 (its exp and accuracy are described there), for
 * the depthwise planes and the tiles of tiers that do not apply the
 * activation themselves. Compiled with the AVX-512 flags; called only
 * when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include "act_avx512.h"

#include <math.h>

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
#define ONNXC_ACT_ROW(K) row(y, n, K, a)
  ONNXC_ACT_SWITCH(a->kind, ONNXC_ACT_ROW)
#undef ONNXC_ACT_ROW
}

/* dispatch.h's softmax_row: 16 elements at a time, the tail through a
 * mask (its lanes left out of the maximum and the sum). */
static void softmax_row_avx512(const float *x, float *y, i64 n, int lg) {
  const i64 full = n / 16 * 16;
  const __mmask16 mk = (__mmask16)((1u << (n - full)) - 1u);
  __m512 vm = _mm512_set1_ps(-INFINITY), vs = _mm512_setzero_ps(), vx, e;
  float m, s;
  i64 i;
  /* (load, running): a NaN element is left out of the maximum; its
   * exponential makes the sum NaN. */
  for (i = 0; i < full; i += 16)
    vm = _mm512_max_ps(_mm512_loadu_ps(x + i), vm);
  if (mk)
    vm = _mm512_mask_max_ps(vm, mk, _mm512_maskz_loadu_ps(mk, x + full), vm);
  m = _mm512_reduce_max_ps(vm);
  vx = _mm512_set1_ps(m);
  for (i = 0; i < full; i += 16) {
    e = exp16(_mm512_sub_ps(_mm512_loadu_ps(x + i), vx));
    vs = _mm512_add_ps(vs, e);
    if (!lg)
      _mm512_storeu_ps(y + i, e);
  }
  if (mk) {
    e = exp16(_mm512_sub_ps(_mm512_maskz_loadu_ps(mk, x + full), vx));
    vs = _mm512_mask_add_ps(vs, mk, vs, e);
    if (!lg)
      _mm512_mask_storeu_ps(y + full, mk, e);
  }
  s = _mm512_reduce_add_ps(vs);
  if (lg) {
    const __m512 vl = _mm512_set1_ps(logf(s));
    for (i = 0; i < full; i += 16)
      _mm512_storeu_ps(
          y + i, _mm512_sub_ps(_mm512_sub_ps(_mm512_loadu_ps(x + i), vx), vl));
    if (mk)
      _mm512_mask_storeu_ps(
          y + full, mk,
          _mm512_sub_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(mk, x + full), vx),
                        vl));
    return;
  }
  vs = _mm512_set1_ps(1.0f / s);
  for (i = 0; i < full; i += 16)
    _mm512_storeu_ps(y + i, _mm512_mul_ps(_mm512_loadu_ps(y + i), vs));
  if (mk)
    _mm512_mask_storeu_ps(
        y + full, mk, _mm512_mul_ps(_mm512_maskz_loadu_ps(mk, y + full), vs));
}

void onnxc_rt_act_fill_avx512(onnxc_kernels *k) {
  k->act_row = act_row_avx512;
  k->softmax_row = softmax_row_avx512;
}

#else
typedef int onnxc_act_avx512_empty; /* not x86-64: nothing here */
#endif
