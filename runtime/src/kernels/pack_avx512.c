/*===- kernels/pack_avx512.c - Packing and padding copies, AVX-512 -------===*
 *
 * The AVX-512 tier's pack_rows, pack_cols, im2col and pad_row
 * (dispatch.h): whole and masked 16-float copies, 16 x 16 transposes in
 * registers for panels packed from columns, gathers for im2col panels
 * whose positions are not contiguous. Compiled with the AVX-512 flags; called only when
 * dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "transpose_avx512.h"

/* The first n of 16 lanes, n clamped to [0, 16]. */
static __mmask16 lanes_below(i64 n) {
  return n >= 16  ? (__mmask16)0xffff
         : n <= 0 ? (__mmask16)0
                  : (__mmask16)((1u << n) - 1u);
}

/* An im2col panel (gemm.c's pack_im2col) with the 32 positions of a panel read
 * as two vectors: plain loads where they are contiguous in the input, gathers
 * otherwise. `off` holds the panel's offsets, which fit in int32 (the
 * caller checks). */
static void pack_im2col_rows_avx512(const float *const *src, i64 kc,
                                    const int32_t *off, i64 nw, int contiguous,
                                    float *dst) {
  __mmask16 m0 = lanes_below(nw), m1 = lanes_below(nw - 16);
  __m512i i0 = _mm512_loadu_si512((const void *)off);
  __m512i i1 = _mm512_loadu_si512((const void *)(off + 16));
  i64 p;
  for (p = 0; p < kc; ++p, dst += NR) {
    const float *row = src[p];
    __m512 v0, v1;
    if (contiguous) {
      v0 = _mm512_maskz_loadu_ps(m0, row + off[0]);
      v1 = _mm512_maskz_loadu_ps(m1, row + off[0] + 16);
    } else {
      v0 = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m0, i0, row, 4);
      v1 = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), m1, i1, row, 4);
    }
    _mm512_storeu_ps(dst, v0);
    _mm512_storeu_ps(dst + 16, v1);
  }
}

/* B packed from unit-stride rows: two (masked) vector copies per row of a
 * panel instead of a memcpy call for 32 floats. */
static void pack_b_rows_avx512(const float *b, i64 rsb, i64 kc, i64 nc,
                               float *bp) {
  i64 j, p;
  for (j = 0; j < nc; j += NR) {
    i64 nw = min64(NR, nc - j);
    __mmask16 m0 = lanes_below(nw), m1 = lanes_below(nw - 16);
    const float *src = b + j;
    for (p = 0; p < kc; ++p, src += rsb, bp += NR) {
      _mm512_storeu_ps(bp, _mm512_maskz_loadu_ps(m0, src));
      _mm512_storeu_ps(bp + 16, _mm512_maskz_loadu_ps(m1, src + 16));
    }
  }
}

/* B packed from unit-stride columns: each panel in blocks of 16 rows, its
 * two halves of 16 columns loaded as 16 vectors (masked past kc, zero past
 * nc) and transposed in registers into 16 rows. */
static void pack_b_cols_avx512(const float *b, i64 csb, i64 kc, i64 nc,
                               float *bp) {
  i64 j, p0;
  int h, i;
  for (j = 0; j < nc; j += NR) {
    i64 nw = min64(NR, nc - j);
    for (p0 = 0; p0 < kc; p0 += 16) {
      i64 rows = min64(16, kc - p0);
      __mmask16 m = lanes_below(rows);
      for (h = 0; h < 2; ++h) {
        __m512 r[16];
        for (i = 0; i < 16; ++i) {
          i64 col = 16 * h + i;
          r[i] = col < nw ? _mm512_maskz_loadu_ps(m, b + (j + col) * csb + p0)
                          : _mm512_setzero_ps();
        }
        transpose16(r);
        for (i = 0; i < rows; ++i)
          _mm512_storeu_ps(bp + (p0 + i) * NR + 16 * h, r[i]);
      }
    }
    bp += kc * NR;
  }
}

