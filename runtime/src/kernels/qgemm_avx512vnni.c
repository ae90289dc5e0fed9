/*===- qgemm_avx512vnni.c - The int8 kernels' AVX-512 VNNI tier -----------===*
 *
 * vpdpbusd on zmm: each instruction sums 4 products of the panel's
 * unsigned bytes and a row's signed ones into 16 int32 lanes (64 products).
 * A tile is 8 rows x 32 columns: 16 accumulators, the panel's two vectors
 * loaded once per group of 4 k, each row's 4 bytes broadcast into a
 * register. The epilogue (qgemm.h's qepi) runs on the accumulators in
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

/* The low bytes of the 32 dwords of a and b (a first) to y[0, nw): one
 * 32-byte store, masked when nw < 32 (vpmovdb to memory is several times
 * slower on Zen 4/5). */
ONNXC_ZMM_INLINE static void store_bytes32(uint8_t *y, int nw, __m512i a,
                                           __m512i b) {
  __m256i v = _mm256_inserti128_si256(
      _mm256_castsi128_si256(_mm512_cvtepi32_epi8(a)), _mm512_cvtepi32_epi8(b),
      1);
  if (nw >= 32)
    _mm256_storeu_si256((__m256i *)y, v);
  else
    _mm256_mask_storeu_epi8(y, (__mmask32)((1u << nw) - 1u), v);
}

/* The mask of columns 16 h .. 16 h + 15 of a panel of nw columns. */
ONNXC_ZMM_INLINE static __mmask16 col_mask(int nw, int h) {
  const int n = nw - 16 * h;
  return n >= 16 ? (__mmask16)0xffff
         : n <= 0 ? (__mmask16)0
                  : (__mmask16)((1u << n) - 1u);
}

/* The column vectors of a tile's epilogue, loaded once (epi_load). */
typedef struct epi_consts {
  __mmask16 m0, m1;
  __m512i v0, v1, w0, w1, zp; /* cmul, cmul2, the zero point */
  __m512 s0, s1, b0, b1, vlo, vhi;
} epi_consts;

/* Row r's 32 results as they are stored (columns 0-15 in *lo, 16-31 in
 * *hi): I32 sums, F32 values (their bits), or U8 / S8 values in int32
 * lanes (the zero point added); 1 when they are bytes. */
ONNXC_ZMM_INLINE static int epi_vals(const qepi *ep, const epi_consts *k,
                                     int r, __m512i *plo, __m512i *phi) {
  __m512i lo = *plo, hi = *phi;
  __m512 f0, f1, s0 = k->s0, s1 = k->s1, b0 = k->b0, b1 = k->b1;
  if (ep->rmul && ep->cmul) {
    __m512i u = _mm512_set1_epi32(ep->rmul[r]);
    lo = _mm512_add_epi32(lo, _mm512_mullo_epi32(u, k->v0));
    hi = _mm512_add_epi32(hi, _mm512_mullo_epi32(u, k->v1));
  }
  if (ep->rmul2 && ep->cmul2) {
    __m512i u = _mm512_set1_epi32(ep->rmul2[r]);
    lo = _mm512_add_epi32(lo, _mm512_mullo_epi32(u, k->w0));
    hi = _mm512_add_epi32(hi, _mm512_mullo_epi32(u, k->w1));
  }
  if (ep->out == ONNXC_Q_OUT_I32) {
    *plo = lo;
    *phi = hi;
    return 0;
  }
  if (ep->ch_row) {
    s0 = s1 = _mm512_set1_ps(ep->scale[r]);
    if (ep->bias)
      b0 = b1 = _mm512_set1_ps(ep->bias[r]);
  }
  f0 = _mm512_mul_ps(_mm512_cvtepi32_ps(lo), s0);
  f1 = _mm512_mul_ps(_mm512_cvtepi32_ps(hi), s1);
  if (ep->out == ONNXC_Q_OUT_F32) {
    if (ep->bias) {
      f0 = _mm512_add_ps(f0, b0);
      f1 = _mm512_add_ps(f1, b1);
    }
    if (ep->clamp) { /* (bound, value): NaN comes through */
      f0 = _mm512_min_ps(k->vhi, _mm512_max_ps(k->vlo, f0));
      f1 = _mm512_min_ps(k->vhi, _mm512_max_ps(k->vlo, f1));
    }
    *plo = _mm512_castps_si512(f0);
    *phi = _mm512_castps_si512(f1);
    return 0;
  }
  /* (value, bound): NaN gives the bound; then round half to even (the
   * default MXCSR mode) and add the zero point: in range. */
  *plo = _mm512_add_epi32(
      _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f0, k->vlo), k->vhi)),
      k->zp);
  *phi = _mm512_add_epi32(
      _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f1, k->vlo), k->vhi)),
      k->zp);
  return 1;
}

/* The epilogue of row r of a tile (lo: columns 0-15, hi: 16-31), its
 * additive terms already in; the column vectors loaded once (k). */
ONNXC_ZMM_INLINE static void epi_row(const qepi *ep, const epi_consts *k,
                                     int r, __m512i lo, __m512i hi, int nw,
                                     void *c, int64_t rsc) {
  if (epi_vals(ep, k, r, &lo, &hi)) {
    store_bytes32((uint8_t *)c + r * rsc, nw, lo, hi);
  } else {
    int32_t *row = (int32_t *)c + r * rsc; /* int32 or float bits */
    _mm512_mask_storeu_epi32(row, k->m0, lo);
    _mm512_mask_storeu_epi32(row + 16, k->m1, hi);
  }
}

