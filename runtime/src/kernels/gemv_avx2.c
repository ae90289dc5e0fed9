/*===- kernels/gemv_avx2.c - Products with few rows or columns, AVX2 + FMA =*
 *
 * The AVX2 tier's sgemm_small (dispatch.h): products with m <= 4 (a
 * batch-1 Gemm or MatMul, the per-step h * R of a recurrent network), and
 * with n <= 4 as C^T = B^T * A^T. The packed GEMM serves such shapes
 * badly: its tile would hold one row (2 FMA chains against the 8 that the
 * FMA latency needs), and it copies a B that it then reads once.
 *
 * Here B is read in place, row-major or packed alike (a packed B is a row
 * of whole-K panels: panel j at b + j * k * 32, its rows 32 floats apart;
 * a row-major B is the same with panels 32 floats apart and rows rsb
 * apart), one panel (4 vectors of 8 columns) at a time for 1 to 3 rows of
 * A, half a panel for 4 rows, so that the accumulators fit the 16 ymm
 * registers: 1 row x 4 vectors x 3 sets (k unrolled 3 times), 2 rows x 4,
 * 3 rows x 4, 4 rows x 2: 8 to 12 FMA chains; one row of A over a
 * row-major B takes 64 columns (8 vectors) at a time, so that each row of
 * B is read as 256 contiguous bytes. The whole K stays in
 * registers: C is written once, with the epilogue. A B whose columns are
 * contiguous (unit row stride: a transposed operand) gets dot products,
 * 8 values of k at a time.
 *
 * Each column is computed the same way wherever it is in the call (the
 * unrolling depends on the row count only), so parallel.c's splits into
 * 128-column groups give the values of one thread. Compiled with -mavx2
 * -mfma; called only when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "lanes_avx2.h"

static float clampf(float v, const tile_ep *ep) {
  return v < ep->lo ? ep->lo : v > ep->hi ? ep->hi : v;
}

/* The sum of the 8 lanes, in a fixed order. */
static inline float hsum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_movehdup_ps(s));
  return _mm_cvtss_f32(s);
}

/* Writes (or adds) one row of a tile, held as `nv` vectors of 8 columns
 * with `n` valid columns, at `c` (columns csc apart), with the epilogue
 * `ep` of row `r` (may be NULL). Loops over the vectors are unrolled:
 * indexing `v` with a variable would put the accumulators in memory. */
ONNXC_INLINE static void store_row(int nv, __m256 *v, i64 n, float *c, i64 csc,
                                   int accumulate, const tile_ep *ep, int r) {
  int i;
  if (ep && !accumulate && ep->col_bias)
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] = _mm256_add_ps(
        v[i], _mm256_maskload_ps(ep->col_bias + 8 * i, lanes8(n - 8 * i)));
  if (ep && !accumulate && ep->row_bias) {
    __m256 bias = _mm256_set1_ps(ep->row_bias[r]);
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] =
        _mm256_add_ps(v[i], bias);
  }
  if (csc == 1) {
    if (accumulate)
      _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] =
          _mm256_add_ps(v[i], _mm256_maskload_ps(c + 8 * i, lanes8(n - 8 * i)));
    if (ep && ep->clamp) {
      /* (bound, value): a NaN comes through, as from Relu / Clip. */
      __m256 lo = _mm256_set1_ps(ep->lo), hi = _mm256_set1_ps(ep->hi);
      _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i) v[i] =
          _mm256_min_ps(hi, _mm256_max_ps(lo, v[i]));
    }
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i)
        store_first(c + 8 * i, v[i], n - 8 * i);
  } else {
    float tmp[8 * 8];
    i64 col;
    _Pragma("GCC unroll 8") for (i = 0; i < nv; ++i)
        _mm256_storeu_ps(tmp + 8 * i, v[i]);
    for (col = 0; col < n && col < 8 * nv; ++col) {
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

/* cols_R_V: C[R x n] (+)= A[R x k] * B[k x n], B's column j at row p
 * being b[(j / 32) * ps + p * rs + j % 32], 8 V columns (V = 4: a panel;
 * 2: half of one) at a time; k unrolled U times into U sets of
 * accumulators, summed at the end (the last k % U rows go to the first
 * set). MASKED: loads past column n are masked off (the tail of a
 * row-major B); else whole groups are loaded (a packed B is padded with
 * zeros up to its last panel). */
#define ONNXC_GEMV_LOADS(V, MASKED, row)                                       \
  _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) bv[v] =                      \
      MASKED ? _mm256_maskload_ps(bq + (row)*rs + 8 * v, mk[v])                \
             : _mm256_loadu_ps(bq + (row)*rs + 8 * v);
#define ONNXC_DEFINE_COLS(NAME, R, V, U, MASKED)                               \
  static void NAME(i64 k, const float *a, i64 rsa, i64 csa, const float *b,    \
                   i64 ps, i64 rs, i64 n, float *c, i64 rsc, i64 csc,          \
                   int accumulate, const tile_ep *ep) {                        \
    i64 j;                                                                     \
    for (j = 0; j < n; j += 8 * V) {                                           \
      __m256 acc[U][R][V];                                                     \
      __m256i mk[V];                                                           \
      const float *bq = b + (j / NR) * ps + j % NR;                            \
      tile_ep part;                                                            \
      int u, r, v;                                                             \
      i64 p = 0;                                                               \
      _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) mk[v] =                  \
          lanes8(n - j - 8 * v);                                               \
      (void)mk;                                                                \
      _Pragma("GCC unroll 8") for (u = 0; u < U; ++u)                          \
          _Pragma("GCC unroll 8") for (r = 0; r < R; ++r)                      \
              _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[u][r][v] =   \
                  _mm256_setzero_ps();                                         \
      for (; p + U <= k; p += U) {                                             \
        _Pragma("GCC unroll 8") for (u = 0; u < U; ++u) {                      \
          __m256 bv[V];                                                        \
          ONNXC_GEMV_LOADS(V, MASKED, u)                                       \
          _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                    \
            __m256 av = _mm256_broadcast_ss(a + r * rsa + (p + u) * csa);      \
            _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[u][r][v] =     \
                _mm256_fmadd_ps(av, bv[v], acc[u][r][v]);                      \
          }                                                                    \
        }                                                                      \
        bq += U * rs;                                                          \
      }                                                                        \
      for (; p < k; ++p) {                                                     \
        __m256 bv[V];                                                          \
        ONNXC_GEMV_LOADS(V, MASKED, 0)                                         \
        _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                      \
          __m256 av = _mm256_broadcast_ss(a + r * rsa + p * csa);              \
          _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[0][r][v] =       \
              _mm256_fmadd_ps(av, bv[v], acc[0][r][v]);                        \
        }                                                                      \
        bq += rs;                                                              \
      }                                                                        \
      _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                        \
        _Pragma("GCC unroll 8") for (u = 1; u < U; ++u)                        \
            _Pragma("GCC unroll 8") for (v = 0; v < V; ++v) acc[0][r][v] =     \
                _mm256_add_ps(acc[0][r][v], acc[u][r][v]);                     \
        store_row(V, acc[0][r], n - j, c + r * rsc + j * csc, csc, accumulate, \
                  ep_from(ep, j, &part), r);                                   \
      }                                                                        \
    }                                                                          \
  }

