/*===- kernels/maxpool_avx512.c - Max pooling rows, AVX-512 ---------------===*
 *
 * The AVX-512 tier's maxpool_row (dispatch.h; pool.c drives it): 16
 * output columns at a time. Windows 2 or 3 wide at stride 2 (the pools of
 * U-Net, ResNet, SqueezeNet) in one pass (fused_s2: the window rows'
 * maxima of 32 input columns deinterleaved); other windows in two passes
 * (separable: the rows' maxima into a row buffer, then the columns'), or
 * row_exact's window per output. Columns outside the input are loaded
 * masked, as -inf. The vector max is VRANGEPS (imm 0x5: the
 * larger, sign from the comparison), which orders -0 below +0 as
 * arith.maximumf does but, like VMAXPS, drops NaNs: lanes that saw a NaN
 * are tracked in a mask and set to NaN at the end (maximumf propagates
 * NaN). Compiled with the AVX-512 flags (VRANGEPS is AVX-512DQ); called
 * only when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

/* Lanes [lo, hi) of 16 (clipped). */
static __mmask16 lanes(i64 lo, i64 hi) {
  if (lo < 0)
    lo = 0;
  if (hi > 16)
    hi = 16;
  if (hi <= lo)
    return 0;
  return (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* One output row, all out_w columns: `nrows` input rows from `row`
 * (`rstride` apart; the window rows inside the input), columns
 * ow * stride_w - pad_left + kw, contiguous; stride_w 1 or 2, dilation_w
 * 1. Outputs in [a, b) have every window column inside the input and load
 * whole vectors; the others (the edges) load with a mask of the columns
 * inside [0, in_w), -inf elsewhere. Nothing outside the input is read. */
static void row_exact(const float *row, i64 rstride, i64 nrows, i64 kernel_w,
                      i64 sw, i64 pad_left, i64 in_w, i64 a, i64 b, i64 out_w,
                      float *yrow) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                         22, 24, 26, 28, 30);
  const __m512 ninf = _mm512_set1_ps(-INFINITY);
  i64 ow, r, kw;
  for (ow = 0; ow < out_w; ow += 16) {
    i64 n = out_w - ow < 16 ? out_w - ow : 16;
    __mmask16 m = lanes(0, n);
    /* Interior: stride 1 reads n columns; stride 2 reads 32 (the 32nd is
     * in the window of output ow + 16, so inside when that one is
     * interior too). */
    int inner = ow >= a && (sw == 1 ? ow + n <= b : ow + 16 < b);
    __m512 acc = ninf;
    __mmask16 nan = 0;
    if (inner && (sw == 2 || n == 16)) {
      /* The hot loop: plain loads (masked ones merge, a second uop). */
      for (r = 0; r < nrows; ++r) {
        const float *p = row + r * rstride + ow * sw - pad_left;
        for (kw = 0; kw < kernel_w; ++kw) {
          __m512 v = sw == 1
                         ? _mm512_loadu_ps(p + kw)
                         : _mm512_permutex2var_ps(_mm512_loadu_ps(p + kw), even,
                                                  _mm512_loadu_ps(p + kw + 16));
          acc = _mm512_range_ps(acc, v, 0x5);
          nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        }
      }
    } else {
      for (kw = 0; kw < kernel_w; ++kw) {
        i64 c0 = ow * sw - pad_left + kw; /* column of lane 0 */
        __mmask16 mlo, mhi;
        if (inner) {
          mlo = sw == 1 ? m : 0xffff;
          mhi = 0xffff;
        } else if (sw == 1) {
          mlo = lanes(-c0, in_w - c0 < n ? in_w - c0 : n);
          mhi = 0;
        } else {
          i64 end = in_w - c0 < 2 * n - 1 ? in_w - c0 : 2 * n - 1;
          mlo = lanes(-c0, end);
          mhi = lanes(-c0 - 16, end - 16);
        }
        for (r = 0; r < nrows; ++r) {
          /* Through an integer: c0 may be negative (its lanes masked). */
          const float *p =
              (const float *)((intptr_t)(row + r * rstride) +
                              (intptr_t)c0 * (intptr_t)sizeof(float));
          __m512 v;
          if (sw == 1)
            v = _mm512_mask_loadu_ps(ninf, mlo, p);
          else
            v = _mm512_permutex2var_ps(_mm512_mask_loadu_ps(ninf, mlo, p), even,
                                       _mm512_mask_loadu_ps(ninf, mhi, p + 16));
          acc = _mm512_range_ps(acc, v, 0x5);
          nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        }
      }
    }
    acc = _mm512_mask_mov_ps(acc, nan, _mm512_set1_ps(NAN));
    _mm512_mask_storeu_ps(yrow + ow, m, acc);
  }
}

#define SEP_MAX 2048 /* floats of the separable path's row buffer */

