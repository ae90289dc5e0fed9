/*===- kernels/depthwise_avx512.c - Depthwise convolutions, AVX-512 ------===*
 *
 * The AVX-512 tier's dw_channel (dispatch.h; depthwise.c drives it, one
 * channel at a time): each output is a sum of KH x KW input values times
 * per-channel weights, 16 outputs per vector. 3 x 3 windows with stride 1
 * or 2 run as strip kernels that may read an unpadded input in place
 * (dw_reads_padding). Any other window (5 x 5, 7 x 7, dilated, 1-D) of
 * stride 1 or 2: per output row, 64 columns a step, 8 FMA chains (blocks
 * of 16 outputs times partial sums over the taps), each tap's weight
 * broadcast once for the blocks; other strides gather. Compiled with the
 * AVX-512 flags; called only when dispatch.c chose this tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#ifdef ONNXC_X86
#include <immintrin.h>

#include "transpose_avx512.h"

/* The lanes [0, n) of a vector, n clamped to [0, 16]. */
static __mmask16 lanes_below(i64 n) {
  return n >= 16  ? (__mmask16)0xffff
         : n <= 0 ? (__mmask16)0
                  : (__mmask16)((1u << n) - 1u);
}

/* The lanes l of a 16-float load from column c with 0 <= c + l < n. */
static __mmask16 cols_in(i64 c, i64 n) {
  return (__mmask16)(lanes_below(n - c) & ~lanes_below(-c));
}

/* p0 + the nine products of a 3 x 3 window, tap[r][c] holding the inputs
 * of window row r, column c for 16 outputs: three FMA chains, one per row. */
ONNXC_INLINE static __m512 dw3x3_sum(const __m512 *wk, __m512 tap[3][3],
                                     __m512 p0) {
  __m512 p1 = _mm512_mul_ps(wk[3], tap[1][0]);
  __m512 p2 = _mm512_mul_ps(wk[6], tap[2][0]);
  p0 = _mm512_fmadd_ps(wk[0], tap[0][0], p0);
  p0 = _mm512_fmadd_ps(wk[1], tap[0][1], p0);
  p1 = _mm512_fmadd_ps(wk[4], tap[1][1], p1);
  p2 = _mm512_fmadd_ps(wk[7], tap[2][1], p2);
  p0 = _mm512_fmadd_ps(wk[2], tap[0][2], p0);
  p1 = _mm512_fmadd_ps(wk[5], tap[1][2], p1);
  p2 = _mm512_fmadd_ps(wk[8], tap[2][2], p2);
  return _mm512_add_ps(_mm512_add_ps(p0, p1), p2);
}

/* Depthwise 3 x 3 of one channel with unit-stride input rows and stride S
 * (1 or 2) along the row; the nine weights stay in registers.
 *
 * Blocks of 16 outputs with dilation 1 stream each input row: every
 * vector is loaded once, and the taps shifted by one and two columns are
 * lane shifts (valignd) of it and the next vector (S = 1), or, for S = 2,
 * the even and odd lanes of a pair of vectors (vpermt2ps) and the even
 * lanes shifted by one. Per 16 outputs: 3 (S = 1) or 6 (S = 2) loads, 6
 * shuffles, 9 FMAs in three chains (one per row), instead of 9 or 18 loads
 * that mostly straddle cache lines, in one chain of 9 FMAs. The loads are
 * masked to the columns the windows read, so nothing past them is read
 * (the last block of a row may have fewer than 16 outputs). Other
 * dilations load each tap, masked. */