/* A row of a padded input: dst[0, wp) is src[c - lo] for c in [lo, hi),
 * else 0: the zeros on either side (a few floats), then whole vectors and
 * a masked tail, no libc call (rows are short: 7 to 230 floats in the
 * CNNs of the bench). */
static void pad_row_avx512(float *dst, i64 wp, i64 lo, i64 hi,
                           const float *src) {
  i64 i, n = hi - lo;
  for (i = 0; i < lo; ++i)
    dst[i] = 0.0f;
  dst += lo;
  for (i = 0; i + 16 <= n; i += 16)
    _mm512_storeu_ps(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    __mmask16 m = lanes_below(n - i);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
  }
  for (i = n; i < wp - lo; ++i)
    dst[i] = 0.0f;
}

/* A row in channel blocks: 16 input columns of the 16 channels loaded as
 * 16 vectors (masked at the end), transposed in registers into 16
 * columns of 16 channels. Unit-stride columns only (else the portable
 * copy). */
static void pad_row_cblock_avx512(float *dst, i64 wp, i64 lo, i64 hi,
                                  const float *src, i64 cstride,
                                  i64 colstride) {
  __m512 r[16];
  i64 col, c, i;
  if (colstride != 1) {
    onnxc_rt_pad_row_cblock_portable(dst, wp, lo, hi, src, cstride, colstride);
    return;
  }
  for (col = 0; col < lo; ++col)
    _mm512_storeu_ps(dst + col * 16, _mm512_setzero_ps());
  for (col = lo; col < hi; col += 16) {
    i64 n = min64(16, hi - col);
    __mmask16 m = lanes_below(n);
    for (c = 0; c < 16; ++c)
      r[c] = _mm512_maskz_loadu_ps(m, src + c * cstride + (col - lo));
    transpose16(r);
    for (i = 0; i < n; ++i)
      _mm512_storeu_ps(dst + (col + i) * 16, r[i]);
  }
  for (col = hi; col < wp; ++col)
    _mm512_storeu_ps(dst + col * 16, _mm512_setzero_ps());
}

static void split_row_avx512(const float *src, i64 n, float *even,
                             float *odd) {
  const __m512i ie = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                       22, 24, 26, 28, 30);
  const __m512i io = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21,
                                       23, 25, 27, 29, 31);
  i64 c;
  for (c = 0; c + 32 <= n; c += 32) {
    __m512 a = _mm512_loadu_ps(src + c), b = _mm512_loadu_ps(src + c + 16);
    _mm512_storeu_ps(even + c / 2, _mm512_permutex2var_ps(a, ie, b));
    _mm512_storeu_ps(odd + c / 2, _mm512_permutex2var_ps(a, io, b));
  }
  if (c < n) {
    /* The last n - c < 32 floats, masked (no read past src + n). */
    i64 left = n - c;
    __mmask16 ma = (__mmask16)(left >= 16 ? 0xffff : (1u << left) - 1u);
    __mmask16 mb = (__mmask16)(left > 16 ? (1u << (left - 16)) - 1u : 0u);
    __mmask16 me = (__mmask16)((1u << ((left + 1) / 2)) - 1u);
    __mmask16 mo = (__mmask16)((1u << (left / 2)) - 1u);
    __m512 a = _mm512_maskz_loadu_ps(ma, src + c);
    __m512 b = _mm512_maskz_loadu_ps(mb, src + c + 16);
    _mm512_mask_storeu_ps(even + c / 2, me, _mm512_permutex2var_ps(a, ie, b));
    _mm512_mask_storeu_ps(odd + c / 2, mo, _mm512_permutex2var_ps(a, io, b));
  }
}

void onnxc_rt_pack_fill_avx512(onnxc_kernels *k) {
  k->pack_rows = pack_b_rows_avx512;
  k->pack_cols = pack_b_cols_avx512;
  k->im2col = pack_im2col_rows_avx512;
  k->pad_row = pad_row_avx512;
  k->pad_row_cblock = pad_row_cblock_avx512;
  k->split_row = split_row_avx512;
}

#else
typedef int onnxc_pack_avx512_empty; /* not x86-64: nothing here */
#endif
