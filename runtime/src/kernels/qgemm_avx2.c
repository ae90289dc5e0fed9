/*===- qgemm_avx2.c - The int8 kernels' AVX2 tier -------------------------===*
 *
 * For CPUs with AVX2 and no VNNI. vpmaddubsw (u8 x s8 pairs summed into
 * int16) would saturate: 255 * 127 * 2 > 32767. So the tile splits each
 * 32-bit group of 4 bytes into its even and odd bytes as int16 (the
 * panel's unsigned bytes by a mask and a shift, the broadcast weights'
 * signed ones by shifts) and multiplies them with vpmaddwd, whose int16
 * products sum exactly into int32: 16 products per instruction. 4 rows x
 * 16 columns per pass (8 accumulators), two passes per panel.
 *
 * Also the tiers' shared AVX2 loops: the panel interleave and
 * DynamicQuantizeLinear's min/max and quantization.
 *===----------------------------------------------------------------------===*/

#include "qgemm.h"

#ifdef ONNXC_QGEMM_X86

#include "qgemm_ymm.h"

#define MR 4

#define ONNXC_DEFINE_TILE_AVX2(R)                                              \
  ONNXC_YMM static void tile_##R(int64_t k4, const int8_t *a, int64_t lda,     \
                                 const uint8_t *panel, int nw, const qepi *ep, \
                                 void *c, int64_t rsc) {                       \
    const __m256i low = _mm256_set1_epi16(0x00ff);                             \
    int h, r;                                                                  \
    for (h = 0; h < 2 && 16 * h < nw; ++h) {                                   \
      __m256i acc[R][2];                                                       \
      const uint8_t *bp = panel + 64 * h;                                      \
      const int8_t *ap = a;                                                    \
      int64_t p;                                                               \
      _Pragma("GCC unroll 4") for (r = 0; r < R; ++r) acc[r][0] = acc[r][1] =  \
          _mm256_setzero_si256();                                              \
      for (p = 0; p < k4; ++p, bp += 4 * QNR, ap += 4) {                       \
        __m256i b0 = _mm256_loadu_si256((const __m256i *)bp);                  \
        __m256i b1 = _mm256_loadu_si256((const __m256i *)(bp + 32));           \
        __m256i e0 = _mm256_and_si256(b0, low), o0 = _mm256_srli_epi16(b0, 8); \
        __m256i e1 = _mm256_and_si256(b1, low), o1 = _mm256_srli_epi16(b1, 8); \
        _Pragma("GCC unroll 4") for (r = 0; r < R; ++r) {                      \
          __m256i w = _mm256_set1_epi32(onnxc_q_ld32(ap + r * lda));           \
          __m256i we = _mm256_srai_epi16(_mm256_slli_epi16(w, 8), 8);          \
          __m256i wo = _mm256_srai_epi16(w, 8);                                \
          acc[r][0] = _mm256_add_epi32(                                        \
              acc[r][0], _mm256_add_epi32(_mm256_madd_epi16(e0, we),           \
                                          _mm256_madd_epi16(o0, wo)));         \
          acc[r][1] = _mm256_add_epi32(                                        \
              acc[r][1], _mm256_add_epi32(_mm256_madd_epi16(e1, we),           \
                                          _mm256_madd_epi16(o1, wo)));         \
        }                                                                      \
      }                                                                        \
      ymm_store(R, acc, nw - 16 * h < 16 ? nw - 16 * h : 16, 16 * h, ep, c,    \
                rsc);                                                          \
    }                                                                          \
  }

ONNXC_DEFINE_TILE_AVX2(1)
ONNXC_DEFINE_TILE_AVX2(2)
ONNXC_DEFINE_TILE_AVX2(3)
ONNXC_DEFINE_TILE_AVX2(4)

typedef void (*tile_r_fn)(int64_t, const int8_t *, int64_t, const uint8_t *,
                          int, const qepi *, void *, int64_t);
static const tile_r_fn tiles[MR + 1] = {0, tile_1, tile_2, tile_3, tile_4};

static void tile(int rows, int64_t k4, const int8_t *a, int64_t lda,
                 const uint8_t *panel, int nw, const qepi *ep, void *c,
                 int64_t rsc) {
  tiles[rows](k4, a, lda, panel, nw, ep, c, rsc);
}

