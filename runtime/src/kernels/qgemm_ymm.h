/*===- qgemm_ymm.h - The epilogue of the 256-bit int8 tiers --------------===*
 *
 * Included by qgemm_avx2.c and qgemm_avxvnni.c (their tiles differ only in
 * the dot product): qepi's epilogue (qgemm.h) on half a tile, `rows` rows
 * of 16 columns held as two vectors of 8 int32 per row. x86-64 only.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_QGEMM_YMM_H
#define ONNXC_RUNTIME_KERNELS_QGEMM_YMM_H

#include "qgemm.h"

#include <immintrin.h>
#include <string.h>

#define ONNXC_YMM __attribute__((target("avx2")))
#define ONNXC_YMM_INLINE __attribute__((always_inline, target("avx2"))) inline

/* The 4 bytes at p as an int32 (any alignment). */
static inline int32_t onnxc_q_ld32(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* Lanes [0, n) of the 8-lane mask of columns col0 .. col0 + 7. */
ONNXC_YMM_INLINE static __m256i ymm_lanes(int n) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(n),
                            _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
}

/* The epilogue of rows [0, rows) x columns [col0, col0 + ncol) of a tile
 * (ncol <= 16), acc[r][h] holding columns col0 + 8h .. col0 + 8h + 7: the
 * qepi's arrays and c are relative to the tile (column 0). */
ONNXC_YMM_INLINE static void ymm_store(int rows, __m256i (*acc)[2], int ncol,
                                       int col0, const qepi *ep, void *c,
                                       int64_t rsc) {
  const __m256i k0 = ymm_lanes(ncol), k1 = ymm_lanes(ncol - 8);
  const int full = ncol == 16;
  int r;
#define YLOAD_I(p)                                                             \
  (full ? _mm256_loadu_si256((const __m256i *)(p))                             \
        : _mm256_maskload_epi32((const int *)(p), k0))
#define YLOAD_I1(p)                                                            \
  (full ? _mm256_loadu_si256((const __m256i *)((p) + 8))                       \
        : _mm256_maskload_epi32((const int *)((p) + 8), k1))
  if (ep->cadd) {
    __m256i a0 = YLOAD_I(ep->cadd + col0), a1 = YLOAD_I1(ep->cadd + col0);
    for (r = 0; r < rows; ++r) {
      acc[r][0] = _mm256_add_epi32(acc[r][0], a0);
      acc[r][1] = _mm256_add_epi32(acc[r][1], a1);
    }
  }
  if (ep->radd)
    for (r = 0; r < rows; ++r) {
      __m256i a = _mm256_set1_epi32(ep->radd[r]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], a);
      acc[r][1] = _mm256_add_epi32(acc[r][1], a);
    }
  if (ep->rmul && ep->cmul) {
    __m256i v0 = YLOAD_I(ep->cmul + col0), v1 = YLOAD_I1(ep->cmul + col0);
    for (r = 0; r < rows; ++r) {
      __m256i u = _mm256_set1_epi32(ep->rmul[r]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_mullo_epi32(u, v0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_mullo_epi32(u, v1));
    }
  }
  if (ep->rmul2 && ep->cmul2) {
    __m256i v0 = YLOAD_I(ep->cmul2 + col0), v1 = YLOAD_I1(ep->cmul2 + col0);
    for (r = 0; r < rows; ++r) {
      __m256i u = _mm256_set1_epi32(ep->rmul2[r]);
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_mullo_epi32(u, v0));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_mullo_epi32(u, v1));
    }
  }
#undef YLOAD_I
#undef YLOAD_I1
  if (ep->out == ONNXC_Q_OUT_I32) {
    for (r = 0; r < rows; ++r) {
      int32_t *row = (int32_t *)c + r * rsc + col0;
      if (full) {
        _mm256_storeu_si256((__m256i *)row, acc[r][0]);
        _mm256_storeu_si256((__m256i *)(row + 8), acc[r][1]);
      } else {
        _mm256_maskstore_epi32((int *)row, k0, acc[r][0]);
        _mm256_maskstore_epi32((int *)(row + 8), k1, acc[r][1]);
      }
    }
    return;
  }
  {
    __m256 s0 = _mm256_setzero_ps(), s1 = s0, b0 = s0, b1 = s0;
    const __m256 vlo = _mm256_set1_ps(ep->lo), vhi = _mm256_set1_ps(ep->hi);
    const __m256i zp = _mm256_set1_epi32(ep->yzp);
    if (!ep->ch_row) {
      const float *s = ep->scale + col0;
      s0 = full ? _mm256_loadu_ps(s) : _mm256_maskload_ps(s, k0);
      s1 = full ? _mm256_loadu_ps(s + 8) : _mm256_maskload_ps(s + 8, k1);
      if (ep->bias) {
        const float *bb = ep->bias + col0;
        b0 = full ? _mm256_loadu_ps(bb) : _mm256_maskload_ps(bb, k0);
        b1 = full ? _mm256_loadu_ps(bb + 8) : _mm256_maskload_ps(bb + 8, k1);
      }
    }
    for (r = 0; r < rows; ++r) {
      __m256 f0, f1;
      if (ep->ch_row) {
        s0 = s1 = _mm256_set1_ps(ep->scale[r]);
        if (ep->bias)
          b0 = b1 = _mm256_set1_ps(ep->bias[r]);
      }
      f0 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][0]), s0);
      f1 = _mm256_mul_ps(_mm256_cvtepi32_ps(acc[r][1]), s1);
      if (ep->out == ONNXC_Q_OUT_F32) {
        float *row = (float *)c + r * rsc + col0;
        if (ep->bias) {
          f0 = _mm256_add_ps(f0, b0);
          f1 = _mm256_add_ps(f1, b1);
        }
        if (ep->clamp) { /* (bound, value): NaN comes through */
          f0 = _mm256_min_ps(vhi, _mm256_max_ps(vlo, f0));
          f1 = _mm256_min_ps(vhi, _mm256_max_ps(vlo, f1));
        }
        if (full) {
          _mm256_storeu_ps(row, f0);
          _mm256_storeu_ps(row + 8, f1);
        } else {
          _mm256_maskstore_ps(row, k0, f0);
          _mm256_maskstore_ps(row + 8, k1, f1);
        }
      } else {
        /* (value, bound): NaN gives the bound, as the scalar path. */
        __m256i i0 = _mm256_add_epi32(
            _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f0, vlo), vhi)), zp);
        __m256i i1 = _mm256_add_epi32(
            _mm256_cvtps_epi32(_mm256_min_ps(_mm256_max_ps(f1, vlo), vhi)), zp);
        __m128i w0 = _mm_packs_epi32(_mm256_castsi256_si128(i0),
                                     _mm256_extracti128_si256(i0, 1));
        __m128i w1 = _mm_packs_epi32(_mm256_castsi256_si128(i1),
                                     _mm256_extracti128_si256(i1, 1));
        __m128i bytes = ep->out == ONNXC_Q_OUT_U8 ? _mm_packus_epi16(w0, w1)
                                                  : _mm_packs_epi16(w0, w1);
        uint8_t *row = (uint8_t *)c + r * rsc + col0;
        if (full) {
          _mm_storeu_si128((__m128i *)row, bytes);
        } else {
          uint8_t tmp[16];
          _mm_storeu_si128((__m128i *)tmp, bytes);
          memcpy(row, tmp, (size_t)ncol);
        }
      }
    }
  }
}

#endif /* ONNXC_RUNTIME_KERNELS_QGEMM_YMM_H */
