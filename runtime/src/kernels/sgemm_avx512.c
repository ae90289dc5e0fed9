/*===- kernels/sgemm_avx512.c - Packed-GEMM and conv tiles, AVX-512 -----===*
 *
 * The AVX-512 tier's sgemm_tile and conv_tile (dispatch.h): 8 rows by one
 * 32-column panel, two zmm accumulators per row (16 in all), the rows of A
 * broadcast from memory, the panel read as two vectors per k. conv_tile is
 * the same with A[r, k] = xr[r][koff[k]] (the indirect GEMM of a
 * convolution, rows = output positions) and a transposed store (an
 * in-register 8 x 16 transpose) into Y's channels; conv_tile2 does 6
 * positions by two panels (24 accumulators), each input element read once
 * for 64 channels (5-8% on ResNet's 64- and 512-channel 3 x 3 layers on
 * an Intel Xeon with AVX-512, bench/conv_cblock.c), and conv_tile1 up to
 * 12 positions by one panel; both can start from partial sums in a
 * scratch, so that conv_igemm.c steps through K with the step's weights in
 * L1.
 * conv_tile2 always leaves its sums there, and conv_store2 stores a block
 * of them at once (16 x 16 transposes, 16 positions a channel). A fused
 * activation
 * (tile_ep.act) is applied to the accumulators before the store
 * (act_avx512.h), or, after a sum with Y done inside the transposed
 * store, to the stored columns. Compiled with
 * -mavx512f -mavx512bw -mavx512dq -mavx512vl; called only when dispatch.c
 * chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include "act_avx512.h"
#include "transpose_avx512.h"

#include <immintrin.h>

#define MR 8 /* rows of a tile */

/* The fused activation over a tile's accumulators (2 rows vectors; hi may
 * be NULL), out of line: inlined into each of the 32 tile variants, the
 * exp code of every kind grew this file by 60% and slowed the convolutions
 * that have no activation (instruction cache); the accumulators go
 * through memory once here, next to 20 instructions per vector. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((noinline))
#endif
static void tile_act(int rows, __m512 *lo, __m512 *hi, const act_ep *a) {
  act_tile16x2(rows, lo, hi, a);
}

/* Bias (when not accumulating) and clamp of a tile held as two vectors per
 * row, before it is stored. */
ONNXC_INLINE static void tile_ep_apply(int rows, __m512 *lo, __m512 *hi, i64 nw,
                                       int accumulate, const tile_ep *ep) {
  int r;
  if (!accumulate && ep->col_bias) {
    __mmask16 m0 = nw >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << nw) - 1u);
    __mmask16 m1 = nw >= 32   ? (__mmask16)0xffff
                   : nw <= 16 ? (__mmask16)0
                              : (__mmask16)((1u << (nw - 16)) - 1u);
    __m512 b0 = _mm512_maskz_loadu_ps(m0, ep->col_bias);
    __m512 b1 = _mm512_maskz_loadu_ps(m1, ep->col_bias + 16);
    for (r = 0; r < rows; ++r) {
      lo[r] = _mm512_add_ps(lo[r], b0);
      hi[r] = _mm512_add_ps(hi[r], b1);
    }
  }
  if (!accumulate && ep->row_bias)
    for (r = 0; r < rows; ++r) {
      __m512 b = _mm512_set1_ps(ep->row_bias[r]);
      lo[r] = _mm512_add_ps(lo[r], b);
      hi[r] = _mm512_add_ps(hi[r], b);
    }
}

ONNXC_INLINE static void tile_clamp(int rows, __m512 *lo, __m512 *hi,
                                    const tile_ep *ep) {
  __m512 vlo = _mm512_set1_ps(ep->lo), vhi = _mm512_set1_ps(ep->hi);
  int r;
  for (r = 0; r < rows; ++r) {
    /* (bound, value): a NaN value comes through, as from Relu / Clip. */
    lo[r] = _mm512_min_ps(vhi, _mm512_max_ps(vlo, lo[r]));
    hi[r] = _mm512_min_ps(vhi, _mm512_max_ps(vlo, hi[r]));
  }
}

/* Writes (or adds) the rows of a tile held as two vectors per row, with
 * the epilogue `ep` (may be NULL). */
