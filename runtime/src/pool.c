/*===- pool.c - fp32 2-D max pooling for generated code -------------------===*
 *
 * The compiler replaces the fp32 MaxPool generic (NCHW, no Indices) by a
 * call to onnxc_rt_smaxpool2d (onnxc-linalg-to-ukernel; runtime_abi.h has
 * the contract). The padding is never materialized: windows are clipped to
 * the input, which is what a -inf padding gives under max.
 *
 * With AVX-512, for unit-stride rows, stride 1 or 2 and no column
 * dilation, each output row goes 16 columns at a time: interior columns
 * (whole window inside the input) with plain loads, stride 2 deinterleaving
 * two of them (ResNet's 3x3 / 2 pool); the edge columns with loads masked
 * to the input's columns, -inf elsewhere. Everything else is scalar. The
 * vector max is VRANGEPS (imm 0x5: the larger, sign from the comparison),
 * which orders -0 below +0 as arith.maximumf does but, like VMAXPS, drops
 * NaNs: lanes that saw a NaN are tracked in a mask and set to NaN at the
 * end (maximumf propagates NaN). The AVX-512 path is chosen at run time
 * (cpuid: AVX-512F and DQ); ONNXC_DISABLE_AVX512=1 forces the portable one.
 * One thread: the pool is a small part of the models that have one.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include "onnxc/runtime_abi.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(__x86_64__) && defined(__GNUC__)
#define ONNXC_POOL_X86 1
#include <cpuid.h>
#include <immintrin.h>
#endif

typedef int64_t i64;

/* arith.maximumf: NaN if either is NaN, +0 over -0. Written to compile to
 * selects (data-dependent branches mispredict on every other tap). */
static float max_nan(float a, float b) {
  float m = a > b ? a : b;
  m = a == b && !signbit(a) ? a : m; /* equal: only zeros' signs differ */
  return a != a || b != b ? a + b : m;
}

/* ceil(a / b) for b > 0, any sign of a. */
static i64 ceil_div(i64 a, i64 b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/* The taps k in [*k0, *k1) of a window at `origin` (dilation d, size k)
 * that fall in [0, size). */
static void clip(i64 origin, i64 d, i64 k, i64 size, i64 *k0, i64 *k1) {
  /* No divisions for the usual d = 1: this runs for every edge output. */
  *k0 = origin >= 0 ? 0 : d == 1 ? -origin : ceil_div(-origin, d);
  *k1 = d == 1 ? size - origin : ceil_div(size - origin, d);
  if (*k1 > k)
    *k1 = k;
}

/* The scalar window max of the output at input origin (ih0, iw0). */
static float window_max(const onnxc_maxpool2d_params *q, const float *plane,
                        i64 ih0, i64 iw0) {
  const i64 *xs = q->x_strides;
  float acc = -INFINITY;
  i64 kh, kw, h0, h1, w0, w1;
  clip(ih0, q->dilation_h, q->kernel_h, q->in_h, &h0, &h1);
  clip(iw0, q->dilation_w, q->kernel_w, q->in_w, &w0, &w1);
  for (kh = h0; kh < h1; ++kh) {
    const float *row = plane + (ih0 + kh * q->dilation_h) * xs[2];
    for (kw = w0; kw < w1; ++kw)
      acc = max_nan(acc, row[(iw0 + kw * q->dilation_w) * xs[3]]);
  }
  return acc;
}

#ifdef ONNXC_POOL_X86
#define ONNXC_POOL_AVX512 __attribute__((target("avx512f,avx512dq")))

/* Lanes [lo, hi) of 16 (clipped). */
static __mmask16 lanes(i64 lo, i64 hi) {
  if (lo < 0)
    lo = 0;
  if (hi > 16)
    hi = 16;
  if (hi <= lo)
    return 0;
  return (__mmask16)(((1u << hi) - 1u) & ~((1u << lo) - 1u));
}

/* One output row, all out_w columns: `nrows` input rows from `row`
 * (`rstride` apart; the window rows inside the input), columns
 * ow * stride_w - pad_left + kw, contiguous; stride_w 1 or 2, dilation_w
 * 1. Outputs in [a, b) have every window column inside the input and load
 * whole vectors; the others (the edges) load with a mask of the columns
 * inside [0, in_w), -inf elsewhere. Nothing outside the input is read. */
ONNXC_POOL_AVX512 static void row_avx512(const float *row, i64 rstride,
                                         i64 nrows, i64 kernel_w, i64 sw,
                                         i64 pad_left, i64 in_w, i64 a, i64 b,
                                         i64 out_w, float *yrow) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20,
                                         22, 24, 26, 28, 30);
  const __m512 ninf = _mm512_set1_ps(-INFINITY);
  i64 ow, r, kw;
  for (ow = 0; ow < out_w; ow += 16) {
    i64 n = out_w - ow < 16 ? out_w - ow : 16;
    __mmask16 m = lanes(0, n);
    /* Interior: stride 1 reads n columns; stride 2 reads 32 (the 32nd is
     * in the window of output ow + 16, so inside when that one is
     * interior too). */
    int inner = ow >= a && (sw == 1 ? ow + n <= b : ow + 16 < b);
    __m512 acc = ninf;
    __mmask16 nan = 0;
    if (inner && (sw == 2 || n == 16)) {
      /* The hot loop: plain loads (masked ones merge, a second uop). */
      for (r = 0; r < nrows; ++r) {
        const float *p = row + r * rstride + ow * sw - pad_left;
        for (kw = 0; kw < kernel_w; ++kw) {
          __m512 v = sw == 1
                         ? _mm512_loadu_ps(p + kw)
                         : _mm512_permutex2var_ps(_mm512_loadu_ps(p + kw), even,
                                                  _mm512_loadu_ps(p + kw + 16));
          acc = _mm512_range_ps(acc, v, 0x5);
          nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        }
      }
    } else {
      for (kw = 0; kw < kernel_w; ++kw) {
        i64 c0 = ow * sw - pad_left + kw; /* column of lane 0 */
        __mmask16 mlo, mhi;
        if (inner) {
          mlo = sw == 1 ? m : 0xffff;
          mhi = 0xffff;
        } else if (sw == 1) {
          mlo = lanes(-c0, in_w - c0 < n ? in_w - c0 : n);
          mhi = 0;
        } else {
          i64 end = in_w - c0 < 2 * n - 1 ? in_w - c0 : 2 * n - 1;
          mlo = lanes(-c0, end);
          mhi = lanes(-c0 - 16, end - 16);
        }
        for (r = 0; r < nrows; ++r) {
          /* Through an integer: c0 may be negative (its lanes masked). */
          const float *p =
              (const float *)((intptr_t)(row + r * rstride) +
                              (intptr_t)c0 * (intptr_t)sizeof(float));
          __m512 v;
          if (sw == 1)
            v = _mm512_mask_loadu_ps(ninf, mlo, p);
          else
            v = _mm512_permutex2var_ps(_mm512_mask_loadu_ps(ninf, mlo, p), even,
                                       _mm512_mask_loadu_ps(ninf, mhi, p + 16));
          acc = _mm512_range_ps(acc, v, 0x5);
          nan |= _mm512_cmp_ps_mask(v, v, _CMP_UNORD_Q);
        }
      }
    }
    acc = _mm512_mask_mov_ps(acc, nan, _mm512_set1_ps(NAN));
    _mm512_mask_storeu_ps(yrow + ow, m, acc);
  }
}

