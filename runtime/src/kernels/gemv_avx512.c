/*===- kernels/gemv_avx512.c - Products with few rows or columns, AVX-512 ===*
 *
 * The AVX-512 tier's sgemm_small (dispatch.h): gemm.c hands its products
 * with m <= 4 (a batch-1 Gemm or MatMul, the per-step h * R of a recurrent
 * network) to the kernels here, and those with n <= 4 too (a matrix times
 * a vector), as C^T = B^T * A^T. The packed GEMM serves such shapes badly:
 * its 1 x 32 tile has 2 accumulators, so every step waits for the previous
 * FMA (a 4-cycle latency against 2 FMA a cycle: 1/4 of the peak), and it
 * copies a B that it then reads once.
 *
 * Here B is read in place, row-major or packed alike (a packed B is a row
 * of whole-K panels: panel j at b + j * k * 32, its rows 32 floats apart;
 * a row-major B is the same with panels 32 floats apart and rows rsb
 * apart), a few panels at once: a row-major B 4 panels (128 columns) at a
 * time for one or two rows of A, 2 for three or four; a packed B one
 * panel at a time below 1 MiB, two from 1 MiB on (small_packed says why).
 * For few rows k is unrolled into 2 or 4 sets of accumulators, so that 8
 * to 16 independent FMA chains run. The whole K stays in registers: C is written once, with
 * the epilogue. A B whose columns are contiguous (unit row stride: a
 * transposed operand) gets dot products instead, 16 values of k at a
 * time.
 *
 * Compiled with the AVX-512 flags; called only when dispatch.c chose this
 * tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

/* The first `w` of 16 lanes (none when w <= 0). */
static __mmask16 lanes(i64 w) {
  return w >= 16  ? (__mmask16)0xffff
         : w <= 0 ? (__mmask16)0
                  : (__mmask16)((1u << w) - 1u);
}

static float clampf(float v, const tile_ep *ep) {
  return v < ep->lo ? ep->lo : v > ep->hi ? ep->hi : v;
}

/* Writes (or adds) one row of a tile, held as `nv` vectors of 16 columns
 * with lane masks `mk`, at `c` (columns csc apart), with the epilogue `ep`
 * of row `r` (may be NULL). Every loop over the vectors is unrolled:
 * indexing `v` with a variable would put the accumulators in memory. */
ONNXC_INLINE static void store_row(int nv, __m512 *v, const __mmask16 *mk,
                                   float *c, i64 csc, int accumulate,
                                   const tile_ep *ep, int r) {
  int i;
  if (ep && !accumulate && ep->col_bias)
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] = _mm512_add_ps(
        v[i], _mm512_maskz_loadu_ps(mk[i], ep->col_bias + 16 * i));
  if (ep && !accumulate && ep->row_bias) {
    __m512 bias = _mm512_set1_ps(ep->row_bias[r]);
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] =
        _mm512_add_ps(v[i], bias);
  }
  if (csc == 1) {
    if (accumulate)
      _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] =
          _mm512_add_ps(v[i], _mm512_maskz_loadu_ps(mk[i], c + 16 * i));
    if (ep && ep->clamp) {
      /* (bound, value): a NaN comes through, as from Relu / Clip. */
      __m512 lo = _mm512_set1_ps(ep->lo), hi = _mm512_set1_ps(ep->hi);
      _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] =
          _mm512_min_ps(hi, _mm512_max_ps(lo, v[i]));
    }
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i)
        _mm512_mask_storeu_ps(c + 16 * i, mk[i], v[i]);
  } else {
    float tmp[16 * 8];
    i64 col, n = 0;
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) {
      _mm512_storeu_ps(tmp + 16 * i, v[i]);
      n += __builtin_popcount(mk[i]);
    }
    for (col = 0; col < n; ++col) {
      float *dst = c + col * csc;
      float s = accumulate ? *dst + tmp[col] : tmp[col];
      *dst = ep && ep->clamp ? clampf(s, ep) : s;
    }
  }
}

