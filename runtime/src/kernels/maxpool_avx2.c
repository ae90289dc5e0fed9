/*===- kernels/maxpool_avx2.c - Max pooling rows, AVX2 --------------------===*
 *
 * The AVX2 tier's maxpool_row (dispatch.h; pool.c drives it): 8 output
 * columns at a time, interior columns (whole window inside the input)
 * with plain loads, stride 2 deinterleaving two of them; the edge columns
 * with loads masked to the input's columns, -inf elsewhere. Windows 2 or
 * 3 wide at stride 2 in one pass over the window rows' column maxima
 * (fused_s2; SqueezeNet 5% faster on this tier).
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

/* ONNXC_MAXPOOL_FUSED=0: every row through row_avx2 (tests, A/B). */
static int fused_enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_MAXPOOL_FUSED", &on);
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
    store_first(yrow + ow, acc, n);
  }
}

/* The odd lanes of the 16 floats lo:hi. */
static inline __m256 odds(__m256 lo, __m256 hi) {
  __m256 s = _mm256_shuffle_ps(lo, hi, 0xDD); /* l1 l3 h1 h3 | l5 l7 h5 h7 */
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), 0xD8));
}

/* The window rows' maximum of input columns [c, c + 8) (-inf outside
 * [0, in_w)); lanes that loaded a NaN into *nan (two rows per compare:
 * unordered when either is NaN). */
static inline __m256 column_max(const float *row, i64 rstride, i64 nrows,
                                i64 c, i64 in_w, __m256 *nan) {
  const __m256 ninf = _mm256_set1_ps(-INFINITY);
  __m256 acc = ninf, u, v;
  i64 r;
  if (c >= 0 && c + 8 <= in_w) {
    const float *p = row + c;
    for (r = 0; r < nrows; r += 2) {
      u = _mm256_loadu_ps(p + r * rstride);
      if (r + 1 < nrows) {
        v = _mm256_loadu_ps(p + (r + 1) * rstride);
        *nan = _mm256_or_ps(*nan, _mm256_cmp_ps(u, v, _CMP_UNORD_Q));
        u = max_zeros(u, v);
      } else {
        *nan = _mm256_or_ps(*nan, _mm256_cmp_ps(u, u, _CMP_UNORD_Q));
      }
      acc = r == 0 ? u : max_zeros(acc, u);
    }
    return acc;
  }
  {
    __m256i m = lanes(-c, in_w - c);
    if (_mm256_testz_si256(m, m))
      return ninf;
    for (r = 0; r < nrows; ++r) {
      v = load_cols(row + r * rstride, c, m, ninf);
      *nan = _mm256_or_ps(*nan, _mm256_cmp_ps(v, v, _CMP_UNORD_Q));
      acc = max_zeros(acc, v);
    }
    return acc;
  }
}

/* A 2- or 3-wide window at stride 2 (the pools of U-Net, ResNet and
 * SqueezeNet) in one pass, as the AVX-512 tier's fused_s2: per 8 outputs,
 * the window rows' maxima of their 16 input columns, split into even and
 * odd columns, out[i] = max(even[i], odd[i]) (and even[i + 1] for 3 wide:
 * the next block's first column rotated in). About a third of row_avx2's
 * vector operations. 0 when a window row holds a NaN (the caller redoes
 * the row with row_avx2, which propagates it per output). Always inlined:
 * kernel_w is a constant at each call. */
ONNXC_INLINE static int fused_s2(const float *row, i64 rstride, i64 nrows,
                                 i64 kernel_w, i64 pad_left, i64 in_w,
                                 i64 out_w, float *yrow) {
  const __m256i rot = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0);
  __m256 nan = _mm256_setzero_ps();
  i64 ow, c = -pad_left;
  __m256 v0 = column_max(row, rstride, nrows, c, in_w, &nan);
  for (ow = 0; ow < out_w; ow += 8, c += 16) {
    __m256 v1 = column_max(row, rstride, nrows, c + 8, in_w, &nan);
    __m256 vn = column_max(row, rstride, nrows, c + 16, in_w, &nan);
    __m256 e = evens(v0, v1), out = max_zeros(e, odds(v0, v1));
    i64 n = out_w - ow < 8 ? out_w - ow : 8;
    if (kernel_w == 3) {
      /* even[i + 1]: lanes 1..7 of e, then column c + 16 (vn's lane 0). */
      __m256 next = _mm256_blend_ps(
          _mm256_permutevar8x32_ps(e, rot),
          _mm256_broadcastss_ps(_mm256_castps256_ps128(vn)), 0x80);
      out = max_zeros(out, next);
    }
    store_first(yrow + ow, out, n);
    v0 = vn;
  }
  return _mm256_testz_ps(nan, nan);
}

/* Stride-2 windows 2 or 3 wide take fused_s2; the rest, and the rows
 * where a window row holds a NaN, row_avx2. */
static void row_fused_avx2(const float *row, i64 rstride, i64 nrows,
                           i64 kernel_w, i64 sw, i64 pad_left, i64 in_w, i64 a,
                           i64 b, i64 out_w, float *yrow) {
  int done = 0;
  if (sw == 2 && pad_left >= 0 && fused_enabled()) {
    if (kernel_w == 3 && nrows <= 3)
      done = fused_s2(row, rstride, nrows, 3, pad_left, in_w, out_w, yrow);
    else if (kernel_w == 2 && nrows <= 2)
      done = fused_s2(row, rstride, nrows, 2, pad_left, in_w, out_w, yrow);
  }
  if (!done)
    row_avx2(row, rstride, nrows, kernel_w, sw, pad_left, in_w, a, b, out_w,
             yrow);
}

void onnxc_rt_maxpool_fill_avx2(onnxc_kernels *k) {
  k->maxpool_row = row_fused_avx2;
}

#else
typedef int onnxc_maxpool_avx2_empty; /* not x86-64: nothing here */
#endif
