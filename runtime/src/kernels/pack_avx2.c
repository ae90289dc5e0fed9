/*===- kernels/pack_avx2.c - Packing and padding copies, AVX2 -------------===*
 *
 * The AVX2 tier's pack_rows, pad_row and pad_row_cblock (dispatch.h):
 * 8-float vector copies, the tails masked, instead of a memcpy call per
 * 32-float row of a panel (1x1 convolutions pack their input this way: 4%
 * of MobileNetV2 went to the portable copies), and 8 x 8 transposes in
 * registers for the copy in channel blocks. Plain copies: the same bits
 * as every tier. Compiled with -mavx2 -mfma; called only when dispatch.c
 * chose this tier (or AVX-512, which has copies of its own).
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "lanes_avx2.h"

static void pack_rows_avx2(const float *b, i64 rsb, i64 kc, i64 nc,
                           float *bp) {
  i64 j, p;
  int v;
  for (j = 0; j < nc; j += NR) {
    i64 nw = min64(NR, nc - j);
    const float *src = b + j;
    if (nw == NR) {
      for (p = 0; p < kc; ++p, src += rsb, bp += NR)
        for (v = 0; v < 4; ++v)
          _mm256_storeu_ps(bp + 8 * v, _mm256_loadu_ps(src + 8 * v));
    } else {
      __m256i m[4];
      for (v = 0; v < 4; ++v)
        m[v] = lanes8(nw - 8 * v);
      /* Zeros past nc: masked-off lanes load as 0. */
      for (p = 0; p < kc; ++p, src += rsb, bp += NR)
        for (v = 0; v < 4; ++v)
          _mm256_storeu_ps(bp + 8 * v, _mm256_maskload_ps(src + 8 * v, m[v]));
    }
  }
}

static void pad_row_avx2(float *dst, i64 wp, i64 lo, i64 hi,
                         const float *src) {
  i64 i, n = hi - lo;
  for (i = 0; i < lo; ++i)
    dst[i] = 0.0f;
  dst += lo;
  for (i = 0; i + 8 <= n; i += 8)
    _mm256_storeu_ps(dst + i, _mm256_loadu_ps(src + i));
  if (i < n) {
    store_first(dst + i, _mm256_maskload_ps(src + i, lanes8(n - i)), n - i);
  }
  for (i = n; i < wp - lo; ++i)
    dst[i] = 0.0f;
}

/* A row in channel blocks (pad_row_cblock): 8 input columns of 8
 * channels loaded as 8 vectors (masked at the end), transposed in
 * registers into 8 columns of 8 channels, twice per block of 16. The
 * portable copy, one strided element at a time, was 8-10% of U-Net's run
 * on this tier (its Winograd layers read their input so). Unit-stride
 * columns only (else the portable copy's loop). */
static void pad_row_cblock_avx2(float *dst, i64 wp, i64 lo, i64 hi,
                                const float *src, i64 cstride,
                                i64 colstride) {
  const __m256 zero = _mm256_setzero_ps();
  __m256 r[8], t[8];
  i64 col, c, i;
  int h;
  if (colstride != 1) {
    onnxc_rt_pad_row_cblock_portable(dst, wp, lo, hi, src, cstride, colstride);
    return;
  }
  for (col = 0; col < lo; ++col) {
    _mm256_storeu_ps(dst + col * 16, zero);
    _mm256_storeu_ps(dst + col * 16 + 8, zero);
  }
  for (col = lo; col < hi; col += 8) {
    const i64 n = min64(8, hi - col);
    const __m256i m = lanes8(n);
    for (h = 0; h < 2; ++h) {
      const float *s = src + 8 * h * cstride + (col - lo);
      for (c = 0; c < 8; ++c)
        r[c] = n == 8 ? _mm256_loadu_ps(s + c * cstride)
                      : _mm256_maskload_ps(s + c * cstride, m);
      transpose8(r, t); /* t[i]: column col + i, channels 8 h .. 8 h + 7 */
      for (i = 0; i < n; ++i)
        _mm256_storeu_ps(dst + (col + i) * 16 + 8 * h, t[i]);
    }
  }
  for (col = hi; col < wp; ++col) {
    _mm256_storeu_ps(dst + col * 16, zero);
    _mm256_storeu_ps(dst + col * 16 + 8, zero);
  }
}

void onnxc_rt_pack_fill_avx2(onnxc_kernels *k) {
  k->pack_rows = pack_rows_avx2;
  k->pad_row = pad_row_avx2;
  k->pad_row_cblock = pad_row_cblock_avx2;
}

#else
typedef int onnxc_pack_avx2_empty; /* not x86-64: nothing here */
#endif