/* `ep` for the columns from j of its product (its bias per column moves). */
static const tile_ep *ep_from(const tile_ep *ep, i64 j, tile_ep *part) {
  if (!ep || !ep->col_bias)
    return ep;
  *part = *ep;
  part->col_bias += j;
  return part;
}

/* panels_RxP: C[R x n] (+)= A[R x k] * B[k x n], B's column j at row p
 * being b[(j / 32) * ps + p * rs + j % 32], P panels (32 P columns) at a
 * time. Loads whole groups of P panels: the caller makes sure that they
 * can be read (a packed B is padded with zeros up to its last panel);
 * masked_R takes one panel of a row-major B whose lanes past n must not
 * be loaded. The rows of A are broadcast, k is unrolled U times into U
 * sets of accumulators (summed at the end), so that 2 R P U >= 8 FMA
 * chains hide the FMA latency. */
#define ONNXC_PANEL_LOADS(P, MASKED, row)                                      \
  _Pragma("GCC unroll 4") for (q = 0; q < P; ++q) {                            \
    const float *src = bq[q] + (row)*rs;                                       \
    bv[2 * q] =                                                                \
        MASKED ? _mm512_maskz_loadu_ps(mk[0], src) : _mm512_loadu_ps(src);     \
    bv[2 * q + 1] = MASKED ? _mm512_maskz_loadu_ps(mk[1], src + 16)            \
                           : _mm512_loadu_ps(src + 16);                        \
  }
#define ONNXC_DEFINE_PANELS(NAME, R, P, U, MASKED)                             \
  static void NAME(i64 k, const float *a, i64 rsa, i64 csa, const float *b,    \
                   i64 ps, i64 rs, i64 n, float *c, i64 rsc, i64 csc,          \
                   int accumulate, const tile_ep *ep) {                        \
    enum { V = 2 * P };                                                        \
    i64 j;                                                                     \
    for (j = 0; j < n; j += P * NR) {                                          \
      __m512 acc[U][R][V];                                                     \
      __mmask16 mk[V];                                                         \
      const float *bq[P];                                                      \
      tile_ep part;                                                            \
      int u, r, v, q;                                                          \
      i64 p = 0;                                                               \
      _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) mk[v] =                  \
          lanes(n - j - 16 * v);                                               \
      _Pragma("GCC unroll 4") for (q = 0; q < P; ++q) bq[q] =                  \
          b + (j / NR + q) * ps;                                               \
      _Pragma("GCC unroll 4") for (u = 0; u < U; ++u)                          \
          _Pragma("GCC unroll 4") for (r = 0; r < R; ++r)                      \
              _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[u][r][v] =   \
                  _mm512_setzero_ps();                                         \
      for (; p + U <= k; p += U) {                                             \
        _Pragma("GCC unroll 4") for (u = 0; u < U; ++u) {                      \
          __m512 bv[V];                                                        \
          ONNXC_PANEL_LOADS(P, MASKED, u)                                      \
          _Pragma("GCC unroll 4") for (r = 0; r < R; ++r) {                    \
            __m512 av = _mm512_set1_ps(a[r * rsa + (p + u) * csa]);            \
            _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[u][r][v] =     \
                _mm512_fmadd_ps(av, bv[v], acc[u][r][v]);                      \
          }                                                                    \
        }                                                                      \
        _Pragma("GCC unroll 4") for (q = 0; q < P; ++q) bq[q] += U * rs;       \
      }                                                                        \
      for (; p < k; ++p) { /* the last k % U rows into the first set */        \
        __m512 bv[V];                                                          \
        ONNXC_PANEL_LOADS(P, MASKED, 0)                                        \
        _Pragma("GCC unroll 4") for (r = 0; r < R; ++r) {                      \
          __m512 av = _mm512_set1_ps(a[r * rsa + p * csa]);                    \
          _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[0][r][v] =       \
              _mm512_fmadd_ps(av, bv[v], acc[0][r][v]);                        \
        }                                                                      \
        _Pragma("GCC unroll 4") for (q = 0; q < P; ++q) bq[q] += rs;           \
      }                                                                        \
      _Pragma("GCC unroll 4") for (r = 0; r < R; ++r) {                        \
        _Pragma("GCC unroll 4") for (u = 1; u < U; ++u)                        \
            _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[0][r][v] =     \
                _mm512_add_ps(acc[0][r][v], acc[u][r][v]);                     \
        store_row(V, acc[0][r], mk, c + r * rsc + j * csc, csc, accumulate,    \
                  ep_from(ep, j, &part), r);                                   \
      }                                                                        \
    }                                                                          \
  }