/* epi_row stored by segments (qsegs; a direct convolution's row). */
ONNXC_ZMM_INLINE static void epi_seg(const qepi *ep, const epi_consts *k,
                                     int r, __m512i lo, __m512i hi,
                                     const qsegs *sg, void *c, int64_t rsc) {
  int s;
  if (epi_vals(ep, k, r, &lo, &hi)) {
    __m256i v = _mm256_inserti128_si256(
        _mm256_castsi128_si256(_mm512_cvtepi32_epi8(lo)),
        _mm512_cvtepi32_epi8(hi), 1);
    uint8_t *row = (uint8_t *)c + r * rsc;
    for (s = 0; s < sg->n; ++s)
      _mm256_mask_storeu_epi8(row + sg->at[s], (__mmask32)sg->mask[s], v);
  } else {
    int32_t *row = (int32_t *)c + r * rsc;
    for (s = 0; s < sg->n; ++s) {
      _mm512_mask_storeu_epi32(row + sg->at[s], (__mmask16)sg->mask[s], lo);
      _mm512_mask_storeu_epi32(row + sg->at[s] + 16,
                               (__mmask16)(sg->mask[s] >> 16), hi);
    }
  }
}

/* The column vectors of the epilogue of a panel of nw columns. */
ONNXC_ZMM_INLINE static epi_consts epi_load(const qepi *ep, int nw) {
  epi_consts k;
  k.m0 = col_mask(nw, 0);
  k.m1 = col_mask(nw, 1);
  k.v0 = k.v1 = k.w0 = k.w1 = _mm512_setzero_si512();
  if (ep->rmul && ep->cmul) {
    k.v0 = _mm512_maskz_loadu_epi32(k.m0, ep->cmul);
    k.v1 = _mm512_maskz_loadu_epi32(k.m1, ep->cmul + 16);
  }
  if (ep->rmul2 && ep->cmul2) {
    k.w0 = _mm512_maskz_loadu_epi32(k.m0, ep->cmul2);
    k.w1 = _mm512_maskz_loadu_epi32(k.m1, ep->cmul2 + 16);
  }
  k.zp = _mm512_set1_epi32(ep->yzp);
  k.vlo = _mm512_set1_ps(ep->lo);
  k.vhi = _mm512_set1_ps(ep->hi);
  k.s0 = k.s1 = k.b0 = k.b1 = _mm512_setzero_ps();
  if (ep->out != ONNXC_Q_OUT_I32 && !ep->ch_row) {
    k.s0 = _mm512_maskz_loadu_ps(k.m0, ep->scale);
    k.s1 = _mm512_maskz_loadu_ps(k.m1, ep->scale + 16);
    if (ep->bias) {
      k.b0 = _mm512_maskz_loadu_ps(k.m0, ep->bias);
      k.b1 = _mm512_maskz_loadu_ps(k.m1, ep->bias + 16);
    }
  }
  return k;
}

/* The epilogue of a tile held as lo[r] (columns 0-15) and hi[r] (16-31). */
ONNXC_ZMM_INLINE static void store_tile(int rows, __m512i *lo, __m512i *hi,
                                        int nw, const qepi *ep, void *c,
                                        int64_t rsc) {
  const __mmask16 m0 = col_mask(nw, 0), m1 = col_mask(nw, 1);
  epi_consts k;
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
  k = epi_load(ep, nw);
  for (r = 0; r < rows; ++r)
    epi_row(ep, &k, r, lo[r], hi[r], nw, c, rsc);
}

/* A tile of fewer than 8 rows: rows x 32 columns. GCC compiles the vpdpbusd
 * intrinsic into register shuffles and spills around every instruction,
 * so the K loop is assembly: 16 accumulators in zmm16-31, per group of 4 k
 * the panel's two vectors in zmm0-1 and each row's 4 bytes broadcast into
 * zmm2 (vpdpbusd's own {1to16} memory operand is slower on Zen 5: 880
 * against 1100 GOPS with the data in L1); the sums go to memory for the
 * epilogue. Rows past `rows` repeat the last one (computed, not
 * stored). */
#define VD(r, c0, c1)                                                          \
  "vpbroadcastd (%[p" #r "],%[off]), %%zmm2\n\t"                              \
  "vpdpbusd %%zmm2, %%zmm0, %%zmm" #c0 "\n\t"                                  \
  "vpdpbusd %%zmm2, %%zmm1, %%zmm" #c1 "\n\t"
#define VZ(c) "vpxord %%zmm" #c ", %%zmm" #c ", %%zmm" #c "\n\t"
#define VS(c, i) "vmovdqu64 %%zmm" #c ", " #i "(%[out])\n\t"