#endif /* ONNXC_POOL_X86 */

/* Cached; every thread racing on the first call writes the same value. */
static int use_avx512(void) {
#ifdef ONNXC_POOL_X86
  static volatile int cached = -1;
  if (cached < 0)
    cached = onnxc_rt_detect_avx512(1);
  return cached;
#else
  return 0;
#endif
}

void onnxc_rt_smaxpool2d(const onnxc_maxpool2d_params *q, const float *x,
                         float *y) {
  const i64 *xs = q->x_strides, *ys = q->y_strides;
  i64 sh = q->stride_h, sw = q->stride_w;
  /* The interior columns [a, b): ow * sw - pad_left >= 0 and
   * ow * sw - pad_left + (kernel_w - 1) * dilation_w < in_w. */
  i64 span = (q->kernel_w - 1) * q->dilation_w;
  i64 a = ceil_div(q->pad_left, sw), b;
  i64 last = q->in_w - 1 - span + q->pad_left; /* ow * sw <= last */
  int vector = 0;
  i64 n, c, oh, ow;
  if (q->out_h <= 0 || q->out_w <= 0 || q->batch <= 0 || q->channels <= 0)
    return;
  b = last < 0 ? 0 : last / sw + 1;
  if (a < 0)
    a = 0;
  if (b > q->out_w)
    b = q->out_w;
  if (b < a)
    b = a;
#ifdef ONNXC_POOL_X86
  vector = use_avx512() && xs[3] == 1 && ys[3] == 1 && q->dilation_w == 1 &&
           (sw == 1 || sw == 2) && q->kernel_w > 0;
#endif
  for (n = 0; n < q->batch; ++n)
    for (c = 0; c < q->channels; ++c) {
      const float *plane = x + n * xs[0] + c * xs[1];
      float *yplane = y + n * ys[0] + c * ys[1];
      for (oh = 0; oh < q->out_h; ++oh) {
        i64 ih0 = oh * sh - q->pad_top;
        float *yrow = yplane + oh * ys[2];
#ifdef ONNXC_POOL_X86
        if (vector) {
          /* The window rows inside the input: kh in [k0, k1). */
          i64 dh = q->dilation_h, k0, k1;
          clip(ih0, dh, q->kernel_h, q->in_h, &k0, &k1);
          if (k1 > k0)
            row_avx512(plane + (ih0 + k0 * dh) * xs[2], dh * xs[2], k1 - k0,
                       q->kernel_w, sw, q->pad_left, q->in_w, a, b, q->out_w,
                       yrow);
          else
            for (ow = 0; ow < q->out_w; ++ow)
              yrow[ow] = -INFINITY;
          continue;
        }
#endif
        for (ow = 0; ow < q->out_w; ++ow)
          yrow[ow * ys[3]] = window_max(q, plane, ih0, ow * sw - q->pad_left);
      }
    }
}