ONNXC_DEFINE_PANELS(panels_1x1, 1, 1, 4, 0)
ONNXC_DEFINE_PANELS(panels_1x2, 1, 2, 2, 0)
ONNXC_DEFINE_PANELS(panels_1x3, 1, 3, 2, 0)
ONNXC_DEFINE_PANELS(panels_1x4, 1, 4, 2, 0)
ONNXC_DEFINE_PANELS(panels_2x1, 2, 1, 2, 0)
ONNXC_DEFINE_PANELS(panels_2x2, 2, 2, 2, 0)
ONNXC_DEFINE_PANELS(panels_2x3, 2, 3, 1, 0)
ONNXC_DEFINE_PANELS(panels_2x4, 2, 4, 1, 0)
ONNXC_DEFINE_PANELS(panels_3x1, 3, 1, 2, 0)
ONNXC_DEFINE_PANELS(panels_3x2, 3, 2, 1, 0)
ONNXC_DEFINE_PANELS(panels_4x1, 4, 1, 2, 0)
ONNXC_DEFINE_PANELS(panels_4x2, 4, 2, 1, 0)
/* For small_packed's wide groups: the unrolling of panels_R1 (the same
 * sums, column by column), two panels at a time. */
ONNXC_DEFINE_PANELS(wide_1, 1, 2, 4, 0)
ONNXC_DEFINE_PANELS(wide_3, 3, 2, 2, 0)
ONNXC_DEFINE_PANELS(masked_1, 1, 1, 4, 1)
ONNXC_DEFINE_PANELS(masked_2, 2, 1, 2, 1)
ONNXC_DEFINE_PANELS(masked_3, 3, 1, 2, 1)
ONNXC_DEFINE_PANELS(masked_4, 4, 1, 2, 1)

typedef void (*panels_fn)(i64, const float *, i64, i64, const float *, i64, i64,
                          i64, float *, i64, i64, int, const tile_ep *);
/* [rows - 1][panels - 1]; rows 3 and 4 take 2 panels at most. */
static const panels_fn panel_kernels[4][4] = {
    {panels_1x1, panels_1x2, panels_1x3, panels_1x4},
    {panels_2x1, panels_2x2, panels_2x3, panels_2x4},
    {panels_3x1, panels_3x2, 0, 0},
    {panels_4x1, panels_4x2, 0, 0}};
static const panels_fn masked_kernels[4] = {masked_1, masked_2, masked_3,
                                            masked_4};
/* Two panels at a time with the k unrolling of panel_kernels[m - 1][0]
 * (four rows: one panel, the accumulators would not fit twice). */
static const panels_fn wide_kernels[4] = {wide_1, panels_2x2, wide_3,
                                          panels_4x1};

/* C[m x n] (+)= A * B for m <= 4 over a packed B (panels k * 32 floats
 * apart, padded with zeros up to the last one). Measured on Zen 5 (1 to
 * 4 rows, B read again call after call): a B of up to 512 KiB (in L2) is
 * read fastest one panel at a time, as one sequential stream (86-88
 * GFLOP/s for one row against 55 with 4 panels at once); from 1 MiB on
 * (the far end of L2, or L3), several panels at once are faster (more
 * misses in flight). The two paths unroll k the same way for a given row
 * count, so that each column's sum does not depend on which path took it:
 * parallel.c splits a product into parts of 128 columns, whose B is
 * smaller than the whole one's, and the parts must compute what one
 * thread computes. */
