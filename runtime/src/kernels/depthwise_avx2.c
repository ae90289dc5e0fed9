/*===- kernels/depthwise_avx2.c - Depthwise convolutions, AVX2 + FMA ------===*
 *
 * The AVX2 tier's dw_channel (dispatch.h; depthwise.c drives it, one
 * channel at a time), 8 outputs per vector:
 * - 3 x 3, unit dilation, stride 1: strips of 8 output columns, rows
 *   rolling down the strip. Each input row of the strip is loaded once
 *   (two vectors; the taps shifted by one and two columns made in
 *   registers) for the three output rows that read it: per 8 outputs, 2
 *   loads, 3 shuffles and 9 FMAs in three chains (one per window row).
 *   Strips whose 16 columns are not all inside the input load each shift
 *   masked instead.
 * - 3 x 3, unit dilation, stride 2: the same per output row, input rows
 *   2 oh .. 2 oh + 2 (the last shared with the next output row); a row's
 *   taps are its even columns, its odd ones and the even ones shifted by
 *   one (a lane rotation and one more column).
 * Both may read an unpadded input in place (dw_reads_padding): loads are
 * masked to the input's columns, rows outside it are zeros; strips wholly
 * inside the input use plain loads.
 * - Any other window (5 x 5, 7 x 7, dilated, 1-D) of stride 1 or 2: per
 *   output row, 32 columns a step (the row's tail masked), 8 FMA chains
 *   (blocks of 8 outputs times partial sums over the taps), each tap's
 *   weight broadcast once for the blocks and its inputs one load per 8
 *   outputs (stride 1) or two deinterleaved (stride 2). Other strides,
 *   strided input columns, or more than 256 taps: a gather per tap.
 * Compiled with -mavx2 -mfma; called only when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "lanes_avx2.h"

static inline int all_lanes(__m256i m) {
  return _mm256_movemask_ps(_mm256_castsi256_ps(m)) == 0xff;
}

/* 8 floats from column c of `row` with the lanes of m (zeros elsewhere,
 * never read); through an integer, as c may be negative. */
static inline __m256 load_masked(const float *row, i64 c, __m256i m) {
  return _mm256_maskload_ps(
      (const float *)((intptr_t)row + (intptr_t)c * (intptr_t)sizeof(float)),
      m);
}

/* The even (odd) lanes of the 16 floats lo:hi. */
static inline __m256 evens(__m256 lo, __m256 hi) {
  __m256 s = _mm256_shuffle_ps(lo, hi, 0x88);
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), 0xD8));
}
static inline __m256 odds(__m256 lo, __m256 hi) {
  __m256 s = _mm256_shuffle_ps(lo, hi, 0xDD);
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(s), 0xD8));
}

/* p0 + the nine products of a 3 x 3 window, t[r][c] holding the inputs of
 * window row r, column c for 8 outputs: three FMA chains, one per row. */
ONNXC_INLINE static __m256 sum3x3(const __m256 *wk, __m256 t[3][3], __m256 p0) {
  __m256 p1 = _mm256_mul_ps(wk[3], t[1][0]);
  __m256 p2 = _mm256_mul_ps(wk[6], t[2][0]);
  p0 = _mm256_fmadd_ps(wk[0], t[0][0], p0);
  p0 = _mm256_fmadd_ps(wk[1], t[0][1], p0);
  p1 = _mm256_fmadd_ps(wk[4], t[1][1], p1);
  p2 = _mm256_fmadd_ps(wk[7], t[2][1], p2);
  p0 = _mm256_fmadd_ps(wk[2], t[0][2], p0);
  p1 = _mm256_fmadd_ps(wk[5], t[1][2], p1);
  p2 = _mm256_fmadd_ps(wk[8], t[2][2], p2);
  return _mm256_add_ps(_mm256_add_ps(p0, p1), p2);
}

/* What finishes 8 outputs: the bias (or Y's values), the clamp. Copied
 * out of dw_args into locals: the vector stores may alias anything, so
 * fields read through the pointer would be loaded again after each. */
typedef struct dw_epilogue {
  int has_bias, has_clamp;
  __m256 bias, lo, hi;
} dw_epilogue;

static inline dw_epilogue epilogue(const dw_args *d) {
  dw_epilogue e;
  e.has_bias = d->bias != NULL;
  e.has_clamp = d->clamp != NULL;
  e.bias = _mm256_set1_ps(d->bias ? *d->bias : 0.0f);
  e.lo = _mm256_set1_ps(d->clamp ? d->clamp->lo : 0.0f);
  e.hi = _mm256_set1_ps(d->clamp ? d->clamp->hi : 0.0f);
  return e;
}

