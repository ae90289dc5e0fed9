/*===- kernels/sgemm_avx2.c - Packed-GEMM and conv tiles, AVX2 + FMA ------===*
 *
 * The AVX2 tier's sgemm_tile and conv_tile (dispatch.h) over the same
 * 32-column panels as every tier. With 16 ymm registers a whole panel per
 * row (4 vectors) leaves room for 3 rows only, and their 12 FMAs per k
 * would need 12 loads of the panel or 4 registers more. So a tile is 6
 * rows by 16 columns (half a panel: 2 vectors), 12 accumulators, run once
 * per half: per k, 2 loads of the panel, 6 broadcasts of A and 12 FMAs
 * (the classic 6 x 16 AVX2 kernel; 2/3 load per FMA, which two load ports
 * sustain at two FMAs a cycle). A is read twice per panel, from L1 / L2.
 *
 * conv_tile is the same with A[r, k] = xr[r][koff[k]] (rows are output
 * positions of a convolution, columns output channels) and a transposed
 * store: each 8-channel vector group of the tile goes through an 8 x 8
 * transpose (rows past `rows` zero), then each channel's positions are
 * one masked store.
 *
 * Each element is summed over k in order with FMAs, so a tile's results do
 * not depend on its height or position (parallel.c may split anywhere).
 * Compiled with -mavx2 -mfma; called only when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "lanes_avx2.h"

#define MR 6 /* rows of a tile */
#define HALF 16

/* Writes (or adds) the rows of a half tile held as two vectors per row
 * (columns [0, 16) of the half, nw of them valid), with the epilogue ep
 * (relative to the half: its col_bias starts at the half's column). */
ONNXC_INLINE static void store_half(int rows, __m256 *lo, __m256 *hi, float *c,
                                    i64 rsc, i64 csc, i64 nw, int accumulate,
                                    const tile_ep *ep) {
  const __m256i m0 = lanes8(nw), m1 = lanes8(nw - 8);
  int r;
  if (ep && !accumulate && ep->col_bias) {
    __m256 b0 = _mm256_maskload_ps(ep->col_bias, m0);
    __m256 b1 = _mm256_maskload_ps(ep->col_bias + 8, m1);
    for (r = 0; r < rows; ++r) {
      lo[r] = _mm256_add_ps(lo[r], b0);
      hi[r] = _mm256_add_ps(hi[r], b1);
    }
  }
  if (ep && !accumulate && ep->row_bias)
    for (r = 0; r < rows; ++r) {
      __m256 b = _mm256_set1_ps(ep->row_bias[r]);
      lo[r] = _mm256_add_ps(lo[r], b);
      hi[r] = _mm256_add_ps(hi[r], b);
    }
  if (csc != 1) {
    for (r = 0; r < rows; ++r) {
      float tmp[HALF];
      i64 col;
      _mm256_storeu_ps(tmp, lo[r]);
      _mm256_storeu_ps(tmp + 8, hi[r]);
      for (col = 0; col < nw; ++col) {
        float *dst = c + r * rsc + col * csc;
        float v = accumulate ? *dst + tmp[col] : tmp[col];
        if (ep && ep->clamp)
          v = v < ep->lo ? ep->lo : v > ep->hi ? ep->hi : v;
        *dst = v;
      }
    }
    return;
  }
  if (accumulate)
    for (r = 0; r < rows; ++r) {
      float *row = c + r * rsc;
      if (nw == HALF) {
        lo[r] = _mm256_add_ps(lo[r], _mm256_loadu_ps(row));
        hi[r] = _mm256_add_ps(hi[r], _mm256_loadu_ps(row + 8));
      } else {
        lo[r] = _mm256_add_ps(lo[r], _mm256_maskload_ps(row, m0));
        hi[r] = _mm256_add_ps(hi[r], _mm256_maskload_ps(row + 8, m1));
      }
    }
  if (ep && ep->clamp) {
    /* (bound, value): a NaN value comes through, as from Relu / Clip. */
    __m256 vlo = _mm256_set1_ps(ep->lo), vhi = _mm256_set1_ps(ep->hi);
    for (r = 0; r < rows; ++r) {
      lo[r] = _mm256_min_ps(vhi, _mm256_max_ps(vlo, lo[r]));
      hi[r] = _mm256_min_ps(vhi, _mm256_max_ps(vlo, hi[r]));
    }
  }
  for (r = 0; r < rows; ++r) {
    float *row = c + r * rsc;
    store_first(row, lo[r], nw);
    store_first(row + 8, hi[r], nw - 8);
  }
}

