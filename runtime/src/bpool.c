/*===- bpool.c - uint8 and int8 2-D max pooling for generated code --------===*
 *
 * onnxc_rt_u8maxpool2d and onnxc_rt_s8maxpool2d (runtime_abi.h): the
 * MaxPool of quantized models (QOperator and QDQ forms keep uint8 or int8
 * between the convolutions), which the compiler replaces as it does the
 * fp32 one (onnxc-linalg-to-ukernel; pool.c). Windows are clipped to the
 * input (the padding never wins a max).
 *
 * Per output row over unit-stride rows: the window's input rows' maximum
 * into a row of scratch (`vert`), then each column's maximum over the
 * kernel's columns (`horiz`, at every input column), then the columns of
 * the outputs (every one for stride 1, every other one for stride 2: the
 * even bytes of 16-bit words, packed). The loops are plain C the compiler
 * vectorizes (and SSE2 for the stride-2 pick): ResNet-18's 3 x 3 / 2 pool
 * of 64 x 112 x 112 bytes took 270 us as the generic loops of generated
 * code, whose padding gathers the input byte by byte. Other shapes take
 * the window maximum per output. Exact; split by output rows over threads.
 *===----------------------------------------------------------------------===*/

#include "internal.h"
#include "kernels/dispatch.h"

#include "onnxc/runtime_abi.h"

#include <stdint.h>
#include <string.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Rows wider than this take the per-output path (scratch on the stack). */
#define ROW_MAX 4096

/* ceil(a / b) for b > 0, any sign of a. */
static i64 ceil_div(i64 a, i64 b) {
  return a >= 0 ? (a + b - 1) / b : -((-a) / b);
}

/* The taps k in [*k0, *k1) of a window at `origin` (dilation d, size k)
 * that fall in [0, size). */
static void clip(i64 origin, i64 d, i64 k, i64 size, i64 *k0, i64 *k1) {
  *k0 = origin >= 0 ? 0 : ceil_div(-origin, d);
  *k1 = ceil_div(size - origin, d);
  if (*k1 > k)
    *k1 = k;
}

typedef struct bpool_job {
  const onnxc_maxpool2d_params *q;
  const uint8_t *x;
  uint8_t *y;
  int is_signed, rows_path;
} bpool_job;

/* The bytes' order: unsigned, or signed through the sign bit flipped. */
static inline int key(uint8_t v, int is_signed) {
  return is_signed ? (int)(int8_t)v : (int)v;
}

/* d[i] = max over t < k of s[t][i] (k >= 1) for i < n, by the type's
 * order: k rows' maxima in one pass (the loops vectorize). */
static void max_rows(uint8_t *restrict d, const uint8_t *const *s, i64 k,
                     i64 n, int is_signed) {
  i64 i, t;
  if (k == 1) {
    memcpy(d, s[0], (size_t)n);
    return;
  }
  if (is_signed) {
    const int8_t *restrict a = (const int8_t *)s[0];
    const int8_t *restrict b = (const int8_t *)s[1];
    int8_t *restrict ds = (int8_t *)d;
    for (i = 0; i < n; ++i)
      ds[i] = a[i] > b[i] ? a[i] : b[i];
    for (t = 2; t < k; ++t) {
      const int8_t *restrict c = (const int8_t *)s[t];
      for (i = 0; i < n; ++i)
        ds[i] = c[i] > ds[i] ? c[i] : ds[i];
    }
  } else {
    const uint8_t *restrict a = s[0], *restrict b = s[1];
    for (i = 0; i < n; ++i)
      d[i] = a[i] > b[i] ? a[i] : b[i];
    for (t = 2; t < k; ++t) {
      const uint8_t *restrict c = s[t];
      for (i = 0; i < n; ++i)
        d[i] = c[i] > d[i] ? c[i] : d[i];
    }
  }
}

/* The maximum of the window at (ih0, iw0) of `plane`. */
static uint8_t window_max(const bpool_job *j, const uint8_t *plane, i64 ih0,
                          i64 iw0) {
  const onnxc_maxpool2d_params *q = j->q;
  const i64 *xs = q->x_strides;
  i64 kh, kw, h0, h1, w0, w1;
  uint8_t acc = j->is_signed ? 0x80 : 0; /* the type's lowest */
  clip(ih0, q->dilation_h, q->kernel_h, q->in_h, &h0, &h1);
  clip(iw0, q->dilation_w, q->kernel_w, q->in_w, &w0, &w1);
  for (kh = h0; kh < h1; ++kh) {
    const uint8_t *row = plane + (ih0 + kh * q->dilation_h) * xs[2];
    for (kw = w0; kw < w1; ++kw) {
      uint8_t v = row[(iw0 + kw * q->dilation_w) * xs[3]];
      if (key(v, j->is_signed) > key(acc, j->is_signed))
        acc = v;
    }
  }
  return acc;
}