ONNXC_ZMM static void tile_edge(int rows, int64_t k4, const int8_t *a, int64_t lda,
                           const uint8_t *panel, int nw, const qepi *ep,
                           void *c, int64_t rsc) {
  __m512i acc[2 * MR], lo[MR], hi[MR];
  const int8_t *p[MR];
  int64_t off = 0, n = k4;
  const uint8_t *pn = panel;
  int r;
  for (r = 0; r < MR; ++r)
    p[r] = a + (r < rows ? r : rows - 1) * lda;
  __asm__ volatile(
      VZ(16) VZ(17) VZ(18) VZ(19) VZ(20) VZ(21) VZ(22) VZ(23)
      VZ(24) VZ(25) VZ(26) VZ(27) VZ(28) VZ(29) VZ(30) VZ(31)
      "test %[n], %[n]\n\t"
      "jle 2f\n\t"
      "1:\n\t"
      "vmovdqu64 (%[pn]), %%zmm0\n\t"
      "vmovdqu64 64(%[pn]), %%zmm1\n\t"
      VD(0, 16, 17) VD(1, 18, 19) VD(2, 20, 21) VD(3, 22, 23)
      VD(4, 24, 25) VD(5, 26, 27) VD(6, 28, 29) VD(7, 30, 31)
      "add $4, %[off]\n\t"
      "sub $-128, %[pn]\n\t"
      "dec %[n]\n\t"
      "jnz 1b\n\t"
      "2:\n\t"
      VS(16, 0) VS(17, 64) VS(18, 128) VS(19, 192) VS(20, 256) VS(21, 320)
      VS(22, 384) VS(23, 448) VS(24, 512) VS(25, 576) VS(26, 640)
      VS(27, 704) VS(28, 768) VS(29, 832) VS(30, 896) VS(31, 960)
      : [off] "+r"(off), [pn] "+r"(pn), [n] "+r"(n)
      : [p0] "r"(p[0]), [p1] "r"(p[1]), [p2] "r"(p[2]), [p3] "r"(p[3]),
        [p4] "r"(p[4]), [p5] "r"(p[5]), [p6] "r"(p[6]), [p7] "r"(p[7]),
        [out] "r"(acc)
      : "cc", "memory", "xmm0", "xmm1", "xmm2", "xmm16", "xmm17", "xmm18", "xmm19",
        "xmm20", "xmm21", "xmm22", "xmm23", "xmm24", "xmm25", "xmm26",
        "xmm27", "xmm28", "xmm29", "xmm30", "xmm31");
  for (r = 0; r < MR; ++r) {
    lo[r] = acc[2 * r];
    hi[r] = acc[2 * r + 1];
  }
  store_tile(rows, lo, hi, nw, ep, c, rsc);
}

#undef VD
#undef VZ
#undef VS

/* The tile of 8 rows x 32 columns. The K loop is assembly (see
 * tile_edge); its 16 accumulators are output operands in registers the
 * compiler picks, so the epilogue reads them where they are. They start at
 * the epilogue's additive terms radd[r] + cadd[c] (int32 sums wrap: the
 * order is free). The rows are read as a + r lda (two bases, lda and
 * 3 lda: the operands fit in GCC's 30). A last panel of at most 16
 * columns (maps of 14 x 14: 196 = 6 x 32 + 4) takes half the work. */
#define VD(r, addr)                                                            \
  "vpbroadcastd " addr ", %%zmm2\n\t"                                          \
  "vpdpbusd %%zmm2, %%zmm0, %g[l" #r "]\n\t"                                   \
  "vpdpbusd %%zmm2, %%zmm1, %g[h" #r "]\n\t"
#define VDH(r, addr)                                                           \
  "vpbroadcastd " addr ", %%zmm2\n\t"                                          \
  "vpdpbusd %%zmm2, %%zmm0, %g[l" #r "]\n\t"
/* The K loop of a tile: per group of 4 k, `load` the panel's vector(s)
 * and `row` (VD or VDH) each of the 8 rows at a0 + r lda. */
#define KLOOP(load, row)                                                       \
  "test %[n], %[n]\n\t"                                                        \
  "jle 2f\n\t"                                                                 \
  "1:\n\t" load                                                                \
  row(0, "(%[a0])") row(1, "(%[a0],%[lda])")                                   \
  row(2, "(%[a0],%[lda],2)") row(3, "(%[a0],%[lda3])")                         \
  row(4, "(%[a4])") row(5, "(%[a4],%[lda])")                                   \
  row(6, "(%[a4],%[lda],2)") row(7, "(%[a4],%[lda3])")                         \
  "add $4, %[a0]\n\t"                                                          \
  "add $4, %[a4]\n\t"                                                          \
  "sub $-128, %[pn]\n\t"                                                       \
  "dec %[n]\n\t"                                                               \
  "jnz 1b\n\t"                                                                 \
  "2:\n\t"
#define VH(r) "vpaddd " #r "*4(%[ra])%{1to16%}, %%zmm0, %g[l" #r "]\n\t"
#define VI(r)                                                                  \
  "vpaddd " #r "*4(%[ra])%{1to16%}, %%zmm0, %g[l" #r "]\n\t"                   \
  "vpaddd " #r "*4(%[ra])%{1to16%}, %%zmm1, %g[h" #r "]\n\t"