ONNXC_INLINE static void dw3x3(int S, const float *xc, i64 xrow, i64 sh, i64 dh,
                               i64 dw, const float *wc, i64 wrow, i64 wcol,
                               float *yc, i64 yrow, i64 out_h, i64 out_w,
                               const dw_geom *gm, const float *bias,
                               const tile_ep *ep) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12,
                                        10, 8, 6, 4, 2, 0);
  const __m512i odd = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15, 13,
                                       11, 9, 7, 5, 3, 1);
  const __m512 vbias = _mm512_set1_ps(bias ? *bias : 0.0f);
  const __m512 vlo = _mm512_set1_ps(ep ? ep->lo : 0.0f);
  const __m512 vhi = _mm512_set1_ps(ep ? ep->hi : 0.0f);
  /* Columns of a row that the windows read. */
  const i64 xw = (out_w - 1) * S + 2 * dw + 1;
  __m512 wk[9];
  i64 oh, ow;
  int i;
  for (i = 0; i < 9; ++i)
    wk[i] = _mm512_set1_ps(wc[(i / 3) * wrow + (i % 3) * wcol]);
  /* The strips below read the input in place around its padding when `gm`
   * is given (rows outside it are zero taps, columns outside masked out
   * of the loads); else every window is inside. */
  const i64 pad_top = gm ? gm->pad_top : 0, pad_left = gm ? gm->pad_left : 0;
  const i64 in_h = gm ? gm->in_h : (out_h - 1) * sh + 2 * dh + 1;
  const i64 in_w = gm ? gm->in_w : xw;
  if (S == 1 && sh == 1 && dh == 1 && dw == 1) {
    /* Strips of 16 output columns, rows rolling down each strip: every
     * input row of the strip is loaded and shifted once, for the three
     * output rows that read it (instead of three times), and the strip's
     * rows are in L1 (the input is a plane or at most a few rows wide).
     * tap[a][b]: row a of the window, shifted by b columns. */
    for (ow = 0; ow < out_w; ow += 16) {
      const __mmask16 mask = lanes_below(out_w - ow);
      const i64 c = ow - pad_left;
      const __mmask16 m0 = cols_in(c, in_w), m1 = cols_in(c + 16, in_w);
      /* No address formed for a load without lanes. */
      const i64 off0 = m0 ? c : 0, off1 = m1 ? c + 16 : 0;
      __m512 tap[3][3];
      i64 r;
      int a, b;
      for (a = 0; a < 3; ++a)
        for (b = 0; b < 3; ++b)
          tap[a][b] = _mm512_setzero_ps();
      for (r = 0; r < out_h + 2; ++r) {
        i64 ir = r - pad_top;
        int in = ir >= 0 && ir < in_h;
        const float *row = xc + (in ? ir : 0) * xrow;
        __m512 v = _mm512_maskz_loadu_ps(in ? m0 : 0, row + off0);
        __m512 next = _mm512_maskz_loadu_ps(in ? m1 : 0, row + off1);
        __m512 acc;
        float *yr;
        tap[0][0] = tap[1][0];
        tap[0][1] = tap[1][1];
        tap[0][2] = tap[1][2];
        tap[1][0] = tap[2][0];
        tap[1][1] = tap[2][1];
        tap[1][2] = tap[2][2];
        tap[2][0] = v;
        tap[2][1] = _mm512_castsi512_ps(_mm512_alignr_epi32(
            _mm512_castps_si512(next), _mm512_castps_si512(v), 1));
        tap[2][2] = _mm512_castsi512_ps(_mm512_alignr_epi32(
            _mm512_castps_si512(next), _mm512_castps_si512(v), 2));
        if (r < 2)
          continue;
        /* Output row r - 2 reads input rows r - 2, r - 1, r. */
        yr = yc + (r - 2) * yrow + ow;
        {
          acc = dw3x3_sum(wk, tap,
                          bias ? vbias : _mm512_maskz_loadu_ps(mask, yr));
        }
        if (ep)
          acc = _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc));
        _mm512_mask_storeu_ps(yr, mask, acc);
      }
    }
    return;
  }
  if (S == 2 && sh == 2 && dh == 1 && dw == 1) {
    /* The same for stride 2: rows 2 oh, 2 oh + 1, 2 oh + 2 of the input,
     * the last shared with the next output row. A row's taps: its even
     * columns, its odd ones, and the even ones shifted by one. */
    for (ow = 0; ow < out_w; ow += 16) {
      const i64 c = 2 * ow - pad_left;
      const __mmask16 mask = lanes_below(out_w - ow);
      const __mmask16 ma = cols_in(c, in_w), mb = cols_in(c + 16, in_w);
      const __mmask16 mc = (__mmask16)(cols_in(c + 32, in_w) & 1u);
      const i64 offa = ma ? c : 0, offb = mb ? c + 16 : 0,
                offc = mc ? c + 32 : 0;
      __m512 tap[3][3];
      int a;
      /* The taps of input row IR (zeros outside the input). */
#define ONNXC_DW_TAPS2(T, IR)                                                  \
  do {                                                                         \
    i64 ir_ = (IR);                                                            \
    int in_ = ir_ >= 0 && ir_ < in_h;                                          \
    const float *r_ = xc + (in_ ? ir_ : 0) * xrow;                             \
    __m512 v0_ = _mm512_maskz_loadu_ps(in_ ? ma : 0, r_ + offa);               \
    __m512 v1_ = _mm512_maskz_loadu_ps(in_ ? mb : 0, r_ + offb);               \
    __m512 n0_ = _mm512_maskz_loadu_ps(in_ ? mc : 0, r_ + offc);               \
    (T)[0] = _mm512_permutex2var_ps(v0_, even, v1_);                           \
    (T)[1] = _mm512_permutex2var_ps(v0_, odd, v1_);                            \
    (T)[2] = _mm512_castsi512_ps(_mm512_alignr_epi32(                          \
        _mm512_castps_si512(n0_), _mm512_castps_si512((T)[0]), 1));            \
  } while (0)
      ONNXC_DW_TAPS2(tap[0], -pad_top);
      for (oh = 0; oh < out_h; ++oh) {
        float *yr = yc + oh * yrow + ow;
        __m512 acc;
        ONNXC_DW_TAPS2(tap[1], 2 * oh + 1 - pad_top);
        ONNXC_DW_TAPS2(tap[2], 2 * oh + 2 - pad_top);
        acc =
            dw3x3_sum(wk, tap, bias ? vbias : _mm512_maskz_loadu_ps(mask, yr));
        if (ep)
          acc = _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc));
        _mm512_mask_storeu_ps(yr, mask, acc);
        for (a = 0; a < 3; ++a)
          tap[0][a] = tap[2][a];
      }