static void small_packed(i64 m, i64 n, i64 k, const float *a, i64 rsa, i64 csa,
                         const float *b, float *c, i64 rsc, i64 csc,
                         int accumulate, const tile_ep *ep) {
  i64 width = (m <= 3 ? 2 : 1) * NR, wide, ps = k * NR;
  tile_ep part;
  if (k * n < 256 * 1024) {
    panel_kernels[m - 1][0](k, a, rsa, csa, b, ps, NR, n, c, rsc, csc,
                            accumulate, ep);
    return;
  }
  wide = n / width * width;
  if (wide > 0)
    wide_kernels[m - 1](k, a, rsa, csa, b, ps, NR, wide, c, rsc, csc,
                        accumulate, ep);
  if (n > wide)
    panel_kernels[m - 1][0](k, a, rsa, csa, b + (wide / NR) * ps, ps, NR,
                            n - wide, c + wide * csc, rsc, csc, accumulate,
                            ep_from(ep, wide, &part));
}

/* C[m x n] (+)= A * B for m <= 4, B row-major (rows rsb apart): 4 panels
 * at a time for up to 2 rows, 2 for 3 or 4 (a row of B is then read as 512
 * or 256 contiguous bytes), then the remaining whole panels, then the
 * masked rest. */
static void small_rows(i64 m, i64 n, i64 k, const float *a, i64 rsa, i64 csa,
                       const float *b, i64 rsb, float *c, i64 rsc, i64 csc,
                       int accumulate, const tile_ep *ep) {
  i64 width = (m <= 2 ? 4 : 2) * NR;
  i64 wide = n / width * width, whole = n / NR * NR;
  tile_ep part;
  if (wide > 0)
    panel_kernels[m - 1][width / NR - 1](k, a, rsa, csa, b, NR, rsb, wide, c,
                                         rsc, csc, accumulate, ep);
  if (whole > wide)
    panel_kernels[m - 1][(whole - wide) / NR - 1](
        k, a, rsa, csa, b + wide, NR, rsb, whole - wide, c + wide * csc, rsc,
        csc, accumulate, ep_from(ep, wide, &part));
  if (n > whole)
    masked_kernels[m - 1](k, a, rsa, csa, b + whole, NR, rsb, n - whole,
                          c + whole * csc, rsc, csc, accumulate,
                          ep_from(ep, whole, &part));
}

/* dots_R: C[R x nc] (+)= A[R x k] * B[k x nc] for nc <= 4, rows of A and
 * columns of B contiguous (column q at b + q * csb): R x 4 vector
 * accumulators over 16 values of k at a time, summed across lanes at the
 * end. */