ONNXC_ZMM static void tile(int rows, int64_t k4, const int8_t *a, int64_t lda,
                           const uint8_t *panel, int nw, const qepi *ep,
                           void *c, int64_t rsc) {
  static const int32_t zeros[32];
  const __mmask16 m0 = col_mask(nw, 0), m1 = col_mask(nw, 1);
  __m512i l0, l1, l2, l3, l4, l5, l6, l7, h0, h1, h2, h3, h4, h5, h6, h7;
  int32_t ra[MR], ca[32];
  const int32_t *cap = zeros;
  const int8_t *a0 = a, *a4 = a + 4 * lda;
  const int64_t lda3 = 3 * lda;
  int64_t n = k4;
  const uint8_t *pn = panel;
  epi_consts k;
  int r;
  if (rows < MR) {
    tile_edge(rows, k4, a, lda, panel, nw, ep, c, rsc);
    return;
  }
  for (r = 0; r < MR; ++r)
    ra[r] = ep->radd ? ep->radd[r] : 0;
  if (ep->cadd) {
    _mm512_storeu_si512((void *)ca, _mm512_maskz_loadu_epi32(m0, ep->cadd));
    _mm512_storeu_si512((void *)(ca + 16),
                        _mm512_maskz_loadu_epi32(m1, ep->cadd + 16));
    cap = ca;
  }
  if (nw <= 16) {
    /* A last panel of at most 16 columns: its first half only. */
    __asm__ volatile(
        "vmovdqu64 (%[ca]), %%zmm0\n\t"
        VH(0) VH(1) VH(2) VH(3) VH(4) VH(5) VH(6) VH(7)
        KLOOP("vmovdqu64 (%[pn]), %%zmm0\n\t", VDH)
        : [a0] "+r"(a0), [a4] "+r"(a4), [pn] "+r"(pn), [n] "+r"(n),
          [l0] "=&v"(l0), [l1] "=&v"(l1), [l2] "=&v"(l2), [l3] "=&v"(l3),
          [l4] "=&v"(l4), [l5] "=&v"(l5), [l6] "=&v"(l6), [l7] "=&v"(l7)
        : [lda] "r"(lda), [lda3] "r"(lda3), [ra] "r"(ra), [ca] "r"(cap)
        : "cc", "memory", "xmm0", "xmm2");
    h0 = h1 = h2 = h3 = h4 = h5 = h6 = h7 = _mm512_setzero_si512();
  } else
  __asm__ volatile(
      "vmovdqu64 (%[ca]), %%zmm0\n\t"
      "vmovdqu64 64(%[ca]), %%zmm1\n\t"
      VI(0) VI(1) VI(2) VI(3) VI(4) VI(5) VI(6) VI(7)
      KLOOP("vmovdqu64 (%[pn]), %%zmm0\n\t"
            "vmovdqu64 64(%[pn]), %%zmm1\n\t", VD)
      : [a0] "+r"(a0), [a4] "+r"(a4), [pn] "+r"(pn), [n] "+r"(n),
        [l0] "=&v"(l0), [h0] "=&v"(h0), [l1] "=&v"(l1), [h1] "=&v"(h1),
        [l2] "=&v"(l2), [h2] "=&v"(h2), [l3] "=&v"(l3), [h3] "=&v"(h3),
        [l4] "=&v"(l4), [h4] "=&v"(h4), [l5] "=&v"(l5), [h5] "=&v"(h5),
        [l6] "=&v"(l6), [h6] "=&v"(h6), [l7] "=&v"(l7), [h7] "=&v"(h7)
      : [lda] "r"(lda), [lda3] "r"(lda3), [ra] "r"(ra), [ca] "r"(cap)
      : "cc", "memory", "xmm0", "xmm1", "xmm2");
  k = epi_load(ep, nw);
  epi_row(ep, &k, 0, l0, h0, nw, c, rsc);
  epi_row(ep, &k, 1, l1, h1, nw, c, rsc);
  epi_row(ep, &k, 2, l2, h2, nw, c, rsc);
  epi_row(ep, &k, 3, l3, h3, nw, c, rsc);
  epi_row(ep, &k, 4, l4, h4, nw, c, rsc);
  epi_row(ep, &k, 5, l5, h5, nw, c, rsc);
  epi_row(ep, &k, 6, l6, h6, nw, c, rsc);
  epi_row(ep, &k, 7, l7, h7, nw, c, rsc);
}

#undef VD
#undef VI
#undef VDH
#undef VH
#undef KLOOP

/* The direct convolution's tile (qgemm.h's itile): 8 rows x 32 columns
 * as `tile`, the panel's 128 bytes for group of 4 k number q read at
 * x + koff[q] (the offset loaded in the loop: one more load per 16
 * vpdpbusd), the accumulators started at radd, the rows stored by
 * segments. Rows past `rows` are computed from the caller's padding and
 * not stored. */
#define VD(r, addr)                                                            \
  "vpbroadcastd " addr ", %%zmm2\n\t"                                          \
  "vpdpbusd %%zmm2, %%zmm0, %g[l" #r "]\n\t"                                   \
  "vpdpbusd %%zmm2, %%zmm1, %g[h" #r "]\n\t"
#define VI(r)                                                                  \
  "vpbroadcastd " #r "*4(%[ra]), %g[l" #r "]\n\t"                              \
  "vmovdqa64 %g[l" #r "], %g[h" #r "]\n\t"

ONNXC_ZMM static void itile(int rows, int64_t k4, const int8_t *a,
                            int64_t lda, const uint8_t *x,
                            const int64_t *koff, const qsegs *sg,
                            const qepi *ep, void *c, int64_t rsc) {
  __m512i l0, l1, l2, l3, l4, l5, l6, l7, h0, h1, h2, h3, h4, h5, h6, h7;
  int32_t ra[MR];
  const int8_t *a0 = a, *a4 = a + 4 * lda;
  const int64_t lda3 = 3 * lda;
  const int64_t *ko = koff;
  int64_t n = k4, t;
  epi_consts k;
  int r;
  for (r = 0; r < MR; ++r)
    ra[r] = ep->radd && r < rows ? ep->radd[r] : 0;
  __asm__ volatile(
      VI(0) VI(1) VI(2) VI(3) VI(4) VI(5) VI(6) VI(7)
      "test %[n], %[n]\n\t"
      "jle 2f\n\t"
      "1:\n\t"
      "mov (%[ko]), %[t]\n\t"
      "vmovdqu64 (%[x],%[t]), %%zmm0\n\t"
      "vmovdqu64 64(%[x],%[t]), %%zmm1\n\t"
      VD(0, "(%[a0])") VD(1, "(%[a0],%[lda])")
      VD(2, "(%[a0],%[lda],2)") VD(3, "(%[a0],%[lda3])")
      VD(4, "(%[a4])") VD(5, "(%[a4],%[lda])")
      VD(6, "(%[a4],%[lda],2)") VD(7, "(%[a4],%[lda3])")
      "add $4, %[a0]\n\t"
      "add $4, %[a4]\n\t"
      "add $8, %[ko]\n\t"
      "dec %[n]\n\t"
      "jnz 1b\n\t"
      "2:\n\t"
      : [a0] "+r"(a0), [a4] "+r"(a4), [ko] "+r"(ko), [n] "+r"(n),
        [t] "=&r"(t),
        [l0] "=&v"(l0), [h0] "=&v"(h0), [l1] "=&v"(l1), [h1] "=&v"(h1),
        [l2] "=&v"(l2), [h2] "=&v"(h2), [l3] "=&v"(l3), [h3] "=&v"(h3),
        [l4] "=&v"(l4), [h4] "=&v"(h4), [l5] "=&v"(l5), [h5] "=&v"(h5),
        [l6] "=&v"(l6), [h6] "=&v"(h6), [l7] "=&v"(l7), [h7] "=&v"(h7)
      : [lda] "r"(lda), [lda3] "r"(lda3), [ra] "r"(ra), [x] "r"(x)
      : "cc", "memory", "xmm0", "xmm1", "xmm2");
  /* The named registers, not an array (which the loop over rows would
   * spill and reload). */
  k = epi_load(ep, QNR);
  epi_seg(ep, &k, 0, l0, h0, sg, c, rsc);
  if (rows > 1)
    epi_seg(ep, &k, 1, l1, h1, sg, c, rsc);
  if (rows > 2)
    epi_seg(ep, &k, 2, l2, h2, sg, c, rsc);
  if (rows > 3)
    epi_seg(ep, &k, 3, l3, h3, sg, c, rsc);
  if (rows > 4)
    epi_seg(ep, &k, 4, l4, h4, sg, c, rsc);
  if (rows > 5)
    epi_seg(ep, &k, 5, l5, h5, sg, c, rsc);
  if (rows > 6)
    epi_seg(ep, &k, 6, l6, h6, sg, c, rsc);
  if (rows > 7)
    epi_seg(ep, &k, 7, l7, h7, sg, c, rsc);
}

