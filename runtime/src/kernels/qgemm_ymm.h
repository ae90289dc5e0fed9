/*===- qgemm_ymm.h - The epilogue of the 256-bit int8 tiers --------------===*
 *
 * Included by qgemm_avx2.c and qgemm_avxvnni.c (their tiles differ only in
 * the dot product): qepi's epilogue (qgemm.h) on half a tile, `rows` rows
 * of 16 columns held as two vectors of 8 int32 per row; the depthwise
 * loop (dw_row) and the qgemm_isa table of both. x86-64 only.
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

/* The first n (clamped to [0, 8]) 32-bit lanes of v stored at p by plain
 * stores, as lanes_avx2.h's store_first: no vpmaskmovd / vmaskmovps to
 * memory, about 13 cycles a store on AMD Zen 3. */
ONNXC_YMM_INLINE static void ymm_store_first(void *p, __m256i v, int n) {
  char *b = (char *)p;
  __m128i h = _mm256_castsi256_si128(v);
  if (n >= 8) {
    _mm256_storeu_si256((__m256i *)b, v);
    return;
  }
  if (n >= 4) {
    _mm_storeu_si128((__m128i *)b, h);
    h = _mm256_extracti128_si256(v, 1);
    b += 16;
    n -= 4;
  }
  if (n >= 2) {
    _mm_storel_epi64((__m128i *)b, h);
    h = _mm_unpackhi_epi64(h, h);
    b += 8;
    n -= 2;
  }
  if (n >= 1) {
    int32_t x = _mm_cvtsi128_si32(h);
    memcpy(b, &x, sizeof x);
  }
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
      ymm_store_first(row, acc[r][0], ncol);
      ymm_store_first(row + 8, acc[r][1], ncol - 8);
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
        ymm_store_first(row, _mm256_castps_si256(f0), ncol);
        ymm_store_first(row + 8, _mm256_castps_si256(f1), ncol - 8);
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


/* The 4-byte dot products of the depthwise loop: acc += the unsigned
 * bytes of a times the signed bytes of w, 4 per int32 lane. With VNNI one
 * vpdpbusd (assembly: no target attribute needed in the AVX2 tier's
 * copy); else exact int16 products of the even and the odd bytes
 * (vpmaddwd: vpmaddubsw would saturate), the weights split once (we, wo:
 * sign-extended even and odd bytes). */
ONNXC_YMM_INLINE static __m256i ymm_dot4(__m256i acc, __m256i a, __m256i w,
                                         __m256i we, __m256i wo,
                                         const int vnni) {
  if (vnni) {
    __asm__("%{vex%} vpdpbusd %[w], %[a], %[acc]"
            : [acc] "+x"(acc)
            : [a] "x"(a), [w] "x"(w));
    return acc;
  }
  {
    const __m256i lo = _mm256_set1_epi16(0x00ff);
    __m256i ae = _mm256_and_si256(a, lo), ao = _mm256_srli_epi16(a, 8);
    (void)w;
    return _mm256_add_epi32(acc,
                            _mm256_add_epi32(_mm256_madd_epi16(ae, we),
                                             _mm256_madd_epi16(ao, wo)));
  }
}

/* 8 outputs' 4 bytes each, from the window at `win`: lane l holds the 4
 * bytes at win + s l (idx[l] = s l, s <= 4: dw_short_rows is 0 on these
 * tiers): 16 bytes loaded per 4 outputs, shuffled along pat. */
ONNXC_YMM_INLINE static __m256i ymm_window8(const uint8_t *win,
                                            const uint8_t *idx, __m256i pat) {
  __m256i v = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)(win + idx[0]))),
      _mm_loadu_si128((const __m128i *)(win + idx[4])), 1);
  return _mm256_shuffle_epi8(v, pat);
}

