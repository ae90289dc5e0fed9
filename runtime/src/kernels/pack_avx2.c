/*===- kernels/pack_avx2.c - Packing and padding copies, AVX2 -------------===*
 *
 * The AVX2 tier's pack_rows and pad_row (dispatch.h): 8-float vector
 * copies, the tails masked, instead of a memcpy call per 32-float row of
 * a panel (1x1 convolutions pack their input this way: 4% of MobileNetV2
 * went to the portable copies). Plain copies: the same bits as every
 * tier. Compiled with -mavx2 -mfma; called only when dispatch.c chose this
 * tier (or AVX-512, which has copies of its own).
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
    __m256i m = lanes8(n - i);
    _mm256_maskstore_ps(dst + i, m, _mm256_maskload_ps(src + i, m));
  }
  for (i = n; i < wp - lo; ++i)
    dst[i] = 0.0f;
}

void onnxc_rt_pack_fill_avx2(onnxc_kernels *k) {
  k->pack_rows = pack_rows_avx2;
  k->pad_row = pad_row_avx2;
}

#else
typedef int onnxc_pack_avx2_empty; /* not x86-64: nothing here */
#endif