#undef VD
#undef VI

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

/* Rows split into the phases of stride 2: 64 bytes a step, the even
 * ones by vpmovwb, the odd ones shifted down first; masked at the end. */
ONNXC_ZMM static void deint2(const uint8_t *src, int64_t sstride,
                             int64_t rows, int64_t n, uint8_t *even,
                             uint8_t *odd, int64_t dstride, uint8_t flip) {
  const __m512i f = _mm512_set1_epi8((char)flip);
  int64_t r, i;
  for (r = 0; r < rows; ++r)
    for (i = 0; i < n; i += 64) {
      int64_t left = n - i, ne = (left + 1) / 2, no = left / 2;
      __mmask64 m = left >= 64 ? ~(__mmask64)0 : (((__mmask64)1 << left) - 1);
      __m512i v = _mm512_xor_si512(
          _mm512_maskz_loadu_epi8(m, src + r * sstride + i), f);
      __m256i e = _mm512_cvtepi16_epi8(v);
      __m256i o = _mm512_cvtepi16_epi8(_mm512_srli_epi16(v, 8));
      _mm256_mask_storeu_epi8(
          even + r * dstride + i / 2,
          ne >= 32 ? ~(__mmask32)0 : (((__mmask32)1 << ne) - 1), e);
      _mm256_mask_storeu_epi8(
          odd + r * dstride + i / 2,
          no >= 32 ? ~(__mmask32)0 : (((__mmask32)1 << no) - 1), o);
    }
}

/* Depthwise outputs, 32 at a time: each group of 4 taps is one vpdpbusd
 * per 16 outputs, their 16 dwords picked from a 128-byte window by
 * vpermt2b (VBMI) along `idx` (the byte offsets of each output's 4
 * bytes). The index vectors and the epilogue's shared constants once per
 * call, a channel's constants once per channel. */
