/*===- qgemm_avx512vnni.c - The int8 kernels' AVX-512 VNNI tier -----------===*
 *
 * vpdpbusd on zmm: each instruction sums 4 products of the panel's
 * unsigned bytes and a row's signed ones into 16 int32 lanes (64 products).
 * A tile is 8 rows x 32 columns: 16 accumulators, the panel's two vectors
 * loaded once per group of 4 k, each row's 4 bytes broadcast from memory
 * by the instruction itself (its signed operand takes a {1to16} memory
 * operand). The epilogue (qgemm.h's qepi) runs on the accumulators in
 * registers, masked for a last partial panel. DynamicQuantizeLinear's loops
 * on 16 floats at a time; the panel interleave is AVX2's.
 *===----------------------------------------------------------------------===*/

#include "qgemm.h"

#ifdef ONNXC_QGEMM_X86

#include <immintrin.h>
#include <string.h>

#define MR 8
#define ONNXC_ZMM                                                              \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni")))
#define ONNXC_ZMM_INLINE                                                       \
  __attribute__((always_inline,                                                \
                 target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni")))     \
  inline

static inline int32_t ld32(const int8_t *p) {
  int32_t v;
  memcpy(&v, p, sizeof v);
  return v;
}

/* The epilogue of a tile held as lo[r] (columns 0-15) and hi[r] (16-31). */
ONNXC_ZMM_INLINE static void store_tile(int rows, __m512i *lo, __m512i *hi,
                                        int nw, const qepi *ep, void *c,
                                        int64_t rsc) {
  const __mmask16 m0 = nw >= 16 ? (__mmask16)0xffff
                                : (__mmask16)((1u << nw) - 1u);
  const __mmask16 m1 = nw >= 32   ? (__mmask16)0xffff
                       : nw <= 16 ? (__mmask16)0
                                  : (__mmask16)((1u << (nw - 16)) - 1u);
  int r;
  if (ep->cadd) {
    __m512i a0 = _mm512_maskz_loadu_epi32(m0, ep->cadd);
    __m512i a1 = _mm512_maskz_loadu_epi32(m1, ep->cadd + 16);
    for (r = 0; r < rows; ++r) {
      lo[r] = _mm512_add_epi32(lo[r], a0);
      hi[r] = _mm512_add_epi32(hi[r], a1);
    }
  }
  if (ep->radd)
    for (r = 0; r < rows; ++r) {
      __m512i a = _mm512_set1_epi32(ep->radd[r]);
      lo[r] = _mm512_add_epi32(lo[r], a);
      hi[r] = _mm512_add_epi32(hi[r], a);
    }
  if (ep->rmul && ep->cmul) {
    __m512i v0 = _mm512_maskz_loadu_epi32(m0, ep->cmul);
    __m512i v1 = _mm512_maskz_loadu_epi32(m1, ep->cmul + 16);
    for (r = 0; r < rows; ++r) {
      __m512i u = _mm512_set1_epi32(ep->rmul[r]);
      lo[r] = _mm512_add_epi32(lo[r], _mm512_mullo_epi32(u, v0));
      hi[r] = _mm512_add_epi32(hi[r], _mm512_mullo_epi32(u, v1));
    }
  }
  if (ep->rmul2 && ep->cmul2) {
    __m512i v0 = _mm512_maskz_loadu_epi32(m0, ep->cmul2);
    __m512i v1 = _mm512_maskz_loadu_epi32(m1, ep->cmul2 + 16);
    for (r = 0; r < rows; ++r) {
      __m512i u = _mm512_set1_epi32(ep->rmul2[r]);
      lo[r] = _mm512_add_epi32(lo[r], _mm512_mullo_epi32(u, v0));
      hi[r] = _mm512_add_epi32(hi[r], _mm512_mullo_epi32(u, v1));
    }
  }
  if (ep->out == ONNXC_Q_OUT_I32) {
    for (r = 0; r < rows; ++r) {
      int32_t *row = (int32_t *)c + r * rsc;
      _mm512_mask_storeu_epi32(row, m0, lo[r]);
      _mm512_mask_storeu_epi32(row + 16, m1, hi[r]);
    }
    return;
  }
  {
    __m512 s0 = _mm512_setzero_ps(), s1 = s0, b0 = s0, b1 = s0;
    const __m512 vlo = _mm512_set1_ps(ep->lo), vhi = _mm512_set1_ps(ep->hi);
    const __m512i zp = _mm512_set1_epi32(ep->yzp);
    if (!ep->ch_row) {
      s0 = _mm512_maskz_loadu_ps(m0, ep->scale);
      s1 = _mm512_maskz_loadu_ps(m1, ep->scale + 16);
      if (ep->bias) {
        b0 = _mm512_maskz_loadu_ps(m0, ep->bias);
        b1 = _mm512_maskz_loadu_ps(m1, ep->bias + 16);
      }
    }
    for (r = 0; r < rows; ++r) {
      __m512 f0, f1;
      if (ep->ch_row) {
        s0 = s1 = _mm512_set1_ps(ep->scale[r]);
        if (ep->bias)
          b0 = b1 = _mm512_set1_ps(ep->bias[r]);
      }
      f0 = _mm512_mul_ps(_mm512_cvtepi32_ps(lo[r]), s0);
      f1 = _mm512_mul_ps(_mm512_cvtepi32_ps(hi[r]), s1);
      if (ep->out == ONNXC_Q_OUT_F32) {
        float *row = (float *)c + r * rsc;
        if (ep->bias) {
          f0 = _mm512_add_ps(f0, b0);
          f1 = _mm512_add_ps(f1, b1);
        }
        if (ep->clamp) { /* (bound, value): NaN comes through */
          f0 = _mm512_min_ps(vhi, _mm512_max_ps(vlo, f0));
          f1 = _mm512_min_ps(vhi, _mm512_max_ps(vlo, f1));
        }
        _mm512_mask_storeu_ps(row, m0, f0);
        _mm512_mask_storeu_ps(row + 16, m1, f1);
      } else {
        /* (value, bound): NaN gives the bound; then round half to even
         * (the default MXCSR mode) and add the zero point: in range. */
        __m512i i0 = _mm512_add_epi32(
            _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f0, vlo), vhi)), zp);
        __m512i i1 = _mm512_add_epi32(
            _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f1, vlo), vhi)), zp);
        uint8_t *row = (uint8_t *)c + r * rsc;
        _mm512_mask_cvtepi32_storeu_epi8(row, m0, i0);
        _mm512_mask_cvtepi32_storeu_epi8(row + 16, m1, i1);
      }
    }
  }
}