/* The separable form: the window rows' maximum per input column first
 * (tmp, -inf outside the input, one range per loaded vector), then the
 * window columns' maximum of tmp per output (stride 2 deinterleaved): about
 * two thirds of row_exact's vector ops for a 3 x 3 window. NaN checks stay
 * in the first pass only: a row whose window rows hold a NaN anywhere is
 * redone by row_exact, which propagates it per output. Rows wider than the
 * buffer take row_exact too. */
/* The two passes into `tmp` (total floats) and yrow; 0 when a window row
 * holds a NaN (the caller redoes the row exactly). Always inlined, so that
 * the 3 x 3 windows' loops unroll with constant bounds. */
ONNXC_INLINE static int separable(const float *row, i64 rstride, i64 nrows,
                                  i64 kernel_w, i64 sw, i64 pad_left,
                                  i64 in_w, i64 out_w, i64 total, float *tmp,
                                  float *yrow) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                         22, 24, 26, 28, 30);
  const __m512 ninf = _mm512_set1_ps(-INFINITY);
  __mmask16 nan = 0;
  i64 u, r, ow, kw;
  for (u = 0; u < total; u += 16) {
    i64 c0 = u - pad_left; /* the input column of lane 0 */
    __mmask16 m = lanes(-c0, in_w - c0);
    const float *p;
    __m512 acc;
    if (!m) {
      _mm512_store_ps(tmp + u, ninf);
      continue;
    }
    /* Through an integer: c0 may be negative (its lanes masked). */
    p = (const float *)((intptr_t)row + (intptr_t)c0 * (intptr_t)sizeof(float));
    /* The two rows after the window (the next output row's new ones at
     * stride 2) into the cache while this row's wait on memory: the loads
     * below are what the pool waits on. Prefetches never fault. */
    _mm_prefetch((const char *)((intptr_t)p + (intptr_t)(nrows * rstride) *
                                                  (intptr_t)sizeof(float)),
                 _MM_HINT_T0);
    _mm_prefetch((const char *)((intptr_t)p + (intptr_t)((nrows + 1) * rstride) *
                                                  (intptr_t)sizeof(float)),
                 _MM_HINT_T0);
    acc = _mm512_mask_loadu_ps(ninf, m, p);
    nan |= _mm512_cmp_ps_mask(acc, acc, _CMP_UNORD_Q);
    for (r = 1; r < nrows; ++r) {
      __m512 v = _mm512_mask_loadu_ps(ninf, m, p + r * rstride);
      acc = _mm512_range_ps(acc, v, 0x5);
      nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
    }
    _mm512_store_ps(tmp + u, acc);
  }
  if (nan)
    return 0;
  for (ow = 0; ow < out_w; ow += 16) {
    i64 n = out_w - ow < 16 ? out_w - ow : 16;
    const float *t = tmp + ow * sw;
    __m512 acc = ninf;
    for (kw = 0; kw < kernel_w; ++kw) {
      __m512 v = sw == 1 ? _mm512_loadu_ps(t + kw)
                         : _mm512_permutex2var_ps(_mm512_loadu_ps(t + kw), even,
                                                  _mm512_loadu_ps(t + kw + 16));
      acc = _mm512_range_ps(acc, v, 0x5);
    }
    _mm512_mask_storeu_ps(yrow + ow, lanes(0, n), acc);
  }
  return 1;
}

/* The window rows' maximum of input columns [c, c + 16) (-inf outside
 * [0, in_w)); the lanes of a loaded NaN into *nan (two rows per compare:
 * unordered when either is NaN). */
ONNXC_INLINE static __m512 column_max(const float *row, i64 rstride, i64 nrows,
                                      i64 c, i64 in_w, __mmask16 *nan) {
  const __m512 ninf = _mm512_set1_ps(-INFINITY);
  /* Through an integer: c may be negative (its lanes masked). */
  const float *p =
      (const float *)((intptr_t)row + (intptr_t)c * (intptr_t)sizeof(float));
  __m512 acc, v;
  i64 r;
  if (c >= 0 && c + 16 <= in_w) {
    /* Rows in pairs: one compare finds a NaN in either. */
    acc = ninf;
    for (r = 0; r < nrows; r += 2) {
      __m512 u = _mm512_loadu_ps(p + r * rstride);
      if (r + 1 < nrows) {
        v = _mm512_loadu_ps(p + (r + 1) * rstride);
        *nan |= _mm512_cmp_ps_mask(u, v, _CMP_UNORD_Q);
        u = _mm512_range_ps(u, v, 0x5);
      } else {
        *nan |= _mm512_cmp_ps_mask(u, u, _CMP_UNORD_Q);
      }
      acc = r == 0 ? u : _mm512_range_ps(acc, u, 0x5);
    }
    return acc;
  } else {
    __mmask16 m = lanes(-c, in_w - c);
    if (!m)
      return ninf;
    acc = ninf;
    for (r = 0; r < nrows; ++r) {
      v = _mm512_mask_loadu_ps(ninf, m, p + r * rstride);
      *nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
      acc = _mm512_range_ps(acc, v, 0x5);
    }
    return acc;
  }
}