ONNXC_INLINE static void store_tile(int rows, __m512 *lo, __m512 *hi, float *c,
                                    i64 rsc, i64 csc, i64 nw, int accumulate,
                                    const tile_ep *ep) {
  int r;
  if (ep)
    tile_ep_apply(rows, lo, hi, nw, accumulate, ep);
  if (csc == 1) {
    __mmask16 m0 = nw >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << nw) - 1u);
    __mmask16 m1 = nw >= 32   ? (__mmask16)0xffff
                   : nw <= 16 ? (__mmask16)0
                              : (__mmask16)((1u << (nw - 16)) - 1u);
    for (r = 0; r < rows; ++r) {
      float *row = c + r * rsc;
      if (nw == NR) {
        if (accumulate) {
          lo[r] = _mm512_add_ps(lo[r], _mm512_loadu_ps(row));
          hi[r] = _mm512_add_ps(hi[r], _mm512_loadu_ps(row + 16));
        }
      } else if (accumulate) {
        lo[r] = _mm512_add_ps(lo[r], _mm512_maskz_loadu_ps(m0, row));
        hi[r] = _mm512_add_ps(hi[r], _mm512_maskz_loadu_ps(m1, row + 16));
      }
    }
    if (ep && ep->clamp)
      tile_clamp(rows, lo, hi, ep);
    if (ep && ep->act)
      tile_act(rows, lo, hi, ep->act);
    for (r = 0; r < rows; ++r) {
      float *row = c + r * rsc;
      if (nw == NR) {
        _mm512_storeu_ps(row, lo[r]);
        _mm512_storeu_ps(row + 16, hi[r]);
      } else {
        _mm512_mask_storeu_ps(row, m0, lo[r]);
        _mm512_mask_storeu_ps(row + 16, m1, hi[r]);
      }
    }
    return;
  }
  for (r = 0; r < rows; ++r) {
    float tmp[NR];
    i64 col;
    _mm512_storeu_ps(tmp, lo[r]);
    _mm512_storeu_ps(tmp + 16, hi[r]);
    for (col = 0; col < nw; ++col) {
      float *dst = c + r * rsc + col * csc;
      float v = accumulate ? *dst + tmp[col] : tmp[col];
      if (ep && ep->clamp)
        v = v < ep->lo ? ep->lo : v > ep->hi ? ep->hi : v;
      if (ep && ep->act)
        v = act_scalar(v, ep->act);
      *dst = v;
    }
  }
}

/* kernel_R: C[R x nw] (+)= A[R x kc] * panel; 2R accumulators in zmm
 * registers, A broadcast from memory, the panel's row k read as two vectors
 * at bp + k ldb (ldb = NR for a packed panel; a B read in place has its own
 * row stride, and 32 readable floats per row). */
#define ONNXC_DEFINE_KERNEL(R)                                                 \
  static void kernel_##R(i64 kc, const float *a, i64 rsa, i64 csa,             \
                         const float *bp, i64 ldb, float *c, i64 rsc, i64 csc, \
                         i64 nw, int accumulate, const tile_ep *ep) {          \
    __m512 lo[R], hi[R];                                                       \
    int r;                                                                     \
    i64 p;                                                                     \
    _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                          \
      lo[r] = _mm512_setzero_ps();                                             \
      hi[r] = _mm512_setzero_ps();                                             \
    }                                                                          \
    for (p = 0; p < kc; ++p) {                                                 \
      __m512 b0 = _mm512_loadu_ps(bp), b1 = _mm512_loadu_ps(bp + 16);          \
      _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                        \
        __m512 av = _mm512_set1_ps(a[r * rsa]);                                \
        lo[r] = _mm512_fmadd_ps(av, b0, lo[r]);                                \
        hi[r] = _mm512_fmadd_ps(av, b1, hi[r]);                                \
      }                                                                        \
      a += csa;                                                                \
      bp += ldb;                                                               \
    }                                                                          \
    store_tile(R, lo, hi, c, rsc, csc, nw, accumulate, ep);                    \
  }

ONNXC_DEFINE_KERNEL(1)
ONNXC_DEFINE_KERNEL(2)
ONNXC_DEFINE_KERNEL(3)
ONNXC_DEFINE_KERNEL(4)
ONNXC_DEFINE_KERNEL(5)
ONNXC_DEFINE_KERNEL(6)
ONNXC_DEFINE_KERNEL(7)
ONNXC_DEFINE_KERNEL(8)

typedef void (*kernel_fn)(i64, const float *, i64, i64, const float *, i64,
                          float *, i64, i64, i64, int, const tile_ep *);
static const kernel_fn kernels[MR + 1] = {0,        kernel_1, kernel_2,
                                          kernel_3, kernel_4, kernel_5,
                                          kernel_6, kernel_7, kernel_8};

/* Adds (or writes) a tile of up to 8 rows x 16 channels (row r =
 * position r, column = channel; rows past `rows` are ignored) into Y at
 * c[channel * csc + r]: an in-register transpose, then one vector of
 * `rows` floats per channel (masked when rows < 8), the sum with Y clamped
 * when `clamp` (the last K block of a fused Relu / Clip). Only the first
 * `nch` channels are written. */