/* The bias (or Y's values), the sum, the clamp, the store of 8 outputs
 * (n of them valid). */
ONNXC_INLINE static void finish(const dw_epilogue *e, float *yr, i64 n,
                                const __m256 *wk, __m256 t[3][3]) {
  __m256i m = lanes(0, n);
  __m256 acc = e->has_bias ? e->bias
               : n == 8    ? _mm256_loadu_ps(yr)
                           : _mm256_maskload_ps(yr, m);
  acc = sum3x3(wk, t, acc);
  if (e->has_clamp)
    acc = _mm256_min_ps(e->hi, _mm256_max_ps(e->lo, acc));
  store_first(yr, acc, n);
}

/* The padding geometry of a 3 x 3 call: the given one, or (no padding) the
 * rows and columns the windows read. */
static void geometry(const dw_args *d, i64 *pad_top, i64 *pad_left, i64 *in_h,
                     i64 *in_w) {
  if (d->gm) {
    *pad_top = d->gm->pad_top;
    *pad_left = d->gm->pad_left;
    *in_h = d->gm->in_h;
    *in_w = d->gm->in_w;
  } else {
    *pad_top = *pad_left = 0;
    *in_h = (d->out_h - 1) * d->stride_h + 3;
    *in_w = (d->out_w - 1) * d->stride_w + 3;
  }
}

static void dw3x3_s1(const dw_args *d, const __m256 *wk) {
  const dw_epilogue e = epilogue(d);
  const float *x = d->x;
  float *y = d->y;
  const i64 xrow = d->xrow, yrow = d->yrow, out_h = d->out_h;
  i64 pad_top, pad_left, in_h, in_w, ow;
  geometry(d, &pad_top, &pad_left, &in_h, &in_w);
  for (ow = 0; ow < d->out_w; ow += 8) {
    const i64 n = min64(8, d->out_w - ow), c = ow - pad_left;
    __m256i m[3];
    __m256 t[3][3];
    int a, b, plain = 1;
    i64 r;
    /* Shift b reads columns c + b + l for the n lanes l in use; the plain
     * path loads columns [c, c + 16) (two vectors, shifted in registers). */
    for (b = 0; b < 3; ++b) {
      m[b] = lanes(-(c + b), min64(n, in_w - (c + b)));
      plain = plain && all_lanes(m[b]);
    }
    plain = plain && c + 16 <= in_w;
    for (a = 0; a < 3; ++a)
      for (b = 0; b < 3; ++b)
        t[a][b] = _mm256_setzero_ps();
    for (r = 0; r < out_h + 2; ++r) {
      i64 ir = r - pad_top;
      for (b = 0; b < 3; ++b) {
        t[0][b] = t[1][b];
        t[1][b] = t[2][b];
      }
      if (ir < 0 || ir >= in_h) {
        for (b = 0; b < 3; ++b)
          t[2][b] = _mm256_setzero_ps();
      } else if (plain) {
        /* Two loads; the taps shifted by 1 and 2 columns from them. */
        const float *row = x + ir * xrow + c;
        __m256 v0 = _mm256_loadu_ps(row), v1 = _mm256_loadu_ps(row + 8);
        __m256i mid = _mm256_castps_si256(_mm256_permute2f128_ps(v0, v1, 0x21));
        t[2][0] = v0;
        t[2][1] = _mm256_castsi256_ps(
            _mm256_alignr_epi8(mid, _mm256_castps_si256(v0), 4));
        t[2][2] = _mm256_castsi256_ps(
            _mm256_alignr_epi8(mid, _mm256_castps_si256(v0), 8));
      } else {
        const float *row = x + ir * xrow;
        for (b = 0; b < 3; ++b)
          t[2][b] = load_masked(row, c + b, m[b]);
      }
      /* Output row r - 2 reads input rows r - 2, r - 1, r. */
      if (r >= 2)
        finish(&e, y + (r - 2) * yrow + ow, n, wk, t);
    }
  }
}

/* The taps of input row ir for 8 outputs of stride 2 from column c:
 * columns c + 2l (t[0]), c + 2l + 1 (t[1]), c + 2l + 2 (t[2]); m0, m1 the
 * lanes of the loads from c and c + 8, `last` whether column c + 16 is
 * read (8 outputs) and inside the input. */