/* `ep` for the columns from `col` of its tile (the bias per column moves
 * with them). */
static const tile_ep *ep_from(const tile_ep *ep, i64 col, tile_ep *part) {
  if (!ep || !ep->col_bias)
    return ep;
  *part = *ep;
  part->col_bias += col;
  return part;
}

/* half_R: C[R x nw] (+)= A[R x kc] * the 16 columns of a panel from bp
 * (rows ldb floats apart: NR for a packed panel, B's own row stride read in
 * place): 2R accumulators, A broadcast from memory. */
#define ONNXC_DEFINE_HALF(R)                                                   \
  static void half_##R(i64 kc, const float *a, i64 rsa, i64 csa,               \
                       const float *bp, i64 ldb, float *c, i64 rsc, i64 csc,   \
                       i64 nw, int accumulate, const tile_ep *ep) {            \
    __m256 lo[R], hi[R];                                                       \
    int r;                                                                     \
    i64 p;                                                                     \
    _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                          \
      lo[r] = _mm256_setzero_ps();                                             \
      hi[r] = _mm256_setzero_ps();                                             \
    }                                                                          \
    for (p = 0; p < kc; ++p) {                                                 \
      __m256 b0 = _mm256_loadu_ps(bp), b1 = _mm256_loadu_ps(bp + 8);           \
      _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                        \
        __m256 av = _mm256_broadcast_ss(a + r * rsa);                          \
        lo[r] = _mm256_fmadd_ps(av, b0, lo[r]);                                \
        hi[r] = _mm256_fmadd_ps(av, b1, hi[r]);                                \
      }                                                                        \
      a += csa;                                                                \
      bp += ldb;                                                               \
    }                                                                          \
    {                                                                          \
      /* Copies that may escape: the accumulators stay in registers. */        \
      __m256 slo[R], shi[R];                                                   \
      _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                        \
        slo[r] = lo[r];                                                        \
        shi[r] = hi[r];                                                        \
      }                                                                        \
      store_half(R, slo, shi, c, rsc, csc, nw, accumulate, ep);                \
    }                                                                          \
  }

ONNXC_DEFINE_HALF(1)
ONNXC_DEFINE_HALF(2)
ONNXC_DEFINE_HALF(3)
ONNXC_DEFINE_HALF(4)
ONNXC_DEFINE_HALF(5)
ONNXC_DEFINE_HALF(6)

typedef void (*half_fn)(i64, const float *, i64, i64, const float *, i64,
                        float *, i64, i64, i64, int, const tile_ep *);
static const half_fn halves[MR + 1] = {0,      half_1, half_2, half_3,
                                       half_4, half_5, half_6};

/* The tile over B's rows ldb floats apart: a B read in place, or a packed
 * panel (ldb = NR, tile_avx2). */
static void tile_strided_avx2(int rows, i64 kc, const float *a, i64 rsa,
                              i64 csa, const float *b, i64 ldb, float *c,
                              i64 rsc, i64 csc, i64 nw, int accumulate,
                              const tile_ep *ep) {
  tile_ep part;
  halves[rows](kc, a, rsa, csa, b, ldb, c, rsc, csc, min64(nw, HALF),
               accumulate, ep);
  if (nw > HALF)
    halves[rows](kc, a, rsa, csa, b + HALF, ldb, c + HALF * csc, rsc, csc,
                 nw - HALF, accumulate, ep_from(ep, HALF, &part));
}

static void tile_avx2(int rows, i64 kc, const float *a, i64 rsa, i64 csa,
                      const float *panel, float *c, i64 rsc, i64 csc, i64 nw,
                      int accumulate, const tile_ep *ep) {
  tile_strided_avx2(rows, kc, a, rsa, csa, panel, NR, c, rsc, csc, nw,
                    accumulate, ep);
}

/* ---- The indirect GEMM of convolutions -------------------------------- */

/* Adds (or writes) a half tile of `rows` positions x nw channels, held as
 * two vectors per position, into Y at c[ch * csc + r], with the epilogue
 * (per-channel bias as col_bias, per position as row_bias, applied before
 * the transpose; the clamp
 * before it when overwriting, after the sum with Y when accumulating). */