/* tile_R: rows x 32 columns; per group of 4 k the panel's two vectors and
 * one broadcast per row. */
#define ONNXC_DEFINE_TILE_ZMM(R)                                               \
  ONNXC_ZMM static void tile_##R(int64_t k4, const int8_t *a, int64_t lda,     \
                                 const uint8_t *panel, int nw, const qepi *ep, \
                                 void *c, int64_t rsc) {                       \
    __m512i lo[R], hi[R];                                                      \
    int r;                                                                     \
    int64_t p;                                                                 \
    _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) lo[r] = hi[r] =            \
        _mm512_setzero_si512();                                                \
    for (p = 0; p < k4; ++p, panel += 4 * QNR, a += 4) {                       \
      __m512i b0 = _mm512_loadu_si512((const void *)panel);                    \
      __m512i b1 = _mm512_loadu_si512((const void *)(panel + 64));             \
      _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                        \
        __m512i w = _mm512_set1_epi32(ld32(a + r * lda));                      \
        lo[r] = _mm512_dpbusd_epi32(lo[r], b0, w);                             \
        hi[r] = _mm512_dpbusd_epi32(hi[r], b1, w);                             \
      }                                                                        \
    }                                                                          \
    store_tile(R, lo, hi, nw, ep, c, rsc);                                     \
  }

ONNXC_DEFINE_TILE_ZMM(1)
ONNXC_DEFINE_TILE_ZMM(2)
ONNXC_DEFINE_TILE_ZMM(3)
ONNXC_DEFINE_TILE_ZMM(4)
ONNXC_DEFINE_TILE_ZMM(5)
ONNXC_DEFINE_TILE_ZMM(6)
ONNXC_DEFINE_TILE_ZMM(7)
ONNXC_DEFINE_TILE_ZMM(8)

typedef void (*tile_r_fn)(int64_t, const int8_t *, int64_t, const uint8_t *,
                          int, const qepi *, void *, int64_t);
static const tile_r_fn tiles[MR + 1] = {0,      tile_1, tile_2, tile_3, tile_4,
                                        tile_5, tile_6, tile_7, tile_8};

static void tile(int rows, int64_t k4, const int8_t *a, int64_t lda,
                 const uint8_t *panel, int nw, const qepi *ep, void *c,
                 int64_t rsc) {
  tiles[rows](k4, a, lda, panel, nw, ep, c, rsc);
}

ONNXC_ZMM static void minmax(const float *x, int64_t n, float *lo, float *hi) {
  __m512 l0 = _mm512_set1_ps(x[0]), h0 = l0, l1 = l0, h1 = l0;
  int64_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m512 a = _mm512_loadu_ps(x + i), b = _mm512_loadu_ps(x + i + 16);
    l0 = _mm512_min_ps(l0, a);
    h0 = _mm512_max_ps(h0, a);
    l1 = _mm512_min_ps(l1, b);
    h1 = _mm512_max_ps(h1, b);
  }
  for (; i < n; i += 16) {
    __mmask16 m = n - i >= 16 ? (__mmask16)0xffff
                              : (__mmask16)((1u << (n - i)) - 1u);
    __m512 a = _mm512_maskz_loadu_ps(m, x + i);
    l0 = _mm512_mask_min_ps(l0, m, l0, a);
    h0 = _mm512_mask_max_ps(h0, m, h0, a);
  }
  *lo = _mm512_reduce_min_ps(_mm512_min_ps(l0, l1));
  *hi = _mm512_reduce_max_ps(_mm512_max_ps(h0, h1));
}

ONNXC_ZMM static void quantize(const float *x, int64_t n, uint8_t *y,
                               float scale, int32_t zp) {
  const __m512 s = _mm512_set1_ps(scale);
  const __m512 lo = _mm512_set1_ps((float)(0 - zp));
  const __m512 hi = _mm512_set1_ps((float)(255 - zp));
  const __m512i z = _mm512_set1_epi32(zp);
  int64_t i;
  for (i = 0; i < n; i += 16) {
    __mmask16 m = n - i >= 16 ? (__mmask16)0xffff
                              : (__mmask16)((1u << (n - i)) - 1u);
    /* (value, bound): a NaN quotient gives the bound, as in MLAS. */
    __m512 v = _mm512_div_ps(_mm512_maskz_loadu_ps(m, x + i), s);
    v = _mm512_min_ps(_mm512_max_ps(v, lo), hi);
    _mm512_mask_cvtepi32_storeu_epi8(
        y + i, m, _mm512_add_epi32(_mm512_cvtps_epi32(v), z));
  }
}

const qgemm_isa *onnxc_rt_qgemm_avx512vnni(void) {
  static const qgemm_isa isa = {"avx512vnni", MR,       tile,
                                onnxc_rt_qinterleave_avx2, minmax, quantize};
  return &isa;
}

#else

const qgemm_isa *onnxc_rt_qgemm_avx512vnni(void) { return 0; }

#endif