#undef ONNXC_DW_TAPS2
    }
    return;
  }
  for (oh = 0; oh < out_h; ++oh) {
    const float *r0 = xc + oh * sh * xrow;
    const float *rows[3];
    float *yr = yc + oh * yrow;
    int a, b;
    rows[0] = r0;
    rows[1] = r0 + dh * xrow;
    rows[2] = r0 + 2 * dh * xrow;
    ow = 0;
    if (dw == 1) {
      /* cur[a]: the vector at the block's first column (S = 1); v0, v1
       * and ev: the block's 32 columns and their even lanes (S = 2). */
      __m512 cur[3], v0[3], v1[3], ev[3];
      for (a = 0; a < 3; ++a) {
        cur[a] = v0[a] = _mm512_maskz_loadu_ps(lanes_below(xw), rows[a]);
        v1[a] = ev[a] = v0[a];
        if (S == 2) {
          v1[a] = _mm512_maskz_loadu_ps(lanes_below(xw - 16), rows[a] + 16);
          ev[a] = _mm512_permutex2var_ps(v0[a], even, v1[a]);
        }
      }
      for (; ow < out_w; ow += 16) {
        __mmask16 mask = lanes_below(out_w - ow);
        __m512 part[3], acc;
        for (a = 0; a < 3; ++a) {
          __m512 t0, t1, t2;
          if (S == 1) {
            __m512 next = _mm512_maskz_loadu_ps(lanes_below(xw - ow - 16),
                                                rows[a] + ow + 16);
            t0 = cur[a];
            t1 = _mm512_castsi512_ps(_mm512_alignr_epi32(
                _mm512_castps_si512(next), _mm512_castps_si512(cur[a]), 1));
            t2 = _mm512_castsi512_ps(_mm512_alignr_epi32(
                _mm512_castps_si512(next), _mm512_castps_si512(cur[a]), 2));
            cur[a] = next;
          } else {
            const float *nx = rows[a] + 2 * ow + 32;
            __m512 n0 =
                _mm512_maskz_loadu_ps(lanes_below(xw - 2 * ow - 32), nx);
            __m512 n1 =
                _mm512_maskz_loadu_ps(lanes_below(xw - 2 * ow - 48), nx + 16);
            __m512 en = _mm512_permutex2var_ps(n0, even, n1);
            t0 = ev[a];
            t1 = _mm512_permutex2var_ps(v0[a], odd, v1[a]);
            t2 = _mm512_castsi512_ps(_mm512_alignr_epi32(
                _mm512_castps_si512(en), _mm512_castps_si512(ev[a]), 1));
            v0[a] = n0;
            v1[a] = n1;
            ev[a] = en;
          }
          part[a] = a > 0  ? _mm512_setzero_ps()
                    : bias ? vbias
                           : _mm512_maskz_loadu_ps(mask, yr + ow);
          part[a] = _mm512_fmadd_ps(wk[a * 3], t0, part[a]);
          part[a] = _mm512_fmadd_ps(wk[a * 3 + 1], t1, part[a]);
          part[a] = _mm512_fmadd_ps(wk[a * 3 + 2], t2, part[a]);
        }
        acc = _mm512_add_ps(_mm512_add_ps(part[0], part[1]), part[2]);
        if (ep)
          acc = _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc));
        _mm512_mask_storeu_ps(yr + ow, mask, acc);
      }
    }
    for (; ow < out_w; ow += 16) {
      i64 nw = min64(16, out_w - ow);
      __mmask16 mask = lanes_below(nw);
      /* S = 2 reads columns 0 .. 2 * nw - 2 of the window. */
      __mmask16 lo = lanes_below(2 * nw - 1), hi = lanes_below(2 * nw - 17);
      __m512 acc = bias ? vbias : _mm512_maskz_loadu_ps(mask, yr + ow);
      for (a = 0; a < 3; ++a)
        for (b = 0; b < 3; ++b) {
          const float *src = rows[a] + ow * S + b * dw;
          __m512 v =
              S == 1
                  ? _mm512_maskz_loadu_ps(mask, src)
                  : _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(lo, src), even,
                                           _mm512_maskz_loadu_ps(hi, src + 16));
          acc = _mm512_fmadd_ps(wk[a * 3 + b], v, acc);
        }
      if (ep)
        acc = _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc));
      _mm512_mask_storeu_ps(yr + ow, mask, acc);
    }
  }
}

