/*===- kernels/maxpool_avx2.c - Max pooling rows, AVX2 --------------------===*
 *
 * The AVX2 tier's maxpool_row (dispatch.h; pool.c drives it): 8 output
 * columns at a time, interior columns (whole window inside the input)
 * with plain loads, stride 2 deinterleaving two of them; the edge columns
 * with loads masked to the input's columns, -inf elsewhere.
 *
 * VMAXPS is not arith.maximumf: it returns its second operand when the
 * two compare equal (so max(-0, +0) depends on the order) or either is
 * NaN. The max here is max(a, v) AND max(v, a): equal otherwise, and for a
 * +0 / -0 pair the AND of the two zeros is +0; lanes that saw a NaN are
 * tracked in a mask and set to NaN at the end. Exact, like every tier.
 * Compiled with -mavx2 -mfma; called only when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "lanes_avx2.h"

/* The max of acc and v with arith.maximumf's zeros (NaN handled apart). */
static inline __m256 max_zeros(__m256 acc, __m256 v) {
  return _mm256_and_ps(_mm256_max_ps(acc, v), _mm256_max_ps(v, acc));
}

/* The even lanes of the 16 floats lo:hi. */
static inline __m256 evens(__m256 lo, __m256 hi) {
  __m256 s = _mm256_shuffle_ps(lo, hi, 0x88); /* l0 l2 h0 h2 | l4 l6 h4 h6 */
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), 0xD8));
}

/* Masked load of 8 floats from column c0 of a row (lanes outside the
 * mask -inf, never read). Through an integer: c0 may be negative. */
static inline __m256 load_cols(const float *row, i64 c0, __m256i m,
                               __m256 ninf) {
  const float *p =
      (const float *)((intptr_t)row + (intptr_t)c0 * (intptr_t)sizeof(float));
  return _mm256_blendv_ps(ninf, _mm256_maskload_ps(p, m),
                          _mm256_castsi256_ps(m));
}

static void row_avx2(const float *row, i64 rstride, i64 nrows, i64 kernel_w,
                     i64 sw, i64 pad_left, i64 in_w, i64 a, i64 b, i64 out_w,
                     float *yrow) {
  const __m256 ninf = _mm256_set1_ps(-INFINITY);
  i64 ow, r, kw;
  for (ow = 0; ow < out_w; ow += 8) {
    i64 n = out_w - ow < 8 ? out_w - ow : 8;
    /* Interior: stride 1 reads n columns; stride 2 reads 16 (the 16th is
     * in the window of output ow + 8, so inside when that one is interior
     * too). */
    int inner = ow >= a && (sw == 1 ? ow + n <= b : ow + 8 < b);
    __m256 acc = ninf, nan = _mm256_setzero_ps();
    if (inner && (sw == 2 || n == 8)) {
      for (r = 0; r < nrows; ++r) {
        const float *p = row + r * rstride + ow * sw - pad_left;
        for (kw = 0; kw < kernel_w; ++kw) {
          __m256 v = sw == 1 ? _mm256_loadu_ps(p + kw)
                             : evens(_mm256_loadu_ps(p + kw),
                                     _mm256_loadu_ps(p + kw + 8));
          acc = max_zeros(acc, v);
          nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        }
      }
    } else {
      for (kw = 0; kw < kernel_w; ++kw) {
        i64 c0 = ow * sw - pad_left + kw; /* column of lane 0 */
        __m256i mlo, mhi;
        if (sw == 1) {
          mlo = lanes(-c0, in_w - c0 < n ? in_w - c0 : n);
          mhi = _mm256_setzero_si256();
        } else {
          i64 end = in_w - c0 < 2 * n - 1 ? in_w - c0 : 2 * n - 1;
          mlo = lanes(-c0, end);
          mhi = lanes(-c0 - 8, end - 8);
        }
        for (r = 0; r < nrows; ++r) {
          const float *rp = row + r * rstride;
          __m256 v = sw == 1 ? load_cols(rp, c0, mlo, ninf)
                             : evens(load_cols(rp, c0, mlo, ninf),
                                     load_cols(rp, c0 + 8, mhi, ninf));
          acc = max_zeros(acc, v);
          nan = _mm256_or_ps(nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
        }
      }
    }
    acc = _mm256_blendv_ps(acc, _mm256_set1_ps(NAN), nan);
    if (n == 8)
      _mm256_storeu_ps(yrow + ow, acc);
    else
      _mm256_maskstore_ps(yrow + ow, lanes(0, n), acc);
  }
}

void onnxc_rt_maxpool_fill_avx2(onnxc_kernels *k) { k->maxpool_row = row_avx2; }

#else
typedef int onnxc_maxpool_avx2_empty; /* not x86-64: nothing here */
#endif