/* qgemm.h's dw_row (one output row per rowlen), 16 outputs a step. */
ONNXC_YMM_INLINE static void ymm_dw_row(
    const uint8_t *const *src, int64_t nch, int64_t chadv, const int32_t *wd,
    const int32_t *ones, int nsrc, int64_t total, int64_t rowlen,
    int64_t rowadv, int64_t coladv, const uint8_t *idx, int sums,
    const qepi *ep, void *out, int64_t ochadv, const int vnni) {
  const size_t esize =
      ep->out == ONNXC_Q_OUT_I32 || ep->out == ONNXC_Q_OUT_F32 ? 4 : 1;
  const int64_t nrows = (total + rowlen - 1) / rowlen;
  __m256i wv[64], we[64], wo[64], ov[64], oe[64], oo[64], pat;
  const int s = idx[1]; /* the column stride: idx[l] = s l */
  int8_t pb[32];
  int i, l;
  int64_t h, r, o;
  for (l = 0; l < 32; ++l) /* output l / 4 % 4 of a lane, its byte l % 4 */
    pb[l] = (int8_t)(s * (l / 4 % 4) + l % 4);
  pat = _mm256_loadu_si256((const __m256i *)pb);
  for (i = 0; i < nsrc && i < 64; ++i) {
    ov[i] = _mm256_set1_epi32(ones[i]);
    oe[i] = _mm256_srai_epi16(_mm256_slli_epi16(ov[i], 8), 8);
    oo[i] = _mm256_srai_epi16(ov[i], 8);
  }
  for (h = 0; h < nch; ++h) {
    qepi e = *ep;
    if (e.radd)
      e.radd += h;
    if (e.rmul)
      e.rmul += h;
    if (e.ch_row) {
      if (e.scale)
        e.scale += h;
      if (e.bias)
        e.bias += h;
    }
    for (i = 0; i < nsrc; ++i) {
      wv[i] = _mm256_set1_epi32(wd[h * nsrc + i]);
      we[i] = _mm256_srai_epi16(_mm256_slli_epi16(wv[i], 8), 8);
      wo[i] = _mm256_srai_epi16(wv[i], 8);
    }
    for (r = 0; r < nrows; ++r) {
      const int64_t len = r + 1 < nrows ? rowlen : total - r * rowlen;
      for (o = 0; o < len; o += 16) {
        const int64_t at = h * chadv + r * rowadv + o / 32 * coladv;
        const int ncol = (int)(len - o < 16 ? len - o : 16);
        const uint8_t *ix = idx + o % 32;
        __m256i acc[1][2], sm[2];
        int32_t colsum[16];
        qepi ec = e;
        acc[0][0] = acc[0][1] = sm[0] = sm[1] = _mm256_setzero_si256();
        for (i = 0; i < nsrc; ++i) {
          const uint8_t *win = src[i] + at;
          __m256i a0 = ymm_window8(win, ix, pat);
          acc[0][0] = ymm_dot4(acc[0][0], a0, wv[i], we[i], wo[i], vnni);
          if (sums)
            sm[0] = ymm_dot4(sm[0], a0, ov[i], oe[i], oo[i], vnni);
          if (ncol > 8) { /* the second 8 outputs */
            __m256i a1 = ymm_window8(win, ix + 8, pat);
            acc[0][1] = ymm_dot4(acc[0][1], a1, wv[i], we[i], wo[i], vnni);
            if (sums)
              sm[1] = ymm_dot4(sm[1], a1, ov[i], oe[i], oo[i], vnni);
          }
        }
        if (sums) {
          _mm256_storeu_si256((__m256i *)colsum, sm[0]);
          _mm256_storeu_si256((__m256i *)(colsum + 8), sm[1]);
          ec.cmul = colsum;
        }
        if (!ec.ch_row) {
          if (ec.scale)
            ec.scale += h * ochadv + r * rowlen + o;
          if (ec.bias)
            ec.bias += h * ochadv + r * rowlen + o;
        }
        ymm_store(1, acc, ncol, 0, &ec,
                  (uint8_t *)out + (h * ochadv + r * rowlen + o) * (int64_t)esize,
                  0);
      }
    }
  }
}

/* A 256-bit tier's table (qgemm.h's qgemm_isa): its name, MR and tile, the
 * shared AVX2 loops (qgemm_avx2.c), and a dw_row of ymm_dw_row whose dot
 * product is vpdpbusd when vnni is 1. Defines `getter` and a static dw_row:
 * one use per file. */
#define ONNXC_YMM_DEFINE_ISA(getter, name, vnni)                               \
  ONNXC_YMM static void dw_row(                                                \
      const uint8_t *const *src, int64_t nch, int64_t chadv,                   \
      const int32_t *wd, const int32_t *ones, int nsrc, int64_t total,         \
      int64_t rowlen, int64_t rowadv, int64_t coladv, const uint8_t *idx,      \
      int sums, const qepi *ep, void *out, int64_t ochadv) {                   \
    ymm_dw_row(src, nch, chadv, wd, ones, nsrc, total, rowlen, rowadv,         \
               coladv, idx, sums, ep, out, ochadv, vnni);                      \
  }                                                                            \
  const qgemm_isa *getter(void) {                                              \
    static const qgemm_isa isa = {name,                                        \
                                  MR,                                          \
                                  tile,                                        \
                                  onnxc_rt_qinterleave_avx2,                   \
                                  onnxc_rt_qinterleave_panels_avx2,            \
                                  0,                                           \
                                  dw_row,                                      \
                                  onnxc_rt_qminmax_avx2,                       \
                                  onnxc_rt_qquantize_avx2,                     \
                                  onnxc_rt_qdeint2_avx2,                       \
                                  0,                                           \
                                  0,                                           \
                                  0,                                           \
                                  0,                                           \
                                  0};                                          \
    return &isa;                                                               \
  }

#endif /* ONNXC_RUNTIME_KERNELS_QGEMM_YMM_H */