ONNXC_DEFINE_COLS(cols_1, 1, 4, 3, 0)
ONNXC_DEFINE_COLS(cols_2, 2, 4, 1, 0)
ONNXC_DEFINE_COLS(cols_3, 3, 4, 1, 0)
ONNXC_DEFINE_COLS(cols_4, 4, 2, 1, 0)
/* Row-major B, one row of A: 64 contiguous columns (a row of B read as
 * 256 contiguous bytes), 8 chains. */
ONNXC_DEFINE_COLS(rows_1, 1, 8, 1, 0)
ONNXC_DEFINE_COLS(masked_1, 1, 4, 3, 1)
ONNXC_DEFINE_COLS(masked_2, 2, 4, 1, 1)
ONNXC_DEFINE_COLS(masked_3, 3, 4, 1, 1)
ONNXC_DEFINE_COLS(masked_4, 4, 2, 1, 1)

typedef void (*cols_fn)(i64, const float *, i64, i64, const float *, i64, i64,
                        i64, float *, i64, i64, int, const tile_ep *);
static const cols_fn col_kernels[4] = {cols_1, cols_2, cols_3, cols_4};
static const cols_fn masked_kernels[4] = {masked_1, masked_2, masked_3,
                                          masked_4};

/* dots_R_Q: C[R x nc] (+)= A[R x k] * B[k x nc] for nc <= Q, rows of A and
 * columns of B contiguous (column q at b + q * csb): R x Q vector
 * accumulators (U sets) over 8 values of k at a time, summed across lanes
 * at the end. */
