/*===- depthwise.c - Direct depthwise convolutions for generated code ----===*
 *
 * The convolutions with one input channel per group (onnxc_rt_sconv2d in
 * gemm.c hands them here when AVX-512F is usable): each output is a sum of
 * KH x KW input values times per-channel weights, computed directly
 * (im2col would copy nine values per product). 3 x 3 windows with stride 1
 * or 2 run as strip kernels that read an unpadded input in place; other
 * shapes go through a zero-padded scratch plane per channel.
 *===----------------------------------------------------------------------===*/

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)

/* The lanes [0, n) of a vector, n clamped to [0, 16]. */
static __mmask16 lanes_below(i64 n) {
  return n >= 16 ? (__mmask16)0xffff
         : n <= 0 ? (__mmask16)0
                  : (__mmask16)((1u << n) - 1u);
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
/* The zero padding around an unpadded input (ONNXC_CONV_PADDED), for the
 * depthwise strip kernels that read it in place: in_h x in_w, the window
 * of output (0, 0) starting at row -pad_top, column -pad_left. */
typedef struct dw_geom {
  i64 pad_top, pad_left, in_h, in_w;
} dw_geom;

/* The lanes l of a 16-float load from column c with 0 <= c + l < n. */
static __mmask16 cols_in(i64 c, i64 n) {
  return (__mmask16)(lanes_below(n - c) & ~lanes_below(-c));
}

/* p0 + the nine products of a 3 x 3 window, tap[r][c] holding the inputs
 * of window row r, column c for 16 outputs: three FMA chains, one per row. */
ONNXC_AVX512 ONNXC_INLINE static __m512 dw3x3_sum(const __m512 *wk,
                                                  __m512 tap[3][3], __m512 p0) {
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

ONNXC_AVX512 ONNXC_INLINE static void dw3x3(
    int S, const float *xc, i64 xrow, i64 sh, i64 dh, i64 dw, const float *wc,
    i64 wrow, i64 wcol, float *yc, i64 yrow, i64 out_h, i64 out_w,
    const dw_geom *gm, const float *bias, const tile_ep *ep) {
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14,
                                        12, 10, 8, 6, 4, 2, 0);
  const __m512i odd = _mm512_set_epi32(31, 29, 27, 25, 23, 21, 19, 17, 15,
                                       13, 11, 9, 7, 5, 3, 1);
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
      const i64 offa = ma ? c : 0, offb = mb ? c + 16 : 0, offc = mc ? c + 32 : 0;
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
        acc = dw3x3_sum(wk, tap, bias ? vbias : _mm512_maskz_loadu_ps(mask, yr));
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
            __m512 n0 = _mm512_maskz_loadu_ps(lanes_below(xw - 2 * ow - 32), nx);
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
          __m512 v = S == 1 ? _mm512_maskz_loadu_ps(mask, src)
                            : _mm512_permutex2var_ps(
                                  _mm512_maskz_loadu_ps(lo, src), even,
                                  _mm512_maskz_loadu_ps(hi, src + 16));
          acc = _mm512_fmadd_ps(wk[a * 3 + b], v, acc);
        }
      if (ep)
        acc = _mm512_min_ps(vhi, _mm512_max_ps(vlo, acc));
      _mm512_mask_storeu_ps(yr + ow, mask, acc);
    }
  }
}

ONNXC_AVX512 static void dw3x3_s1(const float *xc, i64 xrow, i64 sh, i64 dh,
                                  i64 dw, const float *wc, i64 wrow, i64 wcol,
                                  float *yc, i64 yrow, i64 out_h, i64 out_w,
                                  const dw_geom *gm, const float *bias,
                                  const tile_ep *ep) {
  dw3x3(1, xc, xrow, sh, dh, dw, wc, wrow, wcol, yc, yrow, out_h, out_w, gm,
        bias, ep);
}

ONNXC_AVX512 static void dw3x3_s2(const float *xc, i64 xrow, i64 sh, i64 dh,
                                  i64 dw, const float *wc, i64 wrow, i64 wcol,
                                  float *yc, i64 yrow, i64 out_h, i64 out_w,
                                  const dw_geom *gm, const float *bias,
                                  const tile_ep *ep) {
  dw3x3(2, xc, xrow, sh, dh, dw, wc, wrow, wcol, yc, yrow, out_h, out_w, gm,
        bias, ep);
}

/* dst[0, n) = src[0, n): 16 floats a step, the tail masked (rows of a
 * depthwise plane are short: a memcpy call would cost more). */
ONNXC_AVX512 static void copy_row_avx512(float *dst, const float *src, i64 n) {
  i64 i;
  for (i = 0; i + 16 <= n; i += 16)
    _mm512_storeu_ps(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    __mmask16 m = (__mmask16)((1u << (n - i)) - 1u);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
  }
}