static void dw3x3_s1(const float *xc, i64 xrow, i64 sh, i64 dh, i64 dw,
                     const float *wc, i64 wrow, i64 wcol, float *yc, i64 yrow,
                     i64 out_h, i64 out_w, const dw_geom *gm, const float *bias,
                     const tile_ep *ep) {
  dw3x3(1, xc, xrow, sh, dh, dw, wc, wrow, wcol, yc, yrow, out_h, out_w, gm,
        bias, ep);
}

static void dw3x3_s2(const float *xc, i64 xrow, i64 sh, i64 dh, i64 dw,
                     const float *wc, i64 wrow, i64 wcol, float *yc, i64 yrow,
                     i64 out_h, i64 out_w, const dw_geom *gm, const float *bias,
                     const tile_ep *ep) {
  dw3x3(2, xc, xrow, sh, dh, dw, wc, wrow, wcol, yc, yrow, out_h, out_w, gm,
        bias, ep);
}

/* The taps of a window, flattened: input offset from the window's origin
 * and weight. Windows of more taps take the per-tap path. */
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

/* R rows of 16 V outputs from input column `src` (the windows' origin of
 * the first row; the next rows' are xstep floats apart) into Y at yr
 * (rows ystep apart), n outputs of each row valid, stride S = 1 or 2 over
 * unit-stride input rows. 8 independent FMA chains: each of the R V
 * blocks sums its taps in P = 8 / (R V) partial sums (tap t into sum
 * t % P; the bias or Y's values start the first), added in order at the
 * end; each tap's weight is broadcast once for the blocks. Loads are
 * masked to the columns the windows read. */
ONNXC_INLINE static void dw_chunk(const dw_taps *tp, const float *bias,
                                  const tile_ep *ep, const float *src,
                                  i64 xstep, float *yr, i64 ystep, i64 n,
                                  const int R, const int V, const int S) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12,
                                        10, 8, 6, 4, 2, 0);
  const int B = R * V, P = 8 / B;
  __m512 acc[8][8];
  __mmask16 m[4], lo[4], hi[4];
  i64 t = 0;
  int j, p, q;
  for (j = 0; j < V; ++j) {
    i64 nj = n - 16 * j;
    m[j] = lanes_below(nj);
    /* Stride 2 reads columns 0 .. 2 nj - 2 of the block's windows. */
    lo[j] = lanes_below(2 * nj - 1);
    hi[j] = lanes_below(2 * nj - 17);
  }
  for (q = 0; q < B; ++q) {
    acc[q][0] = bias ? _mm512_set1_ps(*bias)
                     : _mm512_maskz_loadu_ps(m[q % V], yr + (q / V) * ystep +
                                                           16 * (q % V));
    for (p = 1; p < P; ++p)
      acc[q][p] = _mm512_setzero_ps();
  }