static void transpose_add_8x16(const __m512 *v, float *c, i64 csc, i64 nch,
                               int rows, int accumulate, const tile_ep *clamp) {
  __m512 t[8], u[8];
  const __mmask16 rmask = (__mmask16)((1u << rows) - 1u);
  const __m512 vlo = _mm512_set1_ps(clamp ? clamp->lo : 0.0f);
  const __m512 vhi = _mm512_set1_ps(clamp ? clamp->hi : 0.0f);
  int i;
  for (i = 0; i < 4; ++i) {
    t[2 * i] = _mm512_unpacklo_ps(v[2 * i], v[2 * i + 1]);
    t[2 * i + 1] = _mm512_unpackhi_ps(v[2 * i], v[2 * i + 1]);
  }
  /* u[i] (u[4 + i]): lane l holds channel 4l + i of rows 0-3 (rows 4-7). */
  for (i = 0; i < 2; ++i) {
    u[4 * i + 0] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0x44);
    u[4 * i + 1] = _mm512_shuffle_ps(t[4 * i], t[4 * i + 2], 0xEE);
    u[4 * i + 2] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0x44);
    u[4 * i + 3] = _mm512_shuffle_ps(t[4 * i + 1], t[4 * i + 3], 0xEE);
  }
  for (i = 0; i < 4; ++i) {
    /* [ch i | ch 4 + i] and [ch 8 + i | ch 12 + i], 8 rows each. */
    __m512 w01 = _mm512_shuffle_f32x4(u[i], u[4 + i], 0x44);
    __m512 w23 = _mm512_shuffle_f32x4(u[i], u[4 + i], 0xEE);
    __m512 halves[2];
    int h, k;
    halves[0] = _mm512_shuffle_f32x4(w01, w01, 0xD8);
    halves[1] = _mm512_shuffle_f32x4(w23, w23, 0xD8);
    for (h = 0; h < 2; ++h) {
      if (rows == MR) {
        /* Channels 8h + i and 8h + 4 + i: the two halves of halves[h]. */
        __m256 part[2];
        part[0] = _mm512_castps512_ps256(halves[h]);
        part[1] = _mm256_castpd_ps(
            _mm512_extractf64x4_pd(_mm512_castps_pd(halves[h]), 1));
        for (k = 0; k < 2; ++k) {
          i64 ch = 8 * h + 4 * k + i;
          float *p = c + ch * csc;
          __m256 r = part[k];
          if (ch >= nch)
            continue;
          if (accumulate)
            r = _mm256_add_ps(_mm256_loadu_ps(p), r);
          if (clamp)
            r = _mm256_min_ps(_mm512_castps512_ps256(vhi),
                              _mm256_max_ps(_mm512_castps512_ps256(vlo), r));
          _mm256_storeu_ps(p, r);
        }
        continue;
      }
      for (k = 0; k < 2; ++k) {
        /* Fewer rows: channel 8h + 4k + i from lanes 8k .. 8k + 7 of
         * halves[h], moved to lanes 0-7, masked. */
        i64 ch = 8 * h + 4 * k + i;
        __m512 r =
            k ? _mm512_shuffle_f32x4(halves[h], halves[h], 0xEE) : halves[h];
        float *p = c + ch * csc;
        if (ch >= nch)
          continue;
        if (accumulate)
          r = _mm512_add_ps(r, _mm512_maskz_loadu_ps(rmask, p));
        if (clamp)
          r = _mm512_min_ps(vhi, _mm512_max_ps(vlo, r));
        _mm512_mask_storeu_ps(p, rmask, r);
      }
    }
  }
}

/* The activation `a` over columns ch < nw of `rows` (<= 16) floats at
 * c[ch * csc], in place (a transposed store that summed with Y). */
static void act_columns(float *c, i64 csc, i64 nw, int rows,
                        const act_ep *a) {
  const __mmask16 m = (__mmask16)((1u << rows) - 1u);
  i64 ch;
  for (ch = 0; ch < nw; ++ch) {
    __m512 v = _mm512_maskz_loadu_ps(m, c + ch * csc);
    tile_act(1, &v, NULL, a);
    _mm512_mask_storeu_ps(c + ch * csc, m, v);
  }
}

/* Adds (or writes) a tile of `rows` positions x `nw` channels into Y at
 * c[ch * csc + r], with the epilogue `ep` (per-channel bias as col_bias,
 * applied before the transpose; the clamp after the sum with Y, in it). */
ONNXC_INLINE static void store_tile_t(int rows, __m512 *lo, __m512 *hi,
                                      float *c, i64 csc, i64 nw, int accumulate,
                                      const tile_ep *ep) {
  __m512 vl[MR], vh[MR];
  const tile_ep *clamp = ep && ep->clamp ? ep : NULL;
  int r;
  if (ep)
    tile_ep_apply(rows, lo, hi, nw, accumulate, ep);
  /* Overwriting: clamp (and activate) before the transpose (whole
   * vectors, half the instructions); accumulating, after the sum with Y,
   * in it (the activation over the stored columns then). */
  if (clamp && !accumulate) {
    tile_clamp(rows, lo, hi, ep);
    clamp = NULL;
  }
  if (ep && ep->act && !accumulate)
    tile_act(rows, lo, hi, ep->act);
  for (r = 0; r < MR; ++r) {
    vl[r] = r < rows ? lo[r] : _mm512_setzero_ps();
    vh[r] = r < rows ? hi[r] : _mm512_setzero_ps();
  }
  transpose_add_8x16(vl, c, csc, nw < 16 ? nw : 16, rows, accumulate, clamp);
  if (nw > 16)
    transpose_add_8x16(vh, c + 16 * csc, csc, nw - 16, rows, accumulate, clamp);
  if (ep && ep->act && accumulate)
    act_columns(c, csc, nw, rows, ep->act);
}