#define ONNXC_DEFINE_DOTS(R)                                                   \
  static void dots_##R(i64 k, const float *a, i64 rsa, const float *b,         \
                       i64 csb, i64 nc, float *c, i64 rsc, i64 csc,            \
                       int accumulate, const tile_ep *ep) {                    \
    __m512 acc[R][4];                                                          \
    const float *col[4];                                                       \
    int r, q;                                                                  \
    i64 p;                                                                     \
    /* Columns past nc repeat column 0: computed, never stored. */             \
    for (q = 0; q < 4; ++q)                                                    \
      col[q] = b + (q < nc ? q : 0) * csb;                                     \
    _Pragma("GCC unroll 4") for (r = 0; r < R; ++r)                            \
        _Pragma("GCC unroll 4") for (q = 0; q < 4; ++q) acc[r][q] =            \
            _mm512_setzero_ps();                                               \
    for (p = 0; p < k; p += 16) {                                              \
      __mmask16 mk = p + 16 <= k ? (__mmask16)0xffff : lanes(k - p);           \
      __m512 bv[4];                                                            \
      _Pragma("GCC unroll 4") for (q = 0; q < 4; ++q) bv[q] =                  \
          _mm512_maskz_loadu_ps(mk, col[q] + p);                               \
      _Pragma("GCC unroll 4") for (r = 0; r < R; ++r) {                        \
        __m512 av = _mm512_maskz_loadu_ps(mk, a + r * rsa + p);                \
        _Pragma("GCC unroll 4") for (q = 0; q < 4; ++q) acc[r][q] =            \
            _mm512_fmadd_ps(av, bv[q], acc[r][q]);                             \
      }                                                                        \
    }                                                                          \
    for (r = 0; r < R; ++r)                                                    \
      for (q = 0; q < nc; ++q) {                                               \
        float *dst = c + r * rsc + q * csc;                                    \
        float s = _mm512_reduce_add_ps(acc[r][q]);                             \
        if (accumulate)                                                        \
          s += *dst;                                                           \
        else if (ep) {                                                         \
          if (ep->row_bias)                                                    \
            s += ep->row_bias[r];                                              \
          if (ep->col_bias)                                                    \
            s += ep->col_bias[q];                                              \
        }                                                                      \
        *dst = ep && ep->clamp ? clampf(s, ep) : s;                            \
      }                                                                        \
  }

ONNXC_DEFINE_DOTS(1)
ONNXC_DEFINE_DOTS(2)
ONNXC_DEFINE_DOTS(3)
ONNXC_DEFINE_DOTS(4)

typedef void (*dots_fn)(i64, const float *, i64, const float *, i64, i64,
                        float *, i64, i64, int, const tile_ep *);
static const dots_fn dot_kernels[4] = {dots_1, dots_2, dots_3, dots_4};

/* C[m x n] (+)= A * B for m <= 4, A's rows and B's columns contiguous. */
static void small_dots(i64 m, i64 n, i64 k, const float *a, i64 rsa,
                       const float *b, i64 csb, float *c, i64 rsc, i64 csc,
                       int accumulate, const tile_ep *ep) {
  i64 j;
  tile_ep part;
  for (j = 0; j < n; j += 4)
    dot_kernels[m - 1](k, a, rsa, b + j * csb, csb, min64(4, n - j),
                       c + j * csc, rsc, csc, accumulate,
                       ep_from(ep, j, &part));
}

static int sgemm_small_avx512(int64_t m, int64_t n, int64_t k, const float *a,
                              int64_t rsa, int64_t csa, const float *b,
                              int64_t rsb, int64_t csb, int packed, float *c,
                              int64_t rsc, int64_t csc, int accumulate,
                              const tile_ep *ep) {
  if (m <= 4) {
    if (packed)
      small_packed(m, n, k, a, rsa, csa, b, c, rsc, csc, accumulate, ep);
    else if (csb == 1)
      small_rows(m, n, k, a, rsa, csa, b, rsb, c, rsc, csc, accumulate, ep);
    else if (rsb == 1 && csa == 1)
      small_dots(m, n, k, a, rsa, b, csb, c, rsc, csc, accumulate, ep);
    else
      return 0;
    return 1;
  }
  /* C^T[n x m] = B^T A^T: the roles of rows and columns swap, the
   * epilogue's biases with them. */
  if (n <= 4 && !packed) {
    tile_ep t;
    const tile_ep *e = NULL;
    if (ep) {
      t = *ep;
      t.row_bias = ep->col_bias;
      t.col_bias = ep->row_bias;
      e = &t;
    }
    return sgemm_small_avx512(n, m, k, b, csb, rsb, a, csa, rsa, 0, c, csc, rsc,
                              accumulate, e);
  }
  return 0;
}

void onnxc_rt_gemv_fill_avx512(onnxc_kernels *k) {
  k->sgemm_small = sgemm_small_avx512;
}

#else
typedef int onnxc_gemv_avx512_empty; /* not x86-64: nothing here */
#endif