ONNXC_INLINE static void store_half_t(int rows, __m256 *lo, __m256 *hi,
                                      float *c, i64 csc, i64 nw, int accumulate,
                                      const tile_ep *ep) {
  const __m256i rmask = lanes8(rows);
  __m256 v[8], t[8];
  __m256 vlo = _mm256_set1_ps(ep ? ep->lo : 0.0f);
  __m256 vhi = _mm256_set1_ps(ep ? ep->hi : 0.0f);
  int clamp = ep && ep->clamp;
  int r, h, i;
  if (ep && !accumulate && ep->col_bias) {
    __m256 b0 = _mm256_maskload_ps(ep->col_bias, lanes8(nw));
    __m256 b1 = _mm256_maskload_ps(ep->col_bias + 8, lanes8(nw - 8));
    for (r = 0; r < rows; ++r) {
      lo[r] = _mm256_add_ps(lo[r], b0);
      hi[r] = _mm256_add_ps(hi[r], b1);
    }
  }
  if (ep && !accumulate && ep->row_bias)
    for (r = 0; r < rows; ++r) {
      __m256 b = _mm256_set1_ps(ep->row_bias[r]);
      lo[r] = _mm256_add_ps(lo[r], b);
      hi[r] = _mm256_add_ps(hi[r], b);
    }
  if (clamp && !accumulate) {
    for (r = 0; r < rows; ++r) {
      lo[r] = _mm256_min_ps(vhi, _mm256_max_ps(vlo, lo[r]));
      hi[r] = _mm256_min_ps(vhi, _mm256_max_ps(vlo, hi[r]));
    }
    clamp = 0;
  }
  for (h = 0; h < 2; ++h) {
    i64 nch = nw - 8 * h;
    if (nch <= 0)
      break;
    for (r = 0; r < 8; ++r)
      v[r] = r < rows ? (h ? hi[r] : lo[r]) : _mm256_setzero_ps();
    transpose8(v, t);
    for (i = 0; i < 8 && i < nch; ++i) {
      float *p = c + (8 * h + i) * csc;
      __m256 s = t[i];
      if (accumulate)
        s = _mm256_add_ps(s, _mm256_maskload_ps(p, rmask));
      if (clamp)
        s = _mm256_min_ps(vhi, _mm256_max_ps(vlo, s));
      store_first(p, s, rows);
    }
  }
}

/* ihalfs_R: R output positions by the 16 channels of a panel from bp;
 * A[r, k] = xr[r][koff[k]]. With conv_tile1's partial sums (dispatch.h):
 * position r's 16 channels of the half at s + 32 r (s unused when sflags
 * is 0, as conv_tile calls it). iquarter_R: the same for a panel of at
 * most 8 channels (a grouped convolution's 8 output channels a group:
 * ResNeXt's), one vector per position: R FMAs per k where a half does
 * 2 R, half of them on lanes that are not stored; partial sums as
 * ihalfs_R's low vector. V: vectors per position (2, 1; a constant). */
#define ONNXC_DEFINE_ITILE(NAME, R, V)                                         \
  static void NAME##_##R(i64 kc, const float *const *xr, const i64 *koff,      \
                         const float *bp, float *c, i64 csc, i64 nw,           \
                         int accumulate, const tile_ep *ep, float *s,          \
                         int sflags) {                                         \
    __m256 lo[R], hi[R];                                                       \
    const float *src[R];                                                       \
    int r;                                                                     \
    i64 p;                                                                     \
    _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                          \
      src[r] = xr[r];                                                          \
      if (sflags & ONNXC_TILE2_FROM_S) {                                       \
        lo[r] = _mm256_load_ps(s + 32 * r);                                    \
        hi[r] = V == 2 ? _mm256_load_ps(s + 32 * r + 8) : _mm256_setzero_ps(); \
      } else {                                                                 \
        lo[r] = _mm256_setzero_ps();                                           \
        hi[r] = _mm256_setzero_ps();                                           \
      }                                                                        \
    }                                                                          \
    for (p = 0; p < kc; ++p) {                                                 \
      i64 off = koff[p];                                                       \
      __m256 b0 = _mm256_loadu_ps(bp);                                         \
      __m256 b1 = V == 2 ? _mm256_loadu_ps(bp + 8) : _mm256_setzero_ps();      \
      _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                        \
        __m256 av = _mm256_broadcast_ss(src[r] + off);                         \
        lo[r] = _mm256_fmadd_ps(av, b0, lo[r]);                                \
        if (V == 2)                                                            \
          hi[r] = _mm256_fmadd_ps(av, b1, hi[r]);                              \
      }                                                                        \
      bp += NR;                                                                \
    }                                                                          \
    if (sflags & ONNXC_TILE2_TO_S) {                                           \
      _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                        \
        _mm256_store_ps(s + 32 * r, lo[r]);                                    \
        if (V == 2)                                                            \
          _mm256_store_ps(s + 32 * r + 8, hi[r]);                              \
      }                                                                        \
      return;                                                                  \
    }                                                                          \
    {                                                                          \
      __m256 slo[R], shi[R];                                                   \
      _Pragma("GCC unroll 6") for (r = 0; r < R; ++r) {                        \
        slo[r] = lo[r];                                                        \
        shi[r] = hi[r];                                                        \
      }                                                                        \
      store_half_t(R, slo, shi, c, csc, nw, accumulate, ep);                   \
    }                                                                          \
  }