#define ONNXC_ZMM_VBMI                                                         \
  __attribute__((                                                              \
      target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,avx512vbmi")))

#define ONNXC_ZMM_VBMI_INLINE                                                  \
  __attribute__((always_inline, target("avx512f,avx512bw,avx512vl,avx512dq,"  \
                                       "avx512vnni,avx512vbmi"))) inline

/* What dw_row's loops share. */
typedef struct dw_ctx {
  const uint8_t *const *src;
  int64_t nch, chadv;
  const int32_t *wd, *ones;
  int nsrc;
  int64_t total, rowlen, rowadv, coladv;
  const uint8_t *idx;
  int sums;
  const qepi *ep;
  void *out;
  int64_t ochadv;
} dw_ctx;

/* dw_row for ns groups of taps (ns > 0: a constant, the tap loop
 * unrolled; 0: d->nsrc). */
ONNXC_ZMM_VBMI_INLINE static void dw_run(const dw_ctx *d, const int ns) {
  const qepi *ep = d->ep;
  const int nsrc = ns ? ns : d->nsrc;
  const uint8_t *const *src = d->src;
  const int32_t *ones = d->ones;
  const int sums = d->sums;
  const int64_t rowlen = d->rowlen, total = d->total;
  /* Byte t of dword lane l: idx[l] + t (idx[l] + 3 < 128: no carries). */
  const __m512i mul = _mm512_set1_epi32(0x01010101);
  const __m512i t4 = _mm512_set1_epi32(0x03020100);
  const __m512i i0 = _mm512_add_epi32(
      _mm512_mullo_epi32(
          _mm512_cvtepu8_epi32(_mm_loadu_si128((const __m128i *)d->idx)), mul),
      t4);
  const __m512i i1 = _mm512_add_epi32(
      _mm512_mullo_epi32(_mm512_cvtepu8_epi32(
                             _mm_loadu_si128((const __m128i *)(d->idx + 16))),
                         mul),
      t4);
  size_t esize = ep->out == ONNXC_Q_OUT_I32 || ep->out == ONNXC_Q_OUT_F32 ? 4 : 1;
  /* The epilogue of a channel (ch_row, no column terms but the window
   * sums), its constants broadcast once: store_tile's operations in its
   * order. Otherwise store_tile. */
  const int fast = ep->ch_row && !ep->cadd && !(ep->rmul2 && ep->cmul2);
  const __m512 vlo = _mm512_set1_ps(ep->lo), vhi = _mm512_set1_ps(ep->hi);
  const __m512i zp = _mm512_set1_epi32(ep->yzp);
  const int use_cmul = sums && ep->rmul;
  const int64_t nrows = (total + rowlen - 1) / rowlen;
  int64_t h, r, o;
  int i;
  for (h = 0; h < d->nch; ++h) {
    const __m512i radd = _mm512_set1_epi32(ep->radd ? ep->radd[h] : 0);
    const __m512i rmul = _mm512_set1_epi32(ep->rmul ? ep->rmul[h] : 0);
    const __m512 scale = _mm512_set1_ps(ep->scale ? ep->scale[h] : 0.0f);
    const __m512 bias = _mm512_set1_ps(ep->bias ? ep->bias[h] : 0.0f);
    const int32_t *w = d->wd + h * nsrc;
    const int64_t cat = h * d->chadv;
    for (r = 0; r < nrows; ++r) {
      const int64_t len = r + 1 < nrows ? rowlen : total - r * rowlen;
      const int64_t rat = cat + r * d->rowadv;
      for (o = 0; o < len; o += 32) {
        __m512i lo[1], hi[1];
        __m512i slo = _mm512_setzero_si512(), shi = slo;
        const int64_t at = rat + o / 32 * d->coladv;
        const int nw = (int)(len - o < 32 ? len - o : 32);
        const int64_t col = h * d->ochadv + r * rowlen + o;
        lo[0] = hi[0] = _mm512_setzero_si512();
        for (i = 0; i < nsrc; ++i) {
          __m512i v0 = _mm512_loadu_si512((const void *)(src[i] + at));
          __m512i v1 = _mm512_loadu_si512((const void *)(src[i] + at + 64));
          __m512i a = _mm512_permutex2var_epi8(v0, i0, v1);
          __m512i b = _mm512_permutex2var_epi8(v0, i1, v1);
          __m512i wv = _mm512_set1_epi32(w[i]);
          lo[0] = _mm512_dpbusd_epi32(lo[0], a, wv);
          hi[0] = _mm512_dpbusd_epi32(hi[0], b, wv);
          if (sums) {
            __m512i one = _mm512_set1_epi32(ones[i]);
            slo = _mm512_dpbusd_epi32(slo, a, one);
            shi = _mm512_dpbusd_epi32(shi, b, one);
          }
        }
        if (fast) {
          const __mmask16 m0 = col_mask(nw, 0), m1 = col_mask(nw, 1);
          __m512i x0 = _mm512_add_epi32(lo[0], radd);
          __m512i x1 = _mm512_add_epi32(hi[0], radd);
          __m512 f0, f1;
          if (use_cmul) {
            x0 = _mm512_add_epi32(x0, _mm512_mullo_epi32(rmul, slo));
            x1 = _mm512_add_epi32(x1, _mm512_mullo_epi32(rmul, shi));
          }
          if (ep->out == ONNXC_Q_OUT_I32) {
            int32_t *y = (int32_t *)d->out + col;
            _mm512_mask_storeu_epi32(y, m0, x0);
            _mm512_mask_storeu_epi32(y + 16, m1, x1);
            continue;
          }
          f0 = _mm512_mul_ps(_mm512_cvtepi32_ps(x0), scale);
          f1 = _mm512_mul_ps(_mm512_cvtepi32_ps(x1), scale);
          if (ep->out == ONNXC_Q_OUT_F32) {
            float *y = (float *)d->out + col;
            if (ep->bias) {
              f0 = _mm512_add_ps(f0, bias);
              f1 = _mm512_add_ps(f1, bias);
            }
            if (ep->clamp) {
              f0 = _mm512_min_ps(vhi, _mm512_max_ps(vlo, f0));
              f1 = _mm512_min_ps(vhi, _mm512_max_ps(vlo, f1));
            }
            _mm512_mask_storeu_ps(y, m0, f0);
            _mm512_mask_storeu_ps(y + 16, m1, f1);
          } else {
            uint8_t *y = (uint8_t *)d->out + col;
            __m512i q0 = _mm512_add_epi32(
                _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f0, vlo), vhi)),
                zp);
            __m512i q1 = _mm512_add_epi32(
                _mm512_cvtps_epi32(_mm512_min_ps(_mm512_max_ps(f1, vlo), vhi)),
                zp);
            store_bytes32(y, nw, q0, q1);
          }
        } else {
          int32_t colsum[32];
          qepi e = *ep;
          if (e.radd)
            e.radd += h;
          if (e.rmul)
            e.rmul += h;
          if (sums) {
            _mm512_storeu_si512((void *)colsum, slo);
            _mm512_storeu_si512((void *)(colsum + 16), shi);
            e.cmul = colsum;
          }
          if (e.ch_row) {
            if (e.scale)
              e.scale += h;
            if (e.bias)
              e.bias += h;
          } else {
            if (e.scale)
              e.scale += col;
            if (e.bias)
              e.bias += col;
          }
          store_tile(1, lo, hi, nw, &e,
                     (uint8_t *)d->out + col * (int64_t)esize, 0);
        }
      }
    }
  }
}