/* ikernel2_R: ikernel_R over two panels, 64 channels (four accumulators
 * per position, 4 R of 32 registers): the R broadcasts of a k serve 4 R
 * FMAs instead of 2 R. The sums end in s (row r at s + 64 r), with
 * ONNXC_TILE2_FROM_S they start from there: a K block split into steps
 * whose weights stay in L1, each element's FMA chain the same as in one
 * step. conv_store2 stores a block of them. */
#define MR2 6
#define ONNXC_DEFINE_IKERNEL2(R)                                               \
  static void ikernel2_##R(i64 kc, const float *const *xr, const i64 *koff,    \
                           const float *bp, i64 pstride, float *s,             \
                           int sflags) {                                       \
    __m512 a0[R], a1[R], a2[R], a3[R];                                         \
    const float *src[R];                                                       \
    const float *bq = bp + pstride;                                            \
    int r;                                                                     \
    i64 p;                                                                     \
    _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                          \
      src[r] = xr[r];                                                          \
      if (sflags & ONNXC_TILE2_FROM_S) {                                       \
        a0[r] = _mm512_load_ps(s + 64 * r);                                    \
        a1[r] = _mm512_load_ps(s + 64 * r + 16);                               \
        a2[r] = _mm512_load_ps(s + 64 * r + 32);                               \
        a3[r] = _mm512_load_ps(s + 64 * r + 48);                               \
      } else {                                                                 \
        a0[r] = _mm512_setzero_ps();                                           \
        a1[r] = _mm512_setzero_ps();                                           \
        a2[r] = _mm512_setzero_ps();                                           \
        a3[r] = _mm512_setzero_ps();                                           \
      }                                                                        \
    }                                                                          \
    for (p = 0; p < kc; ++p) {                                                 \
      i64 off = koff[p];                                                       \
      __m512 b0 = _mm512_loadu_ps(bp), b1 = _mm512_loadu_ps(bp + 16);          \
      __m512 b2 = _mm512_loadu_ps(bq), b3 = _mm512_loadu_ps(bq + 16);          \
      _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                        \
        __m512 av = _mm512_set1_ps(src[r][off]);                               \
        a0[r] = _mm512_fmadd_ps(av, b0, a0[r]);                                \
        a1[r] = _mm512_fmadd_ps(av, b1, a1[r]);                                \
        a2[r] = _mm512_fmadd_ps(av, b2, a2[r]);                                \
        a3[r] = _mm512_fmadd_ps(av, b3, a3[r]);                                \
      }                                                                        \
      bp += NR;                                                                \
      bq += NR;                                                                \
    }                                                                          \
    _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                          \
      _mm512_store_ps(s + 64 * r, a0[r]);                                      \
      _mm512_store_ps(s + 64 * r + 16, a1[r]);                                 \
      _mm512_store_ps(s + 64 * r + 32, a2[r]);                                 \
      _mm512_store_ps(s + 64 * r + 48, a3[r]);                                 \
    }                                                                          \
  }

ONNXC_DEFINE_IKERNEL2(1)
ONNXC_DEFINE_IKERNEL2(2)
ONNXC_DEFINE_IKERNEL2(3)
ONNXC_DEFINE_IKERNEL2(4)
ONNXC_DEFINE_IKERNEL2(5)
ONNXC_DEFINE_IKERNEL2(6)

typedef void (*ikernel2_fn)(i64, const float *const *, const i64 *,
                            const float *, i64, float *, int);
static const ikernel2_fn ikernels2[MR2 + 1] = {
    0, ikernel2_1, ikernel2_2, ikernel2_3, ikernel2_4, ikernel2_5, ikernel2_6};

static void conv_tile2_avx512(int rows, i64 kc, const float *const *xr,
                              const i64 *koff, const float *panel, i64 pstride,
                              float *s, int sflags) {
  ikernels2[rows](kc, xr, koff, panel, pstride, s, sflags);
}

/* The activation over 16 vectors through a copy (tile_act is out of
 * line: taking v's address would keep v in memory on every path). */
ONNXC_INLINE static void act_block16(__m512 *v, const act_ep *a) {
  __m512 w[16];
  int i;
  for (i = 0; i < 16; ++i)
    w[i] = v[i];
  tile_act(16, w, NULL, a);
  for (i = 0; i < 16; ++i)
    v[i] = w[i];
}

/* conv_store2 (dispatch.h): a block's sums in 16 x 16 transposes, 16
 * positions of a channel per store. The epilogue's order is
 * store_tile_t's: overwriting, bias, clamp and activation before the
 * transpose; accumulating, the sum with Y, then the clamp and the
 * activation (act_columns' order), so each element gets the same bits. */
