/*===- qgemm.h - The int8 kernels: what the drivers and the ISA tiers share -===*
 *
 * Not part of any API (hidden symbols). qgemm.c and qconv.c hold the
 * drivers (onnxc_rt_qgemm, onnxc_rt_dynamic_quantize; onnxc_rt_qconv2d:
 * packing, zero-point compensation, splitting over threads), qgemm.c the
 * choice of a tier; qgemm_<tier>.c the tiers' tile kernels, one file per ISA:
 *   portable    plain C;
 *   avx2        AVX2, exact int16 products (vpmaddwd over even and odd
 *               bytes; vpmaddubsw would saturate u8 * s8 pair sums);
 *   avxvnni     AVX-VNNI (VEX vpdpbusd on ymm);
 *   avx512vnni  AVX-512 VNNI (vpdpbusd on zmm, the weights broadcast from
 *               memory).
 *
 * Every tier multiplies the same two packed operands (the tile of
 * rows x 32 columns below): the "rows" side holds int8 values, rows of
 * lda bytes in groups of 4 along k (the convolution's weights, or the
 * product's A made signed: a - 128); the "columns" side is a panel of
 * uint8 values, 4 consecutive k of one column in each 32-bit word, 32
 * columns per group of 4 k (the convolution's im2col input, or the
 * product's B made unsigned: b + 128): VNNI's vpdpbusd multiplies exactly
 * u8 by s8. The drivers fold the offsets (128, the zero points) into the
 * epilogue's int32 terms (radd, cadd, the cross products).
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_QGEMM_H
#define ONNXC_RUNTIME_KERNELS_QGEMM_H

#include "../internal.h"

#include <stdint.h>

#define QNR 32 /* columns of a panel (ONNXC_QGEMM_PANEL) */
#define QSEG 8 /* pieces of a panel read in place (output rows it spans) */

/* What a tile does with its int32 sums acc[r][c] (rows r < rows, columns
 * c < nw, pointers relative to the tile's first row and column):
 *   t = acc + radd[r] + cadd[c] + rmul[r] * cmul[c] + rmul2[r] * cmul2[c]
 * (int32, wrapping; a NULL array is 0, a pair with a NULL member is no
 * term), then by `out`:
 *   ONNXC_Q_OUT_I32: t;
 *   ONNXC_Q_OUT_F32: v = (float)t * scale[ch], + bias[ch] when bias is not
 *     NULL, then min(max(v, lo), hi) when `clamp`;
 *   ONNXC_Q_OUT_U8 / _S8: v = (float)t * scale[ch], clamped to [lo, hi]
 *     (the output range minus the zero point; NaN gives lo), rounded half
 *     to even, + yzp, stored as a byte;
 * ch being r when ch_row, else c. */
typedef struct qepi {
  int out, ch_row, clamp;
  int32_t yzp;
  const int32_t *radd, *cadd;
  const int32_t *rmul, *cmul, *rmul2, *cmul2;
  const float *scale, *bias;
  float lo, hi;
} qepi;

/* C[rows x nw] = the epilogue of A[rows x 4 k4] * panel, c pointing at the
 * tile's first element (int32, float or byte by ep->out), rows rsc elements
 * apart, columns contiguous. rows <= the tier's mr, 1 <= nw <= QNR. */
typedef void (*qtile_fn)(int rows, int64_t k4, const int8_t *a, int64_t lda,
                         const uint8_t *panel, int nw, const qepi *ep,
                         void *c, int64_t rsc);

/* Where a direct convolution tile (qconv_direct.c) stores a row of its
 * 32 columns: for each of the n segments, the columns whose bits are set
 * in mask[s] go to element at[s] + column of the row (at[s] may be
 * negative: the segment's first column is not column 0). A panel of
 * consecutive positions of the virtual grid, which has columns past the
 * output's on every row, holds runs of up to 32 / out_w + 1 output rows. */
#define QDSEG 33
typedef struct qsegs {
  int n;
  uint32_t mask[QDSEG];
  int64_t at[QDSEG];
} qsegs;