/* Bytes [32 - split, 64 - split): 0 (the first piece) for the first
 * split bytes, then 0xff (the second). */
static const uint8_t select_bytes[64] = {
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};

/* The panel of four rows: bytes c of rows 0-3 into dword c. */
ONNXC_YMM_INLINE static void interleave_rows(__m256i r0, __m256i r1,
                                             __m256i r2, __m256i r3,
                                             uint8_t *dst) {
  /* Per 128-bit lane: bytes of rows 0/1 and 2/3 paired, then words. */
  __m256i t0 = _mm256_unpacklo_epi8(r0, r1), t1 = _mm256_unpackhi_epi8(r0, r1);
  __m256i t2 = _mm256_unpacklo_epi8(r2, r3), t3 = _mm256_unpackhi_epi8(r2, r3);
  __m256i u0 = _mm256_unpacklo_epi16(t0, t2); /* cols 0-3 | 16-19 */
  __m256i u1 = _mm256_unpackhi_epi16(t0, t2); /* cols 4-7 | 20-23 */
  __m256i u2 = _mm256_unpacklo_epi16(t1, t3); /* cols 8-11 | 24-27 */
  __m256i u3 = _mm256_unpackhi_epi16(t1, t3); /* cols 12-15 | 28-31 */
  _mm256_storeu_si256((__m256i *)dst, _mm256_permute2x128_si256(u0, u1, 0x20));
  _mm256_storeu_si256((__m256i *)(dst + 32),
                      _mm256_permute2x128_si256(u2, u3, 0x20));
  _mm256_storeu_si256((__m256i *)(dst + 64),
                      _mm256_permute2x128_si256(u0, u1, 0x31));
  _mm256_storeu_si256((__m256i *)(dst + 96),
                      _mm256_permute2x128_si256(u2, u3, 0x31));
}

#define LD(p) _mm256_loadu_si256((const __m256i *)(p))

ONNXC_YMM void onnxc_rt_qinterleave_avx2(const uint8_t *const rows[4],
                                         const uint8_t *const hi[4], int split,
                                         uint8_t *dst) {
  __m256i r0 = LD(rows[0]), r1 = LD(rows[1]), r2 = LD(rows[2]),
          r3 = LD(rows[3]);
  if (split < 32) {
    __m256i sel = LD(select_bytes + 32 - split);
    r0 = _mm256_blendv_epi8(r0, LD(hi[0]), sel);
    r1 = _mm256_blendv_epi8(r1, LD(hi[1]), sel);
    r2 = _mm256_blendv_epi8(r2, LD(hi[2]), sel);
    r3 = _mm256_blendv_epi8(r3, LD(hi[3]), sel);
  }
  interleave_rows(r0, r1, r2, r3, dst);
}

ONNXC_YMM void onnxc_rt_qinterleave_panels_avx2(const uint8_t *const base[4],
                                                const int *seg,
                                                const int64_t (*off)[QSEG],
                                                const int (*start)[QSEG],
                                                int64_t panels, int64_t stride,
                                                uint8_t *dst) {
  const uint8_t *b0 = base[0], *b1 = base[1], *b2 = base[2], *b3 = base[3];
  int64_t i;
  int s;
  for (i = 0; i < panels; ++i, dst += stride) {
    int64_t o = off[i][0];
    __m256i r0 = LD(b0 + o), r1 = LD(b1 + o), r2 = LD(b2 + o), r3 = LD(b3 + o);
    for (s = 1; s < seg[i]; ++s) {
      /* Columns start[i][s] and on from piece s. */
      __m256i sel = LD(select_bytes + 32 - start[i][s]);
      o = off[i][s];
      r0 = _mm256_blendv_epi8(r0, LD(b0 + o), sel);
      r1 = _mm256_blendv_epi8(r1, LD(b1 + o), sel);
      r2 = _mm256_blendv_epi8(r2, LD(b2 + o), sel);
      r3 = _mm256_blendv_epi8(r3, LD(b3 + o), sel);
    }
    interleave_rows(r0, r1, r2, r3, dst);
  }
}

#undef LD