/* A row of a padded input: dst[0, wp) is src[c - lo] for c in [lo, hi),
 * else 0: the zeros on either side (a few floats), then whole vectors and
 * a masked tail, no libc call (rows are short: 7 to 230 floats in the
 * CNNs of the bench). */
ONNXC_AVX512 void onnxc_rt_pad_row_avx512(float *dst, i64 wp, i64 lo, i64 hi,
                                        const float *src) {
  i64 i, n = hi - lo;
  for (i = 0; i < lo; ++i)
    dst[i] = 0.0f;
  dst += lo;
  for (i = 0; i + 16 <= n; i += 16)
    _mm512_storeu_ps(dst + i, _mm512_loadu_ps(src + i));
  if (i < n) {
    __mmask16 m = lanes_below(n - i);
    _mm512_mask_storeu_ps(dst + i, m, _mm512_maskz_loadu_ps(m, src + i));
  }
  for (i = n; i < wp - lo; ++i)
    dst[i] = 0.0f;
}

/* Rows [from, to) of a depthwise plane (see onnxc_rt_depthwise_avx512): columns
 * [c0, c1) from input row r - pad_top, column c - pad_left, of channel
 * `xc`; the rest of the plane stays zero. */
ONNXC_AVX512 static void fill_plane(const onnxc_conv2d_params *q,
                                    const float *xc, float *plane, i64 wp,
                                    i64 c0, i64 c1, i64 from, i64 to) {
  const i64 *xs = q->x_strides;
  i64 r, col;
  for (r = from; r < to; ++r) {
    const float *src =
        xc + (r - q->pad_top) * xs[3] + (c0 - q->pad_left) * xs[4];
    float *dst = plane + r * wp + c0;
    if (xs[4] == 1)
      copy_row_avx512(dst, src, c1 - c0);
    else
      for (col = 0; col < c1 - c0; ++col)
        dst[col] = src[col * xs[4]];
  }
}

/* One input channel per group (depthwise): each output row is a sum of
 * KH * KW shifted input rows times a scalar, 16 outputs per vector. Stride
 * 1 loads the shifted row, stride 2 deinterleaves two loads, other strides
 * gather. Y holds the bias; its rows have unit stride (the caller checks).
 * ONNXC_CONV_PADDED: the 3 x 3 strip kernels of dw3x3 read the input in
 * place, masking the padding out of their loads. Otherwise (y over x:
 * ONNXC_CONV_IN_PLACE; other kernels) each input channel is first copied
 * into a zeroed scratch plane of exactly the rows and columns its windows
 * read (the padding is zeroed once per call; each channel rewrites only
 * the part that comes from the input), whole before any of its outputs
 * is written; the plane stays in L1 / L2, and the kernels see no border.
 * Either costs less than a padded copy of the whole tensor through
 * memory. */