static void conv_store2_avx512(const float *s, i64 rows, float *c, i64 csc,
                               i64 nw1, int accumulate, const tile_ep *ep0,
                               const tile_ep *ep1) {
  int p;
  for (p = 0; p < 2; ++p) {
    const tile_ep *ep = p ? ep1 : ep0;
    i64 nw = p ? nw1 : NR, cb, r0;
    int bias = ep && !accumulate && ep->col_bias;
    int clamp = ep && ep->clamp;
    const act_ep *act = ep ? ep->act : NULL;
    const __m512 vlo = _mm512_set1_ps(clamp ? ep->lo : 0.0f);
    const __m512 vhi = _mm512_set1_ps(clamp ? ep->hi : 0.0f);
    for (cb = 0; cb < nw; cb += 16) {
      i64 nch = min64(16, nw - cb);
      __mmask16 cmask =
          nch >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << nch) - 1u);
      __m512 b = bias ? _mm512_maskz_loadu_ps(cmask, ep->col_bias + cb)
                      : _mm512_setzero_ps();
      for (r0 = 0; r0 < rows; r0 += 16) {
        i64 n = min64(16, rows - r0);
        __mmask16 rmask =
            n >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << n) - 1u);
        const float *src = s + 2 * NR * r0 + NR * p + cb;
        float *dst = c + (NR * p + cb) * csc + r0;
        __m512 v[16];
        int i;
        /* Rows past n masked off (zeros; the loads do not fault). */
        for (i = 0; i < 16; ++i)
          v[i] = _mm512_maskz_load_ps(i < n ? (__mmask16)0xffff : 0,
                                      src + 2 * NR * i);
        if (!accumulate) {
          for (i = 0; i < 16; ++i) {
            if (bias)
              v[i] = _mm512_add_ps(v[i], b);
            if (clamp)
              v[i] = _mm512_min_ps(vhi, _mm512_max_ps(vlo, v[i]));
          }
          if (act)
            act_block16(v, act);
        }
        transpose16(v);
        if (accumulate) {
          for (i = 0; i < 16; ++i) {
            if (i < nch) {
              v[i] = _mm512_add_ps(
                  v[i], _mm512_maskz_loadu_ps(rmask, dst + i * csc));
              if (clamp)
                v[i] = _mm512_min_ps(vhi, _mm512_max_ps(vlo, v[i]));
            }
          }
          if (act)
            act_block16(v, act);
        }
        for (i = 0; i < 16; ++i)
          if (i < nch)
            _mm512_mask_storeu_ps(dst + i * csc, rmask, v[i]);
      }
    }
  }
}

/* ikernel1_R: the convolution as an indirect GEMM. R (up to 12) output
 * positions (rows) by one panel of 32 output channels (packed weights):
 * 2 R accumulators, the panel's 2 loads of a k serving 2 R FMAs; A[r, k]
 * is the input element x_r[koff[k]], where x_r points at position r's
 * window and koff[k] is the offset of (input channel, kh, kw) = k. No
 * im2col copy. With conv_tile2's partial sums (row r at s + 32 r; s
 * unused when sflags is 0, as conv_tile calls it); stored as transposed
 * tiles of at most 8. */
#define MR1 12
#define ONNXC_DEFINE_IKERNEL1(R)                                               \
  static void ikernel1_##R(i64 kc, const float *const *xr, const i64 *koff,    \
                           const float *bp, float *c, i64 csc, i64 nw,         \
                           int accumulate, const tile_ep *ep, float *s,        \
                           int sflags) {                                       \
    __m512 lo[R], hi[R];                                                       \
    const float *src[R];                                                       \
    int r;                                                                     \
    i64 p;                                                                     \
    _Pragma("GCC unroll 12") for (r = 0; r < R; ++r) {                         \
      src[r] = xr[r];                                                          \
      if (sflags & ONNXC_TILE2_FROM_S) {                                       \
        lo[r] = _mm512_load_ps(s + 32 * r);                                    \
        hi[r] = _mm512_load_ps(s + 32 * r + 16);                               \
      } else {                                                                 \
        lo[r] = _mm512_setzero_ps();                                           \
        hi[r] = _mm512_setzero_ps();                                           \
      }                                                                        \
    }                                                                          \
    for (p = 0; p < kc; ++p) {                                                 \
      i64 off = koff[p];                                                       \
      __m512 b0 = _mm512_loadu_ps(bp), b1 = _mm512_loadu_ps(bp + 16);          \
      _Pragma("GCC unroll 12") for (r = 0; r < R; ++r) {                       \
        __m512 av = _mm512_set1_ps(src[r][off]);                               \
        lo[r] = _mm512_fmadd_ps(av, b0, lo[r]);                                \
        hi[r] = _mm512_fmadd_ps(av, b1, hi[r]);                                \
      }                                                                        \
      bp += NR;                                                                \
    }                                                                          \
    if (sflags & ONNXC_TILE2_TO_S) {                                           \
      _Pragma("GCC unroll 12") for (r = 0; r < R; ++r) {                       \
        _mm512_store_ps(s + 32 * r, lo[r]);                                    \
        _mm512_store_ps(s + 32 * r + 16, hi[r]);                               \
      }                                                                        \
      return;                                                                  \
    }                                                                          \
    store_tile_t(R < MR ? R : MR, lo, hi, c, csc, nw, accumulate, ep);         \
    if (R > MR)                                                                \
      store_tile_t(R - MR, lo + MR, hi + MR, c + MR, csc, nw, accumulate, ep); \
  }