#define ONNXC_DW_TAP(T, P_)                                                    \
  do {                                                                         \
    const __m512 w_ = _mm512_set1_ps(tp->w[T]);                                \
    for (q = 0; q < B; ++q) {                                                  \
      const float *s_ = src + (q / V) * xstep + tp->off[T];                    \
      const int j_ = q % V;                                                    \
      __m512 v_ = S == 1                                                       \
                      ? _mm512_maskz_loadu_ps(m[j_], s_ + 16 * j_)             \
                      : _mm512_permutex2var_ps(                                \
                            _mm512_maskz_loadu_ps(lo[j_], s_ + 32 * j_), even, \
                            _mm512_maskz_loadu_ps(hi[j_], s_ + 32 * j_ + 16)); \
      acc[q][P_] = _mm512_fmadd_ps(w_, v_, acc[q][P_]);                        \
    }                                                                          \
  } while (0)
  for (; t + P <= tp->n; t += P)
    for (p = 0; p < P; ++p)
      ONNXC_DW_TAP(t + p, p);
  for (; t < tp->n; ++t)
    ONNXC_DW_TAP(t, 0);
#undef ONNXC_DW_TAP
  for (q = 0; q < B; ++q) {
    __m512 sum = acc[q][0];
    for (p = 1; p < P; ++p)
      sum = _mm512_add_ps(sum, acc[q][p]);
    if (ep)
      sum = _mm512_min_ps(_mm512_set1_ps(ep->hi),
                          _mm512_max_ps(_mm512_set1_ps(ep->lo), sum));
    _mm512_mask_storeu_ps(yr + (q / V) * ystep + 16 * (q % V), m[q % V], sum);
  }
}

/* Any window with stride 1 or 2 over unit-stride input rows (5 x 5,
 * 7 x 7, dilated, 1-D, ...) of at most MAXT taps: per output row, 64
 * columns a step, then the rest. Rows of at most 32 outputs go 4 or 2
 * rows at a time, so that their blocks make the 8 chains with fewer
 * partial sums (and fewer loads per FMA). */
static void dw_rows(const dw_args *d, const int S) {
  const float *bias = d->bias;
  const tile_ep *ep = d->clamp;
  const i64 xstep = d->stride_h * d->xrow, w = d->out_w;
  dw_taps tp;
  i64 oh = 0, ow;
  taps_of(d, &tp);
  if (w <= 16)
    for (; oh + 4 <= d->out_h; oh += 4)
      dw_chunk(&tp, bias, ep, d->x + oh * xstep, xstep, d->y + oh * d->yrow,
               d->yrow, w, 4, 1, S);
  else if (w <= 32)
    for (; oh + 2 <= d->out_h; oh += 2)
      dw_chunk(&tp, bias, ep, d->x + oh * xstep, xstep, d->y + oh * d->yrow,
               d->yrow, w, 2, 2, S);
  for (; oh < d->out_h; ++oh) {
    const float *x0 = d->x + oh * xstep;
    float *yr = d->y + oh * d->yrow;
    for (ow = 0; ow + 64 <= w; ow += 64)
      dw_chunk(&tp, bias, ep, x0 + ow * S, 0, yr + ow, 0, 64, 1, 4, S);
    switch ((w - ow + 15) / 16) {
    case 0:
      break;
    case 1:
      dw_chunk(&tp, bias, ep, x0 + ow * S, 0, yr + ow, 0, w - ow, 1, 1, S);
      break;
    case 2:
      dw_chunk(&tp, bias, ep, x0 + ow * S, 0, yr + ow, 0, w - ow, 1, 2, S);
      break;
    case 3:
      dw_chunk(&tp, bias, ep, x0 + ow * S, 0, yr + ow, 0, w - ow, 1, 3, S);
      break;
    default:
      dw_chunk(&tp, bias, ep, x0 + ow * S, 0, yr + ow, 0, w - ow, 1, 4, S);
      break;
    }
  }
}