/* One ISA tier. */
typedef struct qgemm_isa {
  const char *name;
  int mr; /* rows per tile */
  qtile_fn tile;
  /* The panel of 32 columns from 4 rows of 32 bytes: dst[4c + t] =
   * rows[t][c] for c < split, hi[t][c] for c >= split (a row whose 32
   * bytes come from two places: hi[t] points `split` bytes before the
   * second). 32 bytes are read from rows[t] and, when split < 32, from
   * hi[t]: the caller makes sure they are readable. */
  void (*interleave)(const uint8_t *const rows[4], const uint8_t *const hi[4],
                     int split, uint8_t *dst);
  /* interleave for `panels` panels read in place: row t of panel i is
   * the concatenation of seg[i] pieces, piece s (columns start[i][s] and
   * on; start[i][0] = 0) 32 bytes at base[t] + off[i][s] (off already
   * minus start[i][s]), written to dst + i * stride. */
  void (*interleave_panels)(const uint8_t *const base[4], const int *seg,
                            const int64_t (*off)[QSEG], const int (*start)[QSEG],
                            int64_t panels, int64_t stride, uint8_t *dst);
  /* Depthwise convolution outputs of nch channels (NULL: none; the
   * drivers take the general path): out[h * ochadv + q] for h < nch,
   * q < total (elements of ep->out's size) is the epilogue (row h, column
   * q: ep's row arrays start at channel 0) of the sum over i < nsrc of 4
   * bytes times the 4 signed bytes of wd[h * nsrc + i] (4 taps of the
   * kernel, consecutive bytes of a row of the padded input; missing taps
   * have weight 0). With q = r * rowlen + o (o < rowlen), those 4 bytes
   * are at src[i] + h * chadv + r * rowadv + coladv (o / 32) + idx[o % 32]
   * .. + 3 (idx: 32 offsets < 125; consecutive outputs of one output row:
   * idx[o] = s o for a column stride s, coladv = 32 s; several short
   * output rows in one rowlen <= 32: jumps between them). With `sums`, the
   * epilogue's cmul is the same sums of those bytes times ones[i]'s (the
   * window's sum: zero points of uint8 weights). 128 bytes from each
   * window's start (src[i] + h * chadv + r * rowadv + coladv (o / 32))
   * must be readable. */
  /* 1: dw_row takes several short output rows in one rowlen (an idx
   * that jumps); 0: one output row per rowlen (idx[o] = s o, s <= 4). */
  int dw_short_rows;
  void (*dw_row)(const uint8_t *const *src, int64_t nch, int64_t chadv,
                 const int32_t *wd, const int32_t *ones, int nsrc,
                 int64_t total, int64_t rowlen, int64_t rowadv, int64_t coladv,
                 const uint8_t *idx, int sums, const qepi *ep, void *out,
                 int64_t ochadv);
  /* The smallest and largest of x[0..n) (n > 0). */
  void (*minmax)(const float *x, int64_t n, float *lo, float *hi);
  /* y = saturate(round_half_even(x / scale) + zp) over [0, 255]. */
  void (*quantize)(const float *x, int64_t n, uint8_t *y, float scale,
                   int32_t zp);
  /* For r < rows: even[r * dstride + i] = src[r * sstride + 2i] ^ flip
   * for 2i < n, odd[r * dstride + i] = src[r * sstride + 2i + 1] ^ flip
   * for 2i + 1 < n: rows split into the two phases of stride 2 (reads
   * src[r * sstride + 0 .. n) only; NULL: the drivers' loop). */
  void (*deint2)(const uint8_t *src, int64_t sstride, int64_t rows, int64_t n,
                 uint8_t *even, uint8_t *odd, int64_t dstride, uint8_t flip);
  /* The direct convolution's tile (NULL: the tier has none; qconv.c packs
   * panels instead): as `tile` with rows <= mr over 8 rows of `a` (rows
   * past `rows` are read, not stored: the caller pads them), but group of
   * 4 k number q of the panel is the 128 bytes at x + koff[q], and row r's
   * 32 results are stored by segments (qsegs) from c + r * rsc. ep's
   * column arrays must be NULL (no column terms). */
  void (*itile)(int rows, int64_t k4, const int8_t *a, int64_t lda,
                const uint8_t *x, const int64_t *koff, const qsegs *sg,
                const qepi *ep, void *c, int64_t rsc);
  /* AMX (NULL: the tier has none). amx_begin configures the calling
   * thread's tiles for steps of `chunk` groups of 4 k (the A tiles 16 rows
   * of 4 chunk bytes, the B tiles chunk rows of 64 bytes: 16 columns);
   * amx_end releases them. Between the two, on that thread:
   *   amx_tile: as `tile` with rows <= 32 (mr), chunk dividing k4: rows
   *     in whole 16s by tiles, the rest by the VNNI tile;
   *   amx_itile: as `itile` with rows 16 or 32, chunk dividing k4 and the
   *     groups of a step chunk consecutive quads of one tap: group
   *     s chunk + i at x + koff[s chunk] + i * bstride. */
  int (*amx_begin)(int chunk);
  void (*amx_end)(void);
  void (*amx_tile)(int rows, int chunk, int64_t k4, const int8_t *a,
                   int64_t lda, const uint8_t *panel, int nw, const qepi *ep,
                   void *c, int64_t rsc);
  void (*amx_itile)(int rows, int chunk, int64_t k4, const int8_t *a,
                    int64_t lda, const uint8_t *x, const int64_t *koff,
                    int64_t bstride, const qsegs *sg, const qepi *ep, void *c,
                    int64_t rsc);
} qgemm_isa;

/* The groups of 4 k per AMX step for k4 groups: the largest divisor of k4
 * up to 16 (a tile row's 64 bytes), 0 below 4 (products of fewer than 16
 * k are no faster than the VNNI tile's). */
static inline int onnxc_q_amx_chunk(int64_t k4) {
  int c;
  for (c = 16; c >= 4; --c)
    if (k4 % c == 0)
      return c;
  return 0;
}