ONNXC_INLINE static void taps_s2(const dw_args *d, i64 ir, i64 in_h, i64 c,
                                 int plain, __m256i m0, __m256i m1, int last,
                                 __m256 *t) {
  const __m256i rot = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 0);
  const float *row;
  __m256 v0, v1, e;
  if (ir < 0 || ir >= in_h) {
    t[0] = t[1] = t[2] = _mm256_setzero_ps();
    return;
  }
  row = d->x + ir * d->xrow;
  if (plain) {
    v0 = _mm256_loadu_ps(row + c);
    v1 = _mm256_loadu_ps(row + c + 8);
  } else {
    v0 = load_masked(row, c, m0);
    v1 = load_masked(row, c + 8, m1);
  }
  t[0] = e = evens(v0, v1);
  t[1] = odds(v0, v1);
  /* Lanes 1..7 of the evens, then column c + 16. */
  t[2] = _mm256_blend_ps(_mm256_permutevar8x32_ps(e, rot),
                         _mm256_set1_ps(last ? row[c + 16] : 0.0f), 0x80);
}

static void dw3x3_s2(const dw_args *d, const __m256 *wk) {
  const dw_epilogue e = epilogue(d);
  i64 pad_top, pad_left, in_h, in_w, ow, oh;
  geometry(d, &pad_top, &pad_left, &in_h, &in_w);
  for (ow = 0; ow < d->out_w; ow += 8) {
    const i64 n = min64(8, d->out_w - ow), c = 2 * ow - pad_left;
    /* The windows read columns c .. c + 2n. */
    const i64 end = min64(2 * n + 1, in_w - c);
    const __m256i m0 = lanes(-c, end), m1 = lanes(-c - 8, end - 8);
    const int last = n == 8 && c + 16 >= 0 && c + 16 < in_w;
    const int plain = all_lanes(m0) && all_lanes(m1);
    __m256 t[3][3];
    int b;
    taps_s2(d, -pad_top, in_h, c, plain, m0, m1, last, t[0]);
    for (oh = 0; oh < d->out_h; ++oh) {
      taps_s2(d, 2 * oh + 1 - pad_top, in_h, c, plain, m0, m1, last, t[1]);
      taps_s2(d, 2 * oh + 2 - pad_top, in_h, c, plain, m0, m1, last, t[2]);
      finish(&e, d->y + oh * d->yrow + ow, n, wk, t);
      for (b = 0; b < 3; ++b)
        t[0][b] = t[2][b];
    }
  }
}

/* The taps of a window, flattened: input offset from the window's origin
 * and weight. Windows of more taps take the gather path. */
#define MAXT 256
typedef struct dw_taps {
  i64 n;
  i64 off[MAXT];
  float w[MAXT];
} dw_taps;

static void taps_of(const dw_args *d, dw_taps *t) {
  i64 kh, kw;
  t->n = 0;
  for (kh = 0; kh < d->kernel_h; ++kh)
    for (kw = 0; kw < d->kernel_w; ++kw) {
      t->off[t->n] = kh * d->dilation_h * d->xrow + kw * d->dilation_w;
      t->w[t->n++] = d->w[kh * d->wrow + kw * d->wcol];
    }
}

/* R rows of 8 V outputs from input column `src` (the windows' origin of
 * the first row; the next rows' are xstep floats apart) into Y at yr
 * (rows ystep apart), n outputs of each row valid (masked when n < 8 V),
 * stride S = 1 or 2 over unit-stride input rows. The FMA latency needs 8
 * independent chains: each of the R V blocks sums its taps in
 * P = 8 / (R V) partial sums (tap t into sum t % P; the bias or Y's
 * values start the first), added in order at the end. Each tap's weight
 * is broadcast once for the blocks. Masked loads read only the columns
 * the windows read; unmasked ones (stride 2) read one column past the
 * last window's, which the caller guarantees to exist. */