ONNXC_DEFINE_ITILE(ihalfs, 1, 2)
ONNXC_DEFINE_ITILE(ihalfs, 2, 2)
ONNXC_DEFINE_ITILE(ihalfs, 3, 2)
ONNXC_DEFINE_ITILE(ihalfs, 4, 2)
ONNXC_DEFINE_ITILE(ihalfs, 5, 2)
ONNXC_DEFINE_ITILE(ihalfs, 6, 2)
ONNXC_DEFINE_ITILE(iquarter, 1, 1)
ONNXC_DEFINE_ITILE(iquarter, 2, 1)
ONNXC_DEFINE_ITILE(iquarter, 3, 1)
ONNXC_DEFINE_ITILE(iquarter, 4, 1)
ONNXC_DEFINE_ITILE(iquarter, 5, 1)
ONNXC_DEFINE_ITILE(iquarter, 6, 1)

typedef void (*ihalfs_fn)(i64, const float *const *, const i64 *,
                          const float *, float *, i64, i64, int,
                          const tile_ep *, float *, int);
static const ihalfs_fn ihalfss[MR + 1] = {0,        ihalfs_1, ihalfs_2,
                                          ihalfs_3, ihalfs_4, ihalfs_5,
                                          ihalfs_6};
static const ihalfs_fn iquarters[MR + 1] = {0,          iquarter_1, iquarter_2,
                                            iquarter_3, iquarter_4, iquarter_5,
                                            iquarter_6};

/* ONNXC_CONV_QUARTER=0: panels of up to 8 channels through the halves
 * (A/B runs). */
static int quarter_enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_CONV_QUARTER", &on);
}

/* conv_tile1: the two halves, each with its own partial sums; a panel of
 * at most 8 channels in a quarter. */
static void conv_tile1_avx2(int rows, i64 kc, const float *const *xr,
                            const i64 *koff, const float *panel, float *c,
                            i64 csc, i64 nw, int accumulate, const tile_ep *ep,
                            float *s, int sflags) {
  tile_ep part;
  if (nw <= 8 && quarter_enabled()) {
    iquarters[rows](kc, xr, koff, panel, c, csc, nw, accumulate, ep, s,
                    sflags);
    return;
  }
  ihalfss[rows](kc, xr, koff, panel, c, csc, min64(nw, HALF), accumulate, ep,
                s, sflags);
  if (nw > HALF)
    ihalfss[rows](kc, xr, koff, panel + HALF, c + HALF * csc, csc, nw - HALF,
                  accumulate, ep_from(ep, HALF, &part), s ? s + HALF : NULL,
                  sflags);
}

static void conv_tile_avx2(int rows, i64 kc, const float *const *xr,
                           const i64 *koff, const float *panel, float *c,
                           i64 csc, i64 nw, int accumulate, const tile_ep *ep) {
  conv_tile1_avx2(rows, kc, xr, koff, panel, c, csc, nw, accumulate, ep, NULL,
                  0);
}

void onnxc_rt_sgemm_fill_avx2(onnxc_kernels *k) {
  k->sgemm_mr = MR;
  k->wino_width = 16; /* tiles of one half panel (dispatch.h) */
  k->sgemm_tile = tile_avx2;
  k->sgemm_tile_strided = tile_strided_avx2;
  k->sgemm_strided_k = 96;
  k->conv_mr = MR;
  k->conv_tile = conv_tile_avx2;
  k->conv_mr1 = MR;
  k->conv_tile1 = conv_tile1_avx2;
  k->conv_k1 = 1;
}

#else
typedef int onnxc_sgemm_avx2_empty; /* not x86-64: nothing here */
#endif