ONNXC_ZMM_VBMI static void dw_row(const uint8_t *const *src, int64_t nch,
                                  int64_t chadv, const int32_t *wd,
                                  const int32_t *ones, int nsrc, int64_t total,
                                  int64_t rowlen, int64_t rowadv,
                                  int64_t coladv, const uint8_t *idx, int sums,
                                  const qepi *ep, void *out, int64_t ochadv) {
  dw_ctx d;
  d.src = src;
  d.nch = nch;
  d.chadv = chadv;
  d.wd = wd;
  d.ones = ones;
  d.nsrc = nsrc;
  d.total = total;
  d.rowlen = rowlen;
  d.rowadv = rowadv;
  d.coladv = coladv;
  d.idx = idx;
  d.sums = sums;
  d.ep = ep;
  d.out = out;
  d.ochadv = ochadv;
  /* 3 x 3 and 5 x 5 kernels (flat rows: 3 and 10 groups) unrolled. */
  if (nsrc == 3)
    dw_run(&d, 3);
  else if (nsrc == 10)
    dw_run(&d, 10);
  else
    dw_run(&d, 0);
}

const qgemm_isa *onnxc_rt_qgemm_avx512vnni(int vbmi) {
  static const qgemm_isa isa = {"avx512vnni",
                                MR,
                                tile,
                                onnxc_rt_qinterleave_avx2,
                                onnxc_rt_qinterleave_panels_avx2,
                                1,
                                0,
                                minmax,
                                quantize,
                                deint2,
                                itile,
                                0,
                                0,
                                0,
                                0};
  static const qgemm_isa with_vbmi = {"avx512vnni",
                                      MR,
                                      tile,
                                      onnxc_rt_qinterleave_avx2,
                                      onnxc_rt_qinterleave_panels_avx2,
                                      1,
                                      dw_row,
                                      minmax,
                                      quantize,
                                      deint2,
                                      itile,
                                      0,
                                      0,
                                      0,
                                      0};
  return vbmi ? &with_vbmi : &isa;
}

/* ---- AMX ---------------------------------------------------------------- */

/* The AMX tiles (the tier "amx": this tier's kernels, AMX for the
 * products). A tile register holds 16 rows of 64 bytes; TDPBSUD sums, into
 * a 16 x 16 int32 tile, 4 products of a signed row byte group (A: 16 rows
 * x 4 chunk bytes of the weights) and an unsigned column one (B: chunk
 * rows of 64 bytes, 16 columns x 4 k: a panel's half, as packed). A block
 * is 32 rows x 32 columns: C tiles 0-3 (rows 0-15 / 16-31, columns 0-15 /
 * 16-31), A tiles 4-5, B tiles 6-7, so each loaded tile serves two
 * products. The sums go through memory (tilestored) to the VNNI tiles'
 * epilogue. */
#define ONNXC_AMX                                                              \
  __attribute__((target("avx512f,avx512bw,avx512vl,avx512dq,avx512vnni,"       \
                        "amx-tile,amx-int8")))

/* The instructions, as asm with their memory effects declared (GCC 12's
 * intrinsics say ldtilecfg reads 8 bytes of the configuration, so the
 * rest of its stores were dropped, and tileloadd none). */
#define AMX_LOAD(t, base, stride)                                              \
  __asm__ volatile("tileloadd (%0,%1,1), %%tmm" #t                              \
                   :                                                           \
                   : "r"((const void *)(base)), "r"((long)(stride))            \
                   : "memory")
#define AMX_STORE(t, base, stride)                                             \
  __asm__ volatile("tilestored %%tmm" #t ", (%0,%1,1)"                          \
                   :                                                           \
                   : "r"((void *)(base)), "r"((long)(stride))                  \
                   : "memory")