/* One channel (dispatch.h's dw_channel): the 3 x 3 strips for unit-stride
 * input rows and stride 1 or 2 along the row; other windows of stride 1
 * or 2 with unit-stride rows, dw_rows; else per output row, 16 columns a
 * step, each tap a gather, masked past the row's end. */
static void dw_channel_avx512(const dw_args *d) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14, 12,
                                        10, 8, 6, 4, 2, 0);
  const __m512i lane =
      _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0);
  const float *xc = d->x, *wc = d->w, *bias = d->bias;
  const tile_ep *ep = d->clamp;
  i64 xrow = d->xrow, xcol = d->xcol, oh, ow, kh, kw;
  __m512i gather_idx;
  if (d->kernel_h == 3 && d->kernel_w == 3 && xcol == 1 &&
      (d->stride_w == 1 || d->stride_w == 2)) {
    (d->stride_w == 1 ? dw3x3_s1 : dw3x3_s2)(
        xc, xrow, d->stride_h, d->dilation_h, d->dilation_w, wc, d->wrow,
        d->wcol, d->y, d->yrow, d->out_h, d->out_w, d->gm, bias, ep);
    return;
  }
  if (xcol == 1 && (d->stride_w == 1 || d->stride_w == 2) &&
      d->kernel_h * d->kernel_w <= MAXT) {
    dw_rows(d, (int)d->stride_w);
    return;
  }
  gather_idx =
      _mm512_mullo_epi32(lane, _mm512_set1_epi32((int)(d->stride_w * xcol)));
  for (oh = 0; oh < d->out_h; ++oh) {
    float *yrow = d->y + oh * d->yrow;
    for (ow = 0; ow < d->out_w; ow += 16) {
      i64 nw = min64(16, d->out_w - ow);
      __mmask16 mask = lanes_below(nw);
      /* Stride 2 reads input columns 0 .. 2 * nw - 2 of the window. */
      __mmask16 lo = lanes_below(2 * nw - 1), hi = lanes_below(2 * nw - 17);
      __m512 acc =
          bias ? _mm512_set1_ps(*bias) : _mm512_maskz_loadu_ps(mask, yrow + ow);
      for (kh = 0; kh < d->kernel_h; ++kh) {
        const float *row = xc + (oh * d->stride_h + kh * d->dilation_h) * xrow;
        for (kw = 0; kw < d->kernel_w; ++kw) {
          const float *src =
              row + (ow * d->stride_w + kw * d->dilation_w) * xcol;
          __m512 v;
          if (d->stride_w == 1 && xcol == 1) {
            v = _mm512_maskz_loadu_ps(mask, src);
          } else if (d->stride_w == 2 && xcol == 1) {
            v = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(lo, src), even,
                                       _mm512_maskz_loadu_ps(hi, src + 16));
          } else {
            v = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask, gather_idx,
                                         src, 4);
          }
          acc = _mm512_fmadd_ps(_mm512_set1_ps(wc[kh * d->wrow + kw * d->wcol]),
                                v, acc);
        }
      }
      if (ep)
        acc = _mm512_min_ps(_mm512_set1_ps(ep->hi),
                            _mm512_max_ps(_mm512_set1_ps(ep->lo), acc));
      _mm512_mask_storeu_ps(yrow + ow, mask, acc);
    }
  }
}

/* The strips read an unpadded input in place for a 3 x 3 with unit
 * dilation and equal strides 1 or 2. Not when y is x, except with one
 * strip (out_w <= 16) of stride 1: output row oh is stored after input
 * row oh + 2 - pad_top is loaded, and no later step loads a row it
 * overwrote when pad_top < 3. */
static int dw_reads_padding_avx512(const onnxc_conv2d_params *q) {
  return q->kernel_h == 3 && q->kernel_w == 3 && q->x_strides[4] == 1 &&
         q->dilation_h == 1 && q->dilation_w == 1 &&
         q->stride_h == q->stride_w && (q->stride_w == 1 || q->stride_w == 2) &&
         (!(q->flags & ONNXC_CONV_IN_PLACE) ||
          (q->stride_w == 1 && q->out_w <= 16 && q->pad_top < 3));
}