ONNXC_DEFINE_IKERNEL1(1)
ONNXC_DEFINE_IKERNEL1(2)
ONNXC_DEFINE_IKERNEL1(3)
ONNXC_DEFINE_IKERNEL1(4)
ONNXC_DEFINE_IKERNEL1(5)
ONNXC_DEFINE_IKERNEL1(6)
ONNXC_DEFINE_IKERNEL1(7)
ONNXC_DEFINE_IKERNEL1(8)
ONNXC_DEFINE_IKERNEL1(9)
ONNXC_DEFINE_IKERNEL1(10)
ONNXC_DEFINE_IKERNEL1(11)
ONNXC_DEFINE_IKERNEL1(12)

typedef void (*ikernel1_fn)(i64, const float *const *, const i64 *,
                            const float *, float *, i64, i64, int,
                            const tile_ep *, float *, int);
static const ikernel1_fn ikernels1[MR1 + 1] = {
    0,         ikernel1_1, ikernel1_2, ikernel1_3,  ikernel1_4,
    ikernel1_5, ikernel1_6, ikernel1_7, ikernel1_8, ikernel1_9,
    ikernel1_10, ikernel1_11, ikernel1_12};

static void conv_tile1_avx512(int rows, i64 kc, const float *const *xr,
                              const i64 *koff, const float *panel, float *c,
                              i64 csc, i64 nw, int accumulate,
                              const tile_ep *ep, float *s, int sflags) {
  ikernels1[rows](kc, xr, koff, panel, c, csc, nw, accumulate, ep, s, sflags);
}

/* Adds (or writes) a tile of `rows` (<= 16) positions x `nw` (<= 16)
 * channels held as one vector per position into Y at c[ch * csc + r], with
 * the epilogue `ep`: two 8-position transposes. */
ONNXC_INLINE static void store_tile16_t(int rows, __m512 *v, float *c, i64 csc,
                                        i64 nw, int accumulate,
                                        const tile_ep *ep) {
  const tile_ep *clamp = ep && ep->clamp ? ep : NULL;
  __m512 g[8];
  int r, h;
  if (ep && !accumulate && ep->col_bias) {
    __mmask16 m = nw >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << nw) - 1u);
    __m512 b = _mm512_maskz_loadu_ps(m, ep->col_bias);
    for (r = 0; r < rows; ++r)
      v[r] = _mm512_add_ps(v[r], b);
  }
  /* Overwriting: clamp before the transposes; accumulating, after the sum
   * with Y, in them. */
  if (clamp && !accumulate) {
    __m512 vlo = _mm512_set1_ps(ep->lo), vhi = _mm512_set1_ps(ep->hi);
    for (r = 0; r < rows; ++r)
      v[r] = _mm512_min_ps(vhi, _mm512_max_ps(vlo, v[r]));
    clamp = NULL;
  }
  if (ep && ep->act && !accumulate)
    tile_act(rows, v, NULL, ep->act);
  for (h = 0; h * 8 < rows; ++h) {
    int n = rows - h * 8 < 8 ? rows - h * 8 : 8;
    for (r = 0; r < 8; ++r)
      g[r] = r < n ? v[h * 8 + r] : _mm512_setzero_ps();
    transpose_add_8x16(g, c + h * 8, csc, nw, n, accumulate, clamp);
  }
  if (ep && ep->act && accumulate)
    act_columns(c, csc, nw, rows, ep->act);
}

/* ikernel16_R: R output positions whose windows start at x0 + r (r < R)
 * by one panel of at most 16 channels (the first half of a 32-wide packed
 * panel): one accumulator per position, the R broadcasts read at
 * immediate offsets from one address per k. */
#define ONNXC_DEFINE_IKERNEL16_STEP(R, S, NAME)                                \
  static void NAME(i64 kc, const float *x0, const i64 *koff, const float *bp,  \
                   float *c, i64 csc, i64 nw, int accumulate,                  \
                   const tile_ep *ep) {                                        \
    __m512 acc[16];                                                            \
    int r;                                                                     \
    i64 p;                                                                     \
    _Pragma("GCC unroll 16") for (r = 0; r < R; ++r) acc[r] =                  \
        _mm512_setzero_ps();                                                   \
    for (p = 0; p < kc; ++p) {                                                 \
      const float *xp = x0 + koff[p];                                          \
      __m512 b0 = _mm512_loadu_ps(bp);                                         \
      _Pragma("GCC unroll 16") for (r = 0; r < R; ++r) acc[r] =                \
          _mm512_fmadd_ps(_mm512_set1_ps(xp[r * (S)]), b0, acc[r]);            \
      bp += NR;                                                                \
    }                                                                          \
    store_tile16_t(R, acc, c, csc, nw, accumulate, ep);                        \
  }