#define AMX_ZERO(t) __asm__ volatile("tilezero %%tmm" #t ::)
/* c += a (signed bytes) . b (unsigned bytes) */
#define AMX_DP(c, a, b)                                                        \
  __asm__ volatile("tdpbsud %%tmm" #b ", %%tmm" #a ", %%tmm" #c ::)

typedef struct amx_cfg {
  uint8_t palette, start_row;
  uint8_t reserved[14];
  uint16_t colsb[16];
  uint8_t rows[16];
} amx_cfg;

ONNXC_AMX static int amx_begin(int chunk) {
  amx_cfg cfg;
  int t;
  if (chunk < 1 || chunk > 16)
    return 0;
  memset(&cfg, 0, sizeof cfg);
  cfg.palette = 1;
  for (t = 0; t < 4; ++t) {
    cfg.rows[t] = 16;
    cfg.colsb[t] = 64;
  }
  for (t = 4; t < 6; ++t) {
    cfg.rows[t] = 16;
    cfg.colsb[t] = (uint16_t)(4 * chunk);
  }
  for (t = 6; t < 8; ++t) {
    cfg.rows[t] = (uint8_t)chunk;
    cfg.colsb[t] = 64;
  }
  __asm__ volatile("ldtilecfg %0" : : "m"(cfg) : "memory");
  return 1;
}

ONNXC_AMX static void amx_end(void) { __asm__ volatile("tilerelease" ::); }

/* acc[r * 32 + c] (r < 16 halves, c < 32) = the sums over `steps` steps:
 * step s's A columns at a + 4 chunk s (rows lda apart), its B rows at
 * b + off(s) (bstride apart; columns 16-31 64 bytes on), off(s) being
 * koff[s chunk] or, without koff, s chunk 128 (a packed panel). */
ONNXC_AMX static void amx_sums(int halves, int64_t steps, int chunk,
                               const int8_t *a, int64_t lda, const uint8_t *b,
                               const int64_t *koff, int64_t bstride,
                               int32_t *acc) {
  const int64_t astep = 4 * chunk;
  const int8_t *a1 = a + 16 * lda;
  int64_t s;
  AMX_ZERO(0);
  AMX_ZERO(1);
  AMX_ZERO(2);
  AMX_ZERO(3);
  /* (GCC unswitches the loop on halves.) */
  for (s = 0; s < steps; ++s) {
    const uint8_t *bs = b + (koff ? koff[s * chunk] : s * chunk * 128);
    AMX_LOAD(4, a + s * astep, lda);
    AMX_LOAD(6, bs, bstride);
    AMX_DP(0, 4, 6);
    AMX_LOAD(7, bs + 64, bstride);
    AMX_DP(1, 4, 7);
    if (halves == 2) {
      AMX_LOAD(5, a1 + s * astep, lda);
      AMX_DP(2, 5, 6);
      AMX_DP(3, 5, 7);
    }
  }
  if (halves == 2) {
    AMX_STORE(2, acc + 512, 128);
    AMX_STORE(3, acc + 528, 128);
  }
  AMX_STORE(0, acc, 128);
  AMX_STORE(1, acc + 16, 128);
}

/* The epilogue of rows [0, rows) of acc (32 columns a row), stored as the
 * VNNI tiles store theirs: by rows (sg NULL) or by segments. */
ONNXC_AMX static void amx_store(int rows, const int32_t *acc, int nw,
                                const qepi *ep, const qsegs *sg, void *c,
                                int64_t rsc) {
  const __mmask16 m0 = col_mask(nw, 0), m1 = col_mask(nw, 1);
  __m512i c0 = _mm512_setzero_si512(), c1 = c0;
  epi_consts k = epi_load(ep, nw);
  int r;
  if (ep->cadd) {
    c0 = _mm512_maskz_loadu_epi32(m0, ep->cadd);
    c1 = _mm512_maskz_loadu_epi32(m1, ep->cadd + 16);
  }
  for (r = 0; r < rows; ++r) {
    __m512i ra = _mm512_set1_epi32(ep->radd ? ep->radd[r] : 0);
    __m512i lo = _mm512_add_epi32(_mm512_load_si512(acc + 32 * r),
                                  _mm512_add_epi32(c0, ra));
    __m512i hi = _mm512_add_epi32(_mm512_load_si512(acc + 32 * r + 16),
                                  _mm512_add_epi32(c1, ra));
    if (sg)
      epi_seg(ep, &k, r, lo, hi, sg, c, rsc);
    else
      epi_row(ep, &k, r, lo, hi, nw, c, rsc);
  }
}

static int out_bytes(const qepi *ep) {
  return ep->out == ONNXC_Q_OUT_U8 || ep->out == ONNXC_Q_OUT_S8 ? 1 : 4;
}

/* The VNNI tile over up to 32 rows (the AMX tier's mr: its products
 * without AMX, too shallow for tiles). */
ONNXC_ZMM static void tile32(int rows, int64_t k4, const int8_t *a,
                             int64_t lda, const uint8_t *panel, int nw,
                             const qepi *ep, void *c, int64_t rsc) {
  int r;
  for (r = 0; r < rows; r += MR) {
    qepi e = *ep;
    onnxc_q_shift_rows(&e, r);
    tile(rows - r < MR ? rows - r : MR, k4, a + r * lda, lda, panel, nw, &e,
         (uint8_t *)c + r * rsc * out_bytes(ep), rsc);
  }
}

/* qgemm.h's amx_tile. */
ONNXC_AMX static void amx_tile(int rows, int chunk, int64_t k4,
                               const int8_t *a, int64_t lda,
                               const uint8_t *panel, int nw, const qepi *ep,
                               void *c, int64_t rsc) {
  int32_t acc[32 * 32] __attribute__((aligned(64)));
  int halves = rows >= 32 ? 2 : rows >= 16 ? 1 : 0, r;
  if (halves) {
    amx_sums(halves, k4 / chunk, chunk, a, lda, panel, NULL, 128, acc);
    amx_store(16 * halves, acc, nw, ep, NULL, c, rsc);
  }
  if (16 * halves < rows) {
    qepi e = *ep;
    r = 16 * halves;
    onnxc_q_shift_rows(&e, r);
    tile32(rows - r, k4, a + r * lda, lda, panel, nw, &e,
           (uint8_t *)c + r * rsc * out_bytes(ep), rsc);
  }
}

/* qgemm.h's amx_itile. */
ONNXC_AMX static void amx_itile(int rows, int chunk, int64_t k4,
                                const int8_t *a, int64_t lda,
                                const uint8_t *x, const int64_t *koff,
                                int64_t bstride, const qsegs *sg,
                                const qepi *ep, void *c, int64_t rsc) {
  int32_t acc[32 * 32] __attribute__((aligned(64)));
  amx_sums(rows / 16, k4 / chunk, chunk, a, lda, x, koff, bstride, acc);
  amx_store(rows, acc, QNR, ep, sg, c, rsc);
}

const qgemm_isa *onnxc_rt_qgemm_amx(int vbmi) {
  static const qgemm_isa isa = {
      "amx",     32,        tile32,  onnxc_rt_qinterleave_avx2,
      onnxc_rt_qinterleave_panels_avx2,
      1,         0,         minmax,  quantize,
      deint2,    itile,     amx_begin, amx_end,
      amx_tile,  amx_itile};
  static const qgemm_isa with_vbmi = {
      "amx",     32,        tile32,  onnxc_rt_qinterleave_avx2,
      onnxc_rt_qinterleave_panels_avx2,
      1,         dw_row,    minmax,  quantize,
      deint2,    itile,     amx_begin, amx_end,
      amx_tile,  amx_itile};
  return vbmi ? &with_vbmi : &isa;
}

#else

const qgemm_isa *onnxc_rt_qgemm_avx512vnni(int vbmi) {
  (void)vbmi;
  return 0;
}

const qgemm_isa *onnxc_rt_qgemm_amx(int vbmi) {
  (void)vbmi;
  return 0;
}

#endif