ONNXC_INLINE static void dw_chunk(const dw_taps *tp, const dw_epilogue *e,
                                  const float *src, i64 xstep, float *yr,
                                  i64 ystep, i64 n, const int R, const int V,
                                  const int S, const int masked) {
  const int B = R * V, P = 8 / B;
  __m256 acc[8][8];
  __m256i m[4], lo[4], hi[4];
  i64 t = 0;
  int j, p, q;
  for (j = 0; j < V; ++j) {
    i64 nj = n - 8 * j;
    m[j] = lanes(0, nj);
    /* Stride 2 reads columns 0 .. 2 nj - 2 of the block's windows. */
    lo[j] = lanes(0, 2 * nj - 1);
    hi[j] = lanes(0, 2 * nj - 9);
  }
  for (q = 0; q < B; ++q) {
    float *y = yr + (q / V) * ystep + 8 * (q % V);
    acc[q][0] = e->has_bias ? e->bias
                : masked    ? _mm256_maskload_ps(y, m[q % V])
                            : _mm256_loadu_ps(y);
    for (p = 1; p < P; ++p)
      acc[q][p] = _mm256_setzero_ps();
  }
#define ONNXC_DW_TAP(T, P_)                                                    \
  do {                                                                         \
    const __m256 w_ = _mm256_broadcast_ss(tp->w + (T));                        \
    for (q = 0; q < B; ++q) {                                                  \
      const float *s_ = src + (q / V) * xstep + tp->off[T];                    \
      const int j_ = q % V;                                                    \
      __m256 v_;                                                               \
      if (S == 1)                                                              \
        v_ = masked ? _mm256_maskload_ps(s_ + 8 * j_, m[j_])                   \
                    : _mm256_loadu_ps(s_ + 8 * j_);                            \
      else                                                                     \
        v_ = masked ? evens(_mm256_maskload_ps(s_ + 16 * j_, lo[j_]),          \
                            _mm256_maskload_ps(s_ + 16 * j_ + 8, hi[j_]))      \
                    : evens(_mm256_loadu_ps(s_ + 16 * j_),                     \
                            _mm256_loadu_ps(s_ + 16 * j_ + 8));                \
      acc[q][P_] = _mm256_fmadd_ps(w_, v_, acc[q][P_]);                        \
    }                                                                          \
  } while (0)
  for (; t + P <= tp->n; t += P)
    for (p = 0; p < P; ++p)
      ONNXC_DW_TAP(t + p, p);
  for (; t < tp->n; ++t)
    ONNXC_DW_TAP(t, 0);
#undef ONNXC_DW_TAP
  for (q = 0; q < B; ++q) {
    float *y = yr + (q / V) * ystep + 8 * (q % V);
    __m256 sum = acc[q][0];
    for (p = 1; p < P; ++p)
      sum = _mm256_add_ps(sum, acc[q][p]);
    if (e->has_clamp)
      sum = _mm256_min_ps(e->hi, _mm256_max_ps(e->lo, sum));
    if (masked)
      store_first(y, sum, n - 8 * (q % V));
    else
      _mm256_storeu_ps(y, sum);
  }
}

/* The last 1 to 32 outputs of a row, masked. */
static void dw_tail(const dw_taps *tp, const dw_epilogue *e, const float *src,
                    float *yr, i64 n, const int S) {
  switch ((n + 7) / 8) {
  case 1:
    dw_chunk(tp, e, src, 0, yr, 0, n, 1, 1, S, 1);
    break;
  case 2:
    dw_chunk(tp, e, src, 0, yr, 0, n, 1, 2, S, 1);
    break;
  case 3:
    dw_chunk(tp, e, src, 0, yr, 0, n, 1, 3, S, 1);
    break;
  default:
    dw_chunk(tp, e, src, 0, yr, 0, n, 1, 4, S, 1);
    break;
  }
}

/* Any window with stride 1 or 2 over unit-stride input rows (5 x 5,
 * 7 x 7, dilated, 1-D, ...) of at most MAXT taps: per output row, 32
 * columns a step, then the rest masked. Rows of at most 16 outputs (7 x 7
 * and 14 x 14 maps) go 4 or 2 rows at a time, so that their blocks make
 * the 8 chains with fewer partial sums (and fewer loads per FMA). */
static void dw_rows(const dw_args *d, const int S) {
  const dw_epilogue e = epilogue(d);
  const i64 xstep = d->stride_h * d->xrow;
  dw_taps tp;
  i64 oh = 0, ow;
  taps_of(d, &tp);
  if (d->out_w <= 8)
    for (; oh + 4 <= d->out_h; oh += 4)
      dw_chunk(&tp, &e, d->x + oh * xstep, xstep, d->y + oh * d->yrow, d->yrow,
               d->out_w, 4, 1, S, 1);
  else if (d->out_w <= 16)
    for (; oh + 2 <= d->out_h; oh += 2)
      dw_chunk(&tp, &e, d->x + oh * xstep, xstep, d->y + oh * d->yrow, d->yrow,
               d->out_w, 2, 2, S, 1);
  for (; oh < d->out_h; ++oh) {
    const float *x0 = d->x + oh * xstep;
    float *yr = d->y + oh * d->yrow;
    /* Unmasked stride-2 chunks read one column past their windows: a
     * later output's. */
    for (ow = 0; ow + 32 + (S == 2) <= d->out_w; ow += 32)
      dw_chunk(&tp, &e, x0 + ow * S, 0, yr + ow, 0, 32, 1, 4, S, 0);
    if (ow < d->out_w)
      dw_tail(&tp, &e, x0 + ow * S, yr + ow, d->out_w - ow, S);
  }
}