ONNXC_YMM void onnxc_rt_qminmax_avx2(const float *x, int64_t n, float *lo,
                                     float *hi) {
  __m256 l0 = _mm256_set1_ps(x[0]), h0 = l0, l1 = l0, h1 = l0;
  float l, h, tl[8], th[8];
  int64_t i = 0;
  int j;
  for (; i + 16 <= n; i += 16) {
    __m256 a = _mm256_loadu_ps(x + i), b = _mm256_loadu_ps(x + i + 8);
    l0 = _mm256_min_ps(l0, a);
    h0 = _mm256_max_ps(h0, a);
    l1 = _mm256_min_ps(l1, b);
    h1 = _mm256_max_ps(h1, b);
  }
  _mm256_storeu_ps(tl, _mm256_min_ps(l0, l1));
  _mm256_storeu_ps(th, _mm256_max_ps(h0, h1));
  l = tl[0];
  h = th[0];
  for (j = 1; j < 8; ++j) {
    l = tl[j] < l ? tl[j] : l;
    h = th[j] > h ? th[j] : h;
  }
  for (; i < n; ++i) {
    l = x[i] < l ? x[i] : l;
    h = x[i] > h ? x[i] : h;
  }
  *lo = l;
  *hi = h;
}

ONNXC_YMM void onnxc_rt_qquantize_avx2(const float *x, int64_t n, uint8_t *y,
                                       float scale, int32_t zp) {
  const __m256 s = _mm256_set1_ps(scale);
  const __m256 lo = _mm256_set1_ps((float)(0 - zp));
  const __m256 hi = _mm256_set1_ps((float)(255 - zp));
  const __m256i z = _mm256_set1_epi32(zp);
  const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256i q[4];
    int j;
    for (j = 0; j < 4; ++j) {
      /* (value, bound): a NaN quotient gives the bound, as in MLAS. */
      __m256 v = _mm256_div_ps(_mm256_loadu_ps(x + i + 8 * j), s);
      v = _mm256_min_ps(_mm256_max_ps(v, lo), hi);
      q[j] = _mm256_add_epi32(_mm256_cvtps_epi32(v), z);
    }
    {
      __m256i w = _mm256_packus_epi16(_mm256_packs_epi32(q[0], q[1]),
                                      _mm256_packs_epi32(q[2], q[3]));
      _mm256_storeu_si256((__m256i *)(y + i),
                          _mm256_permutevar8x32_epi32(w, order));
    }
  }
  onnxc_rt_qquantize_portable(x + i, n - i, y + i, scale, zp);
}

/* deint2: 32 bytes a step (vpshufb splits each lane, vpermq joins the
 * halves), the tail bytewise. */
ONNXC_YMM void onnxc_rt_qdeint2_avx2(const uint8_t *src, int64_t sstride,
                                     int64_t rows, int64_t n, uint8_t *even,
                                     uint8_t *odd, int64_t dstride,
                                     uint8_t flip) {
  const __m256i split = _mm256_setr_epi8(
      0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15, 0, 2, 4, 6, 8, 10,
      12, 14, 1, 3, 5, 7, 9, 11, 13, 15);
  const __m256i f = _mm256_set1_epi8((char)flip);
  int64_t r, i;
  for (r = 0; r < rows; ++r) {
    const uint8_t *s = src + r * sstride;
    uint8_t *e = even + r * dstride, *o = odd + r * dstride;
    for (i = 0; i + 32 <= n; i += 32) {
      __m256i v = _mm256_xor_si256(
          _mm256_loadu_si256((const __m256i *)(s + i)), f);
      v = _mm256_permute4x64_epi64(_mm256_shuffle_epi8(v, split),
                                   _MM_SHUFFLE(3, 1, 2, 0));
      _mm_storeu_si128((__m128i *)(e + i / 2), _mm256_castsi256_si128(v));
      _mm_storeu_si128((__m128i *)(o + i / 2), _mm256_extracti128_si256(v, 1));
    }
    for (; i < n; ++i)
      (i & 1 ? o : e)[i / 2] = (uint8_t)(s[i] ^ flip);
  }
}

ONNXC_YMM_DEFINE_ISA(onnxc_rt_qgemm_avx2, "avx2", 0)

#else

const qgemm_isa *onnxc_rt_qgemm_avx2(void) { return 0; }

#endif