/* ---- Channels in lanes (dispatch.h's dw_block) ------------------------ */

/* `cnt` (1..8, a constant after inlining) outputs of row `oh` from
 * column `ow`: one vector of the block's channels each. */
ONNXC_INLINE static void dwb_outputs(int cnt, const float *tile, i64 wp,
                                     const float *wv, i64 kh_n, i64 kw_n,
                                     i64 oh, i64 ow, i64 sh, i64 sw, i64 dh,
                                     i64 dw, __m512 init, const tile_ep *ep,
                                     float *out) {
  __m512 acc[8];
  i64 kh, kw;
  int i;
  for (i = 0; i < cnt; ++i)
    acc[i] = init;
  for (kh = 0; kh < kh_n; ++kh) {
    const float *row = tile + (oh * sh + kh * dh) * wp * 16;
    for (kw = 0; kw < kw_n; ++kw) {
      __m512 w = _mm512_load_ps(wv + (kh * kw_n + kw) * 16);
      const float *src = row + (ow * sw + kw * dw) * 16;
      for (i = 0; i < cnt; ++i)
        acc[i] = _mm512_fmadd_ps(_mm512_load_ps(src + i * sw * 16), w, acc[i]);
    }
  }
  for (i = 0; i < cnt; ++i) {
    if (ep)
      acc[i] = _mm512_min_ps(_mm512_set1_ps(ep->hi),
                             _mm512_max_ps(_mm512_set1_ps(ep->lo), acc[i]));
    _mm512_store_ps(out + i * 16, acc[i]);
  }
}

/* Channels [g, g + nc) of image n (dispatch.h's dw_block): the block's
 * input planes, zero padded, into the tile (hp x wp positions of 16
 * lanes), 16 x 16 transposes of 16 input columns of the 16 channels;
 * every output a vector (8 along a row share each weight vector); the
 * outputs transposed back into the channels' planes, 16 positions at a
 * time. */