/* Other strides or strided input columns: a gather per tap, 8 outputs a
 * step. */
static void dw_gather(const dw_args *d) {
  const i64 xcol = d->xcol, sw = d->stride_w;
  const __m256i idx =
      _mm256_mullo_epi32(_mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7),
                         _mm256_set1_epi32((int)(sw * xcol)));
  const dw_epilogue e = epilogue(d);
  i64 oh, ow, kh, kw;
  for (oh = 0; oh < d->out_h; ++oh) {
    float *yr = d->y + oh * d->yrow;
    for (ow = 0; ow < d->out_w; ow += 8) {
      const __m256i m = lanes(0, d->out_w - ow);
      __m256 acc = e.has_bias ? e.bias : _mm256_maskload_ps(yr + ow, m);
      for (kh = 0; kh < d->kernel_h; ++kh) {
        const float *row =
            d->x + (oh * d->stride_h + kh * d->dilation_h) * d->xrow;
        for (kw = 0; kw < d->kernel_w; ++kw) {
          const float *src = row + (ow * sw + kw * d->dilation_w) * xcol;
          __m256 v = _mm256_mask_i32gather_ps(_mm256_setzero_ps(), src, idx,
                                              _mm256_castsi256_ps(m), 4);
          acc = _mm256_fmadd_ps(
              _mm256_broadcast_ss(d->w + kh * d->wrow + kw * d->wcol), v, acc);
        }
      }
      if (e.has_clamp)
        acc = _mm256_min_ps(e.hi, _mm256_max_ps(e.lo, acc));
      store_first(yr + ow, acc, d->out_w - ow);
    }
  }
}

static void dw_channel_avx2(const dw_args *d) {
  if (d->kernel_h == 3 && d->kernel_w == 3 && d->xcol == 1 &&
      d->dilation_h == 1 && d->dilation_w == 1 && d->stride_h == d->stride_w &&
      (d->stride_w == 1 || d->stride_w == 2)) {
    __m256 wk[9];
    int i;
    for (i = 0; i < 9; ++i)
      wk[i] = _mm256_set1_ps(d->w[(i / 3) * d->wrow + (i % 3) * d->wcol]);
    (d->stride_w == 1 ? dw3x3_s1 : dw3x3_s2)(d, wk);
    return;
  }
  if (d->xcol == 1 && d->stride_w == 1 && d->kernel_h * d->kernel_w <= MAXT)
    dw_rows(d, 1);
  else if (d->xcol == 1 && d->stride_w == 2 &&
           d->kernel_h * d->kernel_w <= MAXT)
    dw_rows(d, 2);
  else
    dw_gather(d);
}

/* The strips read an unpadded input in place for a 3 x 3 with unit
 * dilation and equal strides 1 or 2. Not when y is x, except with one
 * strip (out_w <= 8) of stride 1: output row oh is stored after input row
 * oh + 2 - pad_top is loaded, and no later step loads a row it overwrote
 * when pad_top < 3. */
static int dw_reads_padding_avx2(const onnxc_conv2d_params *q) {
  return q->kernel_h == 3 && q->kernel_w == 3 && q->x_strides[4] == 1 &&
         q->dilation_h == 1 && q->dilation_w == 1 &&
         q->stride_h == q->stride_w && (q->stride_w == 1 || q->stride_w == 2) &&
         (!(q->flags & ONNXC_CONV_IN_PLACE) ||
          (q->stride_w == 1 && q->out_w <= 8 && q->pad_top < 3));
}

void onnxc_rt_depthwise_fill_avx2(onnxc_kernels *k) {
  k->dw_channel = dw_channel_avx2;
  k->dw_grouped_max = 4; /* groups of 8: the GEMM path (dispatch.h) */
  k->dw_reads_padding = dw_reads_padding_avx2;
}

#else
typedef int onnxc_depthwise_avx2_empty; /* not x86-64: nothing here */
#endif