ONNXC_AVX512 void onnxc_rt_depthwise_avx512(const onnxc_conv2d_params *q,
                                          const float *x, const float *w,
                                          float *y) {
  const i64 *xs = q->x_strides, *ws = q->w_strides, *ys = q->y_strides;
  const __m512i even = _mm512_set_epi32(30, 28, 26, 24, 22, 20, 18, 16, 14,
                                        12, 10, 8, 6, 4, 2, 0);
  __m512i lanes = _mm512_set_epi32(15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4,
                                   3, 2, 1, 0);
  __m512i gather_idx;
  int padded = (q->flags & ONNXC_CONV_PADDED) != 0;
  /* The padded plane: hp x wp; columns [c0, c1) of its rows [r0, r1)
   * come from the input (row r - pad_top, column c - pad_left). */
  i64 hp = (q->out_h - 1) * q->stride_h + (q->kernel_h - 1) * q->dilation_h + 1;
  i64 wp = (q->out_w - 1) * q->stride_w + (q->kernel_w - 1) * q->dilation_w + 1;
  i64 c0 = 0, c1 = 0, r0 = 0, r1 = 0, xrow = xs[3], xcol = xs[4];
  float *plane = NULL;
  void *raw = NULL;
  i64 n, g, m, oh, ow, kh, kw;
  int fast3x3;
  /* A 3 x 3 with unit dilation and equal strides 1 or 2: the strip
   * kernels read the input in place around the padding (no plane). Not
   * when y is x, except with one strip (out_w <= 16) of stride 1: output
   * row oh is stored after input row oh + 2 - pad_top is loaded, and no
   * later step loads a row it overwrote when pad_top < 3. */
  int direct = padded && q->kernel_h == 3 && q->kernel_w == 3 &&
               xs[4] == 1 && q->dilation_h == 1 && q->dilation_w == 1 &&
               q->stride_h == q->stride_w &&
               (q->stride_w == 1 || q->stride_w == 2) &&
               (!(q->flags & ONNXC_CONV_IN_PLACE) ||
                (q->stride_w == 1 && q->out_w <= 16 && q->pad_top < 3));
  dw_geom geom;
  geom.pad_top = q->pad_top;
  geom.pad_left = q->pad_left;
  geom.in_h = q->in_h;
  geom.in_w = q->in_w;
  if (padded && !direct) {
    c0 = q->pad_left < 0 ? 0 : min64(q->pad_left, wp);
    c1 = min64(q->pad_left + q->in_w, wp);
    c1 = c1 < c0 ? c0 : c1;
    r0 = q->pad_top < 0 ? 0 : min64(q->pad_top, hp);
    r1 = min64(q->pad_top + q->in_h, hp);
    r1 = r1 < r0 ? r0 : r1;
    plane = onnxc_rt_alloc_scratch(hp * wp, &raw);
    memset(plane, 0, (size_t)(hp * wp) * sizeof(float));
    xrow = wp;
    xcol = 1;
  }
  fast3x3 = q->kernel_h == 3 && q->kernel_w == 3 && xcol == 1 &&
            (q->stride_w == 1 || q->stride_w == 2);
  gather_idx =
      _mm512_mullo_epi32(lanes, _mm512_set1_epi32((int)(q->stride_w * xcol)));
  for (n = 0; n < q->batch; ++n)
    for (g = 0; g < q->groups; ++g) {
      const float *xc = x + n * xs[0] + g * xs[1];
      /* The whole channel before any of its outputs: y may be x itself
       * (ONNXC_CONV_IN_PLACE). */
      if (plane && c1 > c0)
        fill_plane(q, xc, plane, wp, c0, c1, r0, r1);
      if (plane)
        xc = plane;
      for (m = 0; m < q->out_channels; ++m) {
        const float *wc = w + g * ws[0] + m * ws[1];
        float *yc = y + n * ys[0] + g * ys[1] + m * ys[2];
        /* The fused bias (written, not added) and clamp. */
        static const float zero = 0.0f;
        const float *bias = !(q->flags & ONNXC_CONV_BIAS) ? NULL
                            : q->bias ? q->bias + g * q->out_channels + m
                                      : &zero;
        tile_ep clamp_ep;
        const tile_ep *ep = NULL;
        if (q->flags & ONNXC_CONV_CLAMP) {
          clamp_ep.lo = q->clamp_lo;
          clamp_ep.hi = q->clamp_hi;
          ep = &clamp_ep;
        }
        if (fast3x3) {
          (q->stride_w == 1 ? dw3x3_s1 : dw3x3_s2)(
              xc, xrow, q->stride_h, q->dilation_h, q->dilation_w, wc, ws[3],
              ws[4], yc, ys[3], q->out_h, q->out_w, direct ? &geom : NULL,
              bias, ep);
          continue;
        }
        for (oh = 0; oh < q->out_h; ++oh) {
          float *yrow = yc + oh * ys[3];
          for (ow = 0; ow < q->out_w; ow += 16) {
            i64 nw = min64(16, q->out_w - ow);
            __mmask16 mask =
                nw == 16 ? (__mmask16)0xffff : (__mmask16)((1u << nw) - 1u);
            /* Stride 2 reads input columns 0 .. 2 * nw - 2 of the window. */
            i64 span = 2 * nw - 1;
            __mmask16 lo = span >= 16 ? (__mmask16)0xffff
                                      : (__mmask16)((1u << span) - 1u);
            __mmask16 hi = span <= 16 ? (__mmask16)0
                                      : (__mmask16)((1u << (span - 16)) - 1u);
            __m512 acc = bias ? _mm512_set1_ps(*bias)
                              : _mm512_maskz_loadu_ps(mask, yrow + ow);
            for (kh = 0; kh < q->kernel_h; ++kh) {
              const float *row =
                  xc + (oh * q->stride_h + kh * q->dilation_h) * xrow;
              for (kw = 0; kw < q->kernel_w; ++kw) {
                const float *src =
                    row + (ow * q->stride_w + kw * q->dilation_w) * xcol;
                __m512 v;
                if (q->stride_w == 1 && xcol == 1) {
                  v = _mm512_maskz_loadu_ps(mask, src);
                } else if (q->stride_w == 2 && xcol == 1) {
                  v = _mm512_permutex2var_ps(_mm512_maskz_loadu_ps(lo, src),
                                             even,
                                             _mm512_maskz_loadu_ps(hi, src + 16));
                } else {
                  v = _mm512_mask_i32gather_ps(_mm512_setzero_ps(), mask,
                                               gather_idx, src, 4);
                }
                acc = _mm512_fmadd_ps(
                    _mm512_set1_ps(wc[kh * ws[3] + kw * ws[4]]), v, acc);
              }
            }
            if (ep)
              acc = _mm512_min_ps(_mm512_set1_ps(ep->hi),
                                  _mm512_max_ps(_mm512_set1_ps(ep->lo), acc));
            _mm512_mask_storeu_ps(yrow + ow, mask, acc);
          }
        }
      }
    }
  onnxc_rt_free_scratch(raw);
}

#endif