static void dw_block_avx512(const onnxc_conv2d_params *q, const float *x,
                            const float *w, float *y, i64 n, i64 g, i64 nc,
                            float *scratch) {
  const i64 *xs = q->x_strides, *ws = q->w_strides, *ys = q->y_strides;
  i64 kh_n = q->kernel_h, kw_n = q->kernel_w, taps = kh_n * kw_n;
  i64 hp = (q->out_h - 1) * q->stride_h + (kh_n - 1) * q->dilation_h + 1;
  i64 wp = (q->out_w - 1) * q->stride_w + (kw_n - 1) * q->dilation_w + 1;
  int padded = (q->flags & ONNXC_CONV_PADDED) != 0;
  i64 pt = padded ? q->pad_top : 0, pl = padded ? q->pad_left : 0;
  i64 in_h = padded ? q->in_h : hp, in_w = padded ? q->in_w : wp;
  i64 npos = q->out_h * q->out_w;
  float *tile = scratch, *out = tile + hp * wp * 16, *wv = out + npos * 16;
  __mmask16 chans = lanes_below(nc);
  const tile_ep *ep = NULL;
  tile_ep clamp;
  __m512 init;
  i64 r, c0, t, k, oh, ow, p0;
  const float *xb = x + n * xs[0] + g * xs[1];
  /* The weights, one vector of the block's channels per tap. */
  for (t = 0; t < taps; ++t) {
    float lane[16];
    for (k = 0; k < 16; ++k)
      lane[k] = k < nc ? w[(g + k) * ws[0] + (t / kw_n) * ws[3] +
                           (t % kw_n) * ws[4]]
                       : 0.0f;
    _mm512_store_ps(wv + t * 16, _mm512_loadu_ps(lane));
  }
  /* The input tile: row r is input row r - pt, column c input column
   * c - pl, zero outside the input. */
  for (r = 0; r < hp; ++r) {
    i64 ri = r - pt;
    float *trow = tile + r * wp * 16;
    if (ri < 0 || ri >= in_h) {
      for (c0 = 0; c0 < wp; ++c0)
        _mm512_store_ps(trow + c0 * 16, _mm512_setzero_ps());
      continue;
    }
    for (c0 = 0; c0 < wp; c0 += 16) {
      i64 ci = c0 - pl, cols = min64(16, wp - c0);
      __m512 v[16];
      /* Input columns ci + j for lanes j with 0 <= ci + j < in_w. */
      __mmask16 m = cols_in(ci, in_w) & lanes_below(cols);
      for (k = 0; k < 16; ++k) {
        if (k < nc && m) {
          const float *src =
              (const float *)((intptr_t)(xb + k * xs[1] + ri * xs[3]) +
                              (intptr_t)ci * (intptr_t)sizeof(float));
          v[k] = _mm512_maskz_loadu_ps(m, src);
        } else {
          v[k] = _mm512_setzero_ps();
        }
      }
      transpose16(v);
      for (k = 0; k < cols; ++k)
        _mm512_store_ps(trow + (c0 + k) * 16, v[k]);
    }
  }
  /* The outputs (the bias, the clamp; the driver applies the activation
   * to the planes). */
  init = q->bias ? _mm512_maskz_loadu_ps(chans, q->bias + g)
                 : _mm512_setzero_ps();
  if (q->flags & ONNXC_CONV_CLAMP) {
    clamp.row_bias = clamp.col_bias = NULL;
    clamp.clamp = 1;
    clamp.act = NULL;
    clamp.lo = q->clamp_lo;
    clamp.hi = q->clamp_hi;
    ep = &clamp;
  }
  for (oh = 0; oh < q->out_h; ++oh)
    for (ow = 0; ow < q->out_w; ow += 8) {
      float *o = out + (oh * q->out_w + ow) * 16;
#define DWB(CNT)                                                              \
  dwb_outputs(CNT, tile, wp, wv, kh_n, kw_n, oh, ow, q->stride_h,             \
              q->stride_w, q->dilation_h, q->dilation_w, init, ep, o)
      switch (min64(8, q->out_w - ow)) {
      case 8: DWB(8); break;
      case 7: DWB(7); break;
      case 6: DWB(6); break;
      case 5: DWB(5); break;
      case 4: DWB(4); break;
      case 3: DWB(3); break;
      case 2: DWB(2); break;
      default: DWB(1); break;
      }
#undef DWB
    }
  /* Back into the planes: 16 positions of the 16 channels transposed. */
  for (p0 = 0; p0 < npos; p0 += 16) {
    i64 np = min64(16, npos - p0);
    __mmask16 m = lanes_below(np);
    __m512 v[16];
    for (k = 0; k < 16; ++k)
      v[k] = k < np ? _mm512_load_ps(out + (p0 + k) * 16) : _mm512_setzero_ps();
    transpose16(v);
    for (k = 0; k < nc; ++k)
      _mm512_mask_storeu_ps(y + n * ys[0] + (g + k) * ys[1] + p0, m, v[k]);
  }
}

/* The whole plane of the block's 16 channels is worth the transposes
 * where rows are short: a row of 16 lanes would be mostly masked. */
static i64 dw_block_scratch_avx512(const onnxc_conv2d_params *q) {
  i64 hp = (q->out_h - 1) * q->stride_h + (q->kernel_h - 1) * q->dilation_h + 1;
  i64 wp = (q->out_w - 1) * q->stride_w + (q->kernel_w - 1) * q->dilation_w + 1;
  if (q->out_w > ONNXC_DW_BLOCK_MAX_W || q->out_channels != 1 ||
      q->in_channels != 1 ||
      !(q->flags & ONNXC_CONV_BIAS) || q->x_strides[4] != 1 ||
      q->y_strides[4] != 1 || q->y_strides[3] != q->out_w ||
      q->kernel_h * q->kernel_w <= 9 || hp * wp > 4096 ||
      q->kernel_h * q->kernel_w > 256)
    return 0;
  return (hp * wp + q->out_h * q->out_w + q->kernel_h * q->kernel_w) * 16;
}

void onnxc_rt_depthwise_fill_avx512(onnxc_kernels *k) {
  k->dw_channel = dw_channel_avx512;
  k->dw_grouped_max = ONNXC_DW_GROUPED_MAX;
  k->dw_reads_padding = dw_reads_padding_avx512;
  k->dw_block = dw_block_avx512;
  k->dw_block_scratch = dw_block_scratch_avx512;
}

#else
typedef int onnxc_depthwise_avx512_empty; /* not x86-64: nothing here */
#endif