/* A 2- or 3-wide window at stride 2 (U-Net's, ResNet's and SqueezeNet's
 * pools) in one pass: per 16 outputs, the window rows' maxima of their 32
 * input columns (two vectors), split into even and odd columns, and
 * out[i] = max(even[i], odd[i]) (, even[i + 1] for 3 wide: shifted in
 * from the next block's first column, VALIGND). No row buffer; about half
 * the vector ops of the two-pass form (3 x 3 / 2 over 64 x 111 x 111:
 * 105 -> 71 us). 0 when a window row holds a NaN (the caller redoes the
 * row exactly: VRANGEPS drops NaNs). Always inlined: kernel_w is a
 * constant at each call. */
ONNXC_INLINE static int fused_s2(const float *row, i64 rstride, i64 nrows,
                                 i64 kernel_w, i64 pad_left, i64 in_w,
                                 i64 out_w, float *yrow) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                         22, 24, 26, 28, 30);
  const __m512i odd = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21,
                                        23, 25, 27, 29, 31);
  __mmask16 nan = 0;
  i64 ow, c = -pad_left;
  __m512 v0 = column_max(row, rstride, nrows, c, in_w, &nan);
  for (ow = 0; ow < out_w; ow += 16, c += 32) {
    __m512 v1 = column_max(row, rstride, nrows, c + 16, in_w, &nan);
    __m512 vn = column_max(row, rstride, nrows, c + 32, in_w, &nan);
    __m512 e = _mm512_permutex2var_ps(v0, even, v1);
    __m512 o = _mm512_permutex2var_ps(v0, odd, v1);
    __m512 out = _mm512_range_ps(e, o, 0x5);
    i64 n = out_w - ow < 16 ? out_w - ow : 16;
    if (kernel_w == 3)
      out = _mm512_range_ps(out, _mm512_castsi512_ps(_mm512_alignr_epi32(
                                     _mm512_castps_si512(vn),
                                     _mm512_castps_si512(e), 1)),
                            0x5);
    _mm512_mask_storeu_ps(yrow + ow, lanes(0, n), out);
    v0 = vn;
  }
  return nan == 0;
}

/* The separable form: the window rows' maximum per input column first
 * (tmp, -inf outside the input, one range per loaded vector), then the
 * window columns' maximum of tmp per output (stride 2 deinterleaved), with
 * constant bounds for 3 x 3 windows. NaN checks stay in the first pass
 * only: a row whose window rows hold a NaN anywhere is redone by
 * row_exact, which propagates it per output. Rows wider than the buffer
 * take row_exact too. */
static void row_avx512(const float *row, i64 rstride, i64 nrows, i64 kernel_w,
                       i64 sw, i64 pad_left, i64 in_w, i64 a, i64 b, i64 out_w,
                       float *yrow) {
  float tmp[SEP_MAX] __attribute__((aligned(64)));
  /* tmp[u] is input column u - pad_left; the outputs read tmp[ow * sw +
   * kw] for kw < kernel_w, up to 31 past a vector's first output. */
  i64 span = (out_w - 1) * sw + kernel_w;
  i64 total = (span + 32 + 15) / 16 * 16;
  int done;
  if (total > SEP_MAX || nrows < 1 || pad_left < 0) {
    row_exact(row, rstride, nrows, kernel_w, sw, pad_left, in_w, a, b, out_w,
              yrow);
    return;
  }
  if (kernel_w == 3 && sw == 2 && nrows <= 3)
    done = fused_s2(row, rstride, nrows, 3, pad_left, in_w, out_w, yrow);
  else if (kernel_w == 2 && sw == 2 && nrows <= 2)
    done = fused_s2(row, rstride, nrows, 2, pad_left, in_w, out_w, yrow);
  else if (nrows == 3 && kernel_w == 3 && sw == 2)
    done = separable(row, rstride, 3, 3, 2, pad_left, in_w, out_w, total, tmp,
                     yrow);
  else if (nrows == 3 && kernel_w == 3 && sw == 1)
    done = separable(row, rstride, 3, 3, 1, pad_left, in_w, out_w, total, tmp,
                     yrow);
  else
    done = separable(row, rstride, nrows, kernel_w, sw, pad_left, in_w, out_w,
                     total, tmp, yrow);
  if (!done)
    row_exact(row, rstride, nrows, kernel_w, sw, pad_left, in_w, a, b, out_w,
              yrow);
}

void onnxc_rt_maxpool_fill_avx512(onnxc_kernels *k) {
  k->maxpool_row = row_avx512;
}

#else
typedef int onnxc_maxpool_avx512_empty; /* not x86-64: nothing here */
#endif