/* ikernel16c_R: the same over a copy in channel blocks, position r's
 * window at x0 + 16 r. */
#define ONNXC_DEFINE_IKERNEL16(R)                                              \
  ONNXC_DEFINE_IKERNEL16_STEP(R, 1, ikernel16_##R)                             \
  ONNXC_DEFINE_IKERNEL16_STEP(R, ONNXC_CONV_CBLOCK, ikernel16c_##R)

ONNXC_DEFINE_IKERNEL16(1)
ONNXC_DEFINE_IKERNEL16(2)
ONNXC_DEFINE_IKERNEL16(3)
ONNXC_DEFINE_IKERNEL16(4)
ONNXC_DEFINE_IKERNEL16(5)
ONNXC_DEFINE_IKERNEL16(6)
ONNXC_DEFINE_IKERNEL16(7)
ONNXC_DEFINE_IKERNEL16(8)
ONNXC_DEFINE_IKERNEL16(9)
ONNXC_DEFINE_IKERNEL16(10)
ONNXC_DEFINE_IKERNEL16(11)
ONNXC_DEFINE_IKERNEL16(12)
ONNXC_DEFINE_IKERNEL16(13)
ONNXC_DEFINE_IKERNEL16(14)
ONNXC_DEFINE_IKERNEL16(15)
ONNXC_DEFINE_IKERNEL16(16)

typedef void (*ikernel16_fn)(i64, const float *, const i64 *, const float *,
                             float *, i64, i64, int, const tile_ep *);
static const ikernel16_fn ikernels16[17] = {
    0,           ikernel16_1,  ikernel16_2,  ikernel16_3,  ikernel16_4,
    ikernel16_5, ikernel16_6,  ikernel16_7,  ikernel16_8,  ikernel16_9,
    ikernel16_10, ikernel16_11, ikernel16_12, ikernel16_13, ikernel16_14,
    ikernel16_15, ikernel16_16};

/* rkernel_R: R output channels (rows) by up to 32 consecutive positions of
 * one stride-1 output row (two vectors of lanes): the channel's weight
 * broadcast from the panel (R floats at immediate offsets per k), the
 * input row segment x0 + koff[p] read as two vectors. A last segment
 * shorter than 32 reads masked (no lane past nw is touched). No software
 * prefetch of the next segment: the two prefetcht1 per k took load slots
 * from the broadcasts (48 -> 16 channels at 256 x 256, bench/conv_cblock.c:
 * 7.7-8.0 ms with them, 7.2-7.5 without; U-Net 3-5% faster). */
#define ONNXC_DEFINE_RKERNEL(R)                                                \
  static void rkernel_##R(i64 kc, const float *x0, const i64 *koff,            \
                          const float *bp, float *c, i64 csc, i64 nw,          \
                          int accumulate, const tile_ep *ep) {                 \
    /* The sums in a0 / a1, whose address never escapes: with the store's    \
     * arrays (passed on to tile_act) in the loop, GCC kept them in memory,   \
     * 2 R stores per k (half speed on partial rows). */                      \
    __m512 a0[R], a1[R], lo[R], hi[R];                                         \
    int r;                                                                     \
    i64 p;                                                                     \
    const __mmask16 m0 =                                                       \
        nw >= 16 ? (__mmask16)0xffff : (__mmask16)((1u << nw) - 1u);           \
    const __mmask16 m1 = nw >= 32   ? (__mmask16)0xffff                        \
                         : nw <= 16 ? (__mmask16)0                             \
                                    : (__mmask16)((1u << (nw - 16)) - 1u);     \
    _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                          \
      a0[r] = _mm512_setzero_ps();                                             \
      a1[r] = _mm512_setzero_ps();                                             \
    }                                                                          \
    if (nw == NR) {                                                            \
      for (p = 0; p < kc; ++p) {                                               \
        const float *xp = x0 + koff[p];                                        \
        __m512 b0 = _mm512_loadu_ps(xp), b1 = _mm512_loadu_ps(xp + 16);        \
        _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                      \
          __m512 av = _mm512_set1_ps(bp[r]);                                   \
          a0[r] = _mm512_fmadd_ps(av, b0, a0[r]);                              \
          a1[r] = _mm512_fmadd_ps(av, b1, a1[r]);                              \
        }                                                                      \
        bp += NR;                                                              \
      }                                                                        \
    } else {                                                                   \
      for (p = 0; p < kc; ++p) {                                               \
        const float *xp = x0 + koff[p];                                        \
        __m512 b0 = _mm512_maskz_loadu_ps(m0, xp);                             \
        __m512 b1 = _mm512_maskz_loadu_ps(m1, xp + 16);                        \
        _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                      \
          __m512 av = _mm512_set1_ps(bp[r]);                                   \
          a0[r] = _mm512_fmadd_ps(av, b0, a0[r]);                              \
          a1[r] = _mm512_fmadd_ps(av, b1, a1[r]);                              \
        }                                                                      \
        bp += NR;                                                              \
      }                                                                        \
    }                                                                          \
    _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                          \
      lo[r] = a0[r];                                                           \
      hi[r] = a1[r];                                                           \
    }                                                                          \
    store_tile(R, lo, hi, c, csc, 1, nw, accumulate, ep);                      \
  }