/* An epilogue moved down by r rows (its row arrays; scale and bias when
 * per row). */
static inline void onnxc_q_shift_rows(qepi *ep, int64_t r) {
  if (ep->radd)
    ep->radd += r;
  if (ep->rmul)
    ep->rmul += r;
  if (ep->rmul2)
    ep->rmul2 += r;
  if (ep->ch_row) {
    if (ep->scale)
      ep->scale += r;
    if (ep->bias)
      ep->bias += r;
  }
}

/* The tiers (NULL where the tier is not built: not x86-64 GCC/Clang). */
ONNXC_HIDDEN const qgemm_isa *onnxc_rt_qgemm_portable(void);
ONNXC_HIDDEN const qgemm_isa *onnxc_rt_qgemm_avx2(void);
ONNXC_HIDDEN const qgemm_isa *onnxc_rt_qgemm_avxvnni(void);
ONNXC_HIDDEN const qgemm_isa *onnxc_rt_qgemm_avx512vnni(int vbmi);
/* The AVX-512 VNNI tier with AMX tiles for the products (mr 32). */
ONNXC_HIDDEN const qgemm_isa *onnxc_rt_qgemm_amx(int vbmi);

/* The tier the kernels use: the best the CPU has (cpuid, and the OS saving
 * the registers), or what ONNXC_ISA asks for (portable, avx2: AVX-VNNI when
 * present, else AVX2; avx512: AMX when present, else AVX-512 VNNI, else the
 * best below), never above what the CPU has; ONNXC_DISABLE_AVX512 rules
 * AVX-512 out, ONNXC_AMX=0 AMX. Cached after the first call. */
ONNXC_HIDDEN const qgemm_isa *onnxc_rt_qgemm_isa(void);

/* For tests: use the tier named `name` (portable, avx2, avxvnni,
 * avx512vnni, amx) from now on; 0 when this CPU or build lacks it (nothing
 * changes), 1 when set. NULL returns to the default choice. */
ONNXC_HIDDEN int onnxc_rt_qgemm_force_isa(const char *name);
/* For tests: onnxc_rt_qgemm_isa()'s name. */
ONNXC_HIDDEN const char *onnxc_rt_qgemm_isa_name(void);

/* Shared between tiers. The scalar epilogue of a tile of int32 sums
 * (acc[r * ldacc + c]; qgemm_portable.c); the portable interleave and
 * quantize loops; the AVX2 ones (qgemm_avx2.c: the AVX-VNNI and AVX-512
 * tiers use them too). */
ONNXC_HIDDEN void onnxc_rt_qepi_store(int rows, int nw, const int32_t *acc,
                                      int64_t ldacc, const qepi *ep, void *c,
                                      int64_t rsc);
ONNXC_HIDDEN void onnxc_rt_qinterleave_portable(const uint8_t *const rows[4],
                                                const uint8_t *const hi[4],
                                                int split, uint8_t *dst);
ONNXC_HIDDEN void onnxc_rt_qinterleave_panels_portable(
    const uint8_t *const base[4], const int *seg, const int64_t (*off)[QSEG],
    const int (*start)[QSEG], int64_t panels, int64_t stride, uint8_t *dst);
ONNXC_HIDDEN void onnxc_rt_qquantize_portable(const float *x, int64_t n,
                                              uint8_t *y, float scale,
                                              int32_t zp);
#if defined(__x86_64__) && defined(__GNUC__)
#define ONNXC_QGEMM_X86 1
ONNXC_HIDDEN void onnxc_rt_qinterleave_avx2(const uint8_t *const rows[4],
                                            const uint8_t *const hi[4],
                                            int split, uint8_t *dst);
ONNXC_HIDDEN void onnxc_rt_qinterleave_panels_avx2(
    const uint8_t *const base[4], const int *seg, const int64_t (*off)[QSEG],
    const int (*start)[QSEG], int64_t panels, int64_t stride, uint8_t *dst);
ONNXC_HIDDEN void onnxc_rt_qminmax_avx2(const float *x, int64_t n, float *lo,
                                        float *hi);
ONNXC_HIDDEN void onnxc_rt_qquantize_avx2(const float *x, int64_t n,
                                          uint8_t *y, float scale, int32_t zp);
ONNXC_HIDDEN void onnxc_rt_qdeint2_avx2(const uint8_t *src, int64_t sstride,
                                        int64_t rows, int64_t n, uint8_t *even,
                                        uint8_t *odd, int64_t dstride,
                                        uint8_t flip);
#endif

/* Round half to even of |v| < 2^22 (the caller clamps), in the default
 * rounding mode: adding 1.5 * 2^23 leaves no fraction bits, and IEEE
 * addition rounds to nearest even (without -ffast-math the compiler keeps
 * both operations). */
static inline float onnxc_q_round_even(float v) {
  return (v + 12582912.0f) - 12582912.0f;
}

#endif /* ONNXC_RUNTIME_KERNELS_QGEMM_H */