#define ONNXC_DEFINE_DOTS(R, Q, U)                                             \
  static void dots_##R(i64 k, const float *a, i64 rsa, const float *b,         \
                       i64 csb, i64 nc, float *c, i64 rsc, i64 csc,            \
                       int accumulate, const tile_ep *ep) {                    \
    __m256 acc[U][R][Q];                                                       \
    const float *col[Q];                                                       \
    int r, q, u;                                                               \
    i64 p = 0;                                                                 \
    /* Columns past nc repeat column 0: computed, never stored. */             \
    for (q = 0; q < Q; ++q)                                                    \
      col[q] = b + (q < nc ? q : 0) * csb;                                     \
    _Pragma("GCC unroll 8") for (u = 0; u < U; ++u)                            \
        _Pragma("GCC unroll 8") for (r = 0; r < R; ++r)                        \
            _Pragma("GCC unroll 8") for (q = 0; q < Q; ++q) acc[u][r][q] =     \
                _mm256_setzero_ps();                                           \
    for (; p + 8 * U <= k; p += 8 * U)                                         \
      _Pragma("GCC unroll 8") for (u = 0; u < U; ++u) {                        \
        __m256 bv[Q];                                                          \
        _Pragma("GCC unroll 8") for (q = 0; q < Q; ++q) bv[q] =                \
            _mm256_loadu_ps(col[q] + p + 8 * u);                               \
        _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                      \
          __m256 av = _mm256_loadu_ps(a + r * rsa + p + 8 * u);                \
          _Pragma("GCC unroll 8") for (q = 0; q < Q; ++q) acc[u][r][q] =       \
              _mm256_fmadd_ps(av, bv[q], acc[u][r][q]);                        \
        }                                                                      \
      }                                                                        \
    for (; p < k; p += 8) { /* the rest into the first set, masked */          \
      __m256i mk = lanes8(k - p);                                              \
      __m256 bv[Q];                                                            \
      _Pragma("GCC unroll 8") for (q = 0; q < Q; ++q) bv[q] =                  \
          _mm256_maskload_ps(col[q] + p, mk);                                  \
      _Pragma("GCC unroll 8") for (r = 0; r < R; ++r) {                        \
        __m256 av = _mm256_maskload_ps(a + r * rsa + p, mk);                   \
        _Pragma("GCC unroll 8") for (q = 0; q < Q; ++q) acc[0][r][q] =         \
            _mm256_fmadd_ps(av, bv[q], acc[0][r][q]);                          \
      }                                                                        \
    }                                                                          \
    for (r = 0; r < R; ++r)                                                    \
      for (q = 0; q < nc; ++q) {                                               \
        float *dst = c + r * rsc + q * csc;                                    \
        __m256 t = acc[0][r][q];                                               \
        float s;                                                               \
        for (u = 1; u < U; ++u)                                                \
          t = _mm256_add_ps(t, acc[u][r][q]);                                  \
        s = hsum(t);                                                           \
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

ONNXC_DEFINE_DOTS(1, 4, 2)
ONNXC_DEFINE_DOTS(2, 4, 1)
ONNXC_DEFINE_DOTS(3, 2, 1)
ONNXC_DEFINE_DOTS(4, 2, 1)

typedef void (*dots_fn)(i64, const float *, i64, const float *, i64, i64,
                        float *, i64, i64, int, const tile_ep *);
static const dots_fn dot_kernels[4] = {dots_1, dots_2, dots_3, dots_4};
static const int dot_cols[4] = {4, 4, 2, 2};

/* C[m x n] (+)= A * B for m <= 4, A's rows and B's columns contiguous. */
static void small_dots(i64 m, i64 n, i64 k, const float *a, i64 rsa,
                       const float *b, i64 csb, float *c, i64 rsc, i64 csc,
                       int accumulate, const tile_ep *ep) {
  i64 j, q = dot_cols[m - 1];
  tile_ep part;
  for (j = 0; j < n; j += q)
    dot_kernels[m - 1](k, a, rsa, b + j * csb, csb, min64(q, n - j),
                       c + j * csc, rsc, csc, accumulate,
                       ep_from(ep, j, &part));
}

static int sgemm_small_avx2(i64 m, i64 n, i64 k, const float *a, i64 rsa,
                            i64 csa, const float *b, i64 rsb, i64 csb,
                            int packed, float *c, i64 rsc, i64 csc,
                            int accumulate, const tile_ep *ep) {
  if (m <= 4) {
    if (packed) {
      /* Panels k * 32 floats apart, padded with zeros: no masks. */
      col_kernels[m - 1](k, a, rsa, csa, b, k * NR, NR, n, c, rsc, csc,
                         accumulate, ep);
    } else if (csb == 1) {
      /* Row-major: whole panels, then the rest with masked loads. */
      i64 whole = n / NR * NR, wide = m == 1 ? n / (2 * NR) * (2 * NR) : 0;
      tile_ep part;
      if (wide > 0)
        rows_1(k, a, rsa, csa, b, NR, rsb, wide, c, rsc, csc, accumulate, ep);
      if (whole > wide)
        col_kernels[m - 1](k, a, rsa, csa, b + wide, NR, rsb, whole - wide,
                           c + wide * csc, rsc, csc, accumulate,
                           ep_from(ep, wide, &part));
      if (n > whole)
        masked_kernels[m - 1](k, a, rsa, csa, b + whole, NR, rsb, n - whole,
                              c + whole * csc, rsc, csc, accumulate,
                              ep_from(ep, whole, &part));
    } else if (rsb == 1 && csa == 1) {
      small_dots(m, n, k, a, rsa, b, csb, c, rsc, csc, accumulate, ep);
    } else {
      return 0;
    }
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
    return sgemm_small_avx2(n, m, k, b, csb, rsb, a, csa, rsa, 0, c, csc, rsc,
                            accumulate, e);
  }
  return 0;
}

void onnxc_rt_gemv_fill_avx2(onnxc_kernels *k) {
  k->sgemm_small = sgemm_small_avx2;
}

#else
typedef int onnxc_gemv_avx2_empty; /* not x86-64: nothing here */
#endif