ONNXC_DEFINE_RKERNEL(1)
ONNXC_DEFINE_RKERNEL(2)
ONNXC_DEFINE_RKERNEL(3)
ONNXC_DEFINE_RKERNEL(4)
ONNXC_DEFINE_RKERNEL(5)
ONNXC_DEFINE_RKERNEL(6)
ONNXC_DEFINE_RKERNEL(7)
ONNXC_DEFINE_RKERNEL(8)

typedef void (*rkernel_fn)(i64, const float *, const i64 *, const float *,
                           float *, i64, i64, int, const tile_ep *);
static const rkernel_fn rkernels[MR + 1] = {0,         rkernel_1, rkernel_2,
                                            rkernel_3, rkernel_4, rkernel_5,
                                            rkernel_6, rkernel_7, rkernel_8};

static void conv_rtile_avx512(int rows, i64 kc, const float *x0,
                              const i64 *koff, const float *panel, float *c,
                              i64 csc, i64 nw, int accumulate,
                              const tile_ep *ep) {
  rkernels[rows](kc, x0, koff, panel, c, csc, nw, accumulate, ep);
}

static const ikernel16_fn ikernels16c[17] = {
    0,            ikernel16c_1,  ikernel16c_2,  ikernel16c_3,  ikernel16c_4,
    ikernel16c_5, ikernel16c_6,  ikernel16c_7,  ikernel16c_8,  ikernel16c_9,
    ikernel16c_10, ikernel16c_11, ikernel16c_12, ikernel16c_13, ikernel16c_14,
    ikernel16c_15, ikernel16c_16};

static void conv_tile16c_avx512(int rows, i64 kc, const float *x0,
                                const i64 *koff, const float *panel, float *c,
                                i64 csc, i64 nw, int accumulate,
                                const tile_ep *ep) {
  ikernels16c[rows](kc, x0, koff, panel, c, csc, nw, accumulate, ep);
}

static void conv_tile16_avx512(int rows, i64 kc, const float *x0,
                               const i64 *koff, const float *panel, float *c,
                               i64 csc, i64 nw, int accumulate,
                               const tile_ep *ep) {
  ikernels16[rows](kc, x0, koff, panel, c, csc, nw, accumulate, ep);
}

static void tile_avx512(int rows, i64 kc, const float *a, i64 rsa, i64 csa,
                        const float *panel, float *c, i64 rsc, i64 csc, i64 nw,
                        int accumulate, const tile_ep *ep) {
  kernels[rows](kc, a, rsa, csa, panel, NR, c, rsc, csc, nw, accumulate, ep);
}

static void tile_strided_avx512(int rows, i64 kc, const float *a, i64 rsa,
                                i64 csa, const float *b, i64 ldb, float *c,
                                i64 rsc, i64 csc, i64 nw, int accumulate,
                                const tile_ep *ep) {
  kernels[rows](kc, a, rsa, csa, b, ldb, c, rsc, csc, nw, accumulate, ep);
}

static void conv_tile_avx512(int rows, i64 kc, const float *const *xr,
                             const i64 *koff, const float *panel, float *c,
                             i64 csc, i64 nw, int accumulate,
                             const tile_ep *ep) {
  ikernels1[rows](kc, xr, koff, panel, c, csc, nw, accumulate, ep, NULL, 0);
}

void onnxc_rt_sgemm_fill_avx512(onnxc_kernels *k) {
  k->sgemm_mr = MR;
  k->wino_width = 32; /* tiles of a whole panel (dispatch.h) */
  k->sgemm_tile = tile_avx512;
  k->sgemm_tile_strided = tile_strided_avx512;
  k->sgemm_strided_k = 160;
  k->conv_mr = MR;
  k->conv_tile = conv_tile_avx512;
  k->conv_mr2 = MR2;
  k->conv_mr1 = MR1;
  k->conv_tile1 = conv_tile1_avx512;
  k->conv_k1 = 385;
  k->conv_tile2 = conv_tile2_avx512;
  k->conv_store2 = conv_store2_avx512;
  k->conv_mr16 = 16;
  k->conv_tile16 = conv_tile16_avx512;
  k->conv_tile16c = conv_tile16c_avx512;
  k->conv_rmr = MR;
  k->conv_rtile = conv_rtile_avx512;
  k->tile_act = 1;
}

#else
typedef int onnxc_sgemm_avx512_empty; /* not x86-64: nothing here */
#endif