/* y[o] = src[o * 2] for o < n. */
static void pick_even(const uint8_t *src, i64 n, uint8_t *y) {
  i64 o = 0;
#if defined(__SSE2__)
  const __m128i lo = _mm_set1_epi16(0x00ff);
  for (; o + 16 <= n; o += 16) {
    __m128i a = _mm_and_si128(_mm_loadu_si128((const __m128i *)(src + 2 * o)), lo);
    __m128i b =
        _mm_and_si128(_mm_loadu_si128((const __m128i *)(src + 2 * o + 16)), lo);
    _mm_storeu_si128((__m128i *)(y + o), _mm_packus_epi16(a, b));
  }
#endif
  for (; o < n; ++o)
    y[o] = src[2 * o];
}

/* One output row by rows of scratch (unit-stride rows, stride 1 or 2, no
 * column dilation, pad_left >= 0, the padded row within ROW_MAX). */
static void row_by_rows(const bpool_job *j, const uint8_t *plane, i64 ih0,
                        uint8_t *yrow) {
  const onnxc_maxpool2d_params *q = j->q;
  const i64 *xs = q->x_strides;
  const i64 kw_n = q->kernel_w, s = q->stride_w, pl = q->pad_left;
  const uint8_t lowest = j->is_signed ? 0x80 : 0;
  /* vert: the window rows' maximum at each column of the padded row (pl
   * columns of the lowest value before the input's, as many after as the
   * outputs read); horiz[c]: the maximum of vert[c .. c + kw_n). */
  uint8_t vert[ROW_MAX + 64], horiz[ROW_MAX + 64];
  const uint8_t *rows[64], *cols[64];
  i64 padded = (q->out_w - 1) * s + kw_n; /* padded columns the outputs read */
  i64 c1 = q->in_w < padded - pl ? q->in_w : padded - pl; /* input columns */
  i64 k0, k1, kh, t, nh = padded - kw_n + 1;
  clip(ih0, q->dilation_h, q->kernel_h, q->in_h, &k0, &k1);
  if (k1 <= k0 || c1 <= 0) {
    memset(yrow, lowest, (size_t)q->out_w);
    return;
  }
  memset(vert, lowest, (size_t)pl);
  if (pl + c1 < padded)
    memset(vert + pl + c1, lowest, (size_t)(padded - pl - c1));
  for (kh = k0; kh < k1; ++kh)
    rows[kh - k0] = plane + (ih0 + kh * q->dilation_h) * xs[2];
  max_rows(vert + pl, rows, k1 - k0, c1, j->is_signed);
  for (t = 0; t < kw_n; ++t)
    cols[t] = vert + t;
  max_rows(s == 1 ? yrow : horiz, cols, kw_n, s == 1 ? q->out_w : nh,
           j->is_signed);
  if (s == 2)
    pick_even(horiz, q->out_w, yrow);
}

static void bpool_rows(void *p, int64_t first, int64_t end) {
  const bpool_job *j = p;
  const onnxc_maxpool2d_params *q = j->q;
  const i64 *xs = q->x_strides, *ys = q->y_strides;
  i64 t, ow;
  for (t = first; t < end; ++t) {
    i64 n = t / q->out_h / q->channels, c = t / q->out_h % q->channels;
    i64 oh = t % q->out_h;
    const uint8_t *plane = j->x + n * xs[0] + c * xs[1];
    uint8_t *yrow = j->y + n * ys[0] + c * ys[1] + oh * ys[2];
    i64 ih0 = oh * q->stride_h - q->pad_top;
    if (j->rows_path) {
      row_by_rows(j, plane, ih0, yrow);
      continue;
    }
    for (ow = 0; ow < q->out_w; ++ow)
      yrow[ow * ys[3]] =
          window_max(j, plane, ih0, ow * q->stride_w - q->pad_left);
  }
}

static void bmaxpool2d(const onnxc_maxpool2d_params *q, const uint8_t *x,
                       uint8_t *y, int is_signed) {
  bpool_job j;
  i64 rows;
  int threads;
  if (q->out_h <= 0 || q->out_w <= 0 || q->batch <= 0 || q->channels <= 0)
    return;
  j.q = q;
  j.x = x;
  j.y = y;
  j.is_signed = is_signed;
  j.rows_path = q->x_strides[3] == 1 && q->y_strides[3] == 1 &&
                q->dilation_w == 1 && (q->stride_w == 1 || q->stride_w == 2) &&
                q->kernel_w > 0 && q->kernel_w <= 64 &&
                q->kernel_h <= 64 && q->pad_left >= 0 &&
                (q->out_w - 1) * q->stride_w + q->kernel_w <= ROW_MAX &&
                q->in_w <= ROW_MAX;
  rows = q->batch * q->channels * q->out_h;
  threads = onnxc_rt_threads_for(
      ONNXC_COPY_FLOP_PER_ELEMENT *
      (double)(rows * q->out_w + q->batch * q->channels * q->in_h * q->in_w));
  onnxc_rt_parallel_range(rows, 1, threads, bpool_rows, &j);
}

void onnxc_rt_u8maxpool2d(const onnxc_maxpool2d_params *q, const uint8_t *x,
                          uint8_t *y) {
  bmaxpool2d(q, x, y, 0);
}

void onnxc_rt_s8maxpool2d(const onnxc_maxpool2d_params *q, const int8_t *x,
                          int8_t *y) {
  bmaxpool2d(q, (const uint8_t *)x, (uint8_t *)y, 1);
}
