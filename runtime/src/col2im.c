/*===- col2im.c - Col2Im (ConvTranspose's scatter) for generated code -----===*
 *
 * onnxc_rt_col2im (runtime_abi.h has the contract): the block columns of a
 * product, each added at its place in the image. onnx-graph-optimize turns
 * a ConvTranspose into a GEMM and a Col2Im; convert-onnx-quantized-to-
 * ukernel turns an fp32 Col2Im of one or two spatial dims into this call.
 * The loops run over the columns in the order they lie in memory and add
 * each into the output row it lands in: every product element is read
 * once and only the taps that land inside the image are visited, where the
 * gather form of the linalg lowering tested every kernel tap of every
 * output element. The ranges of input positions whose tap lands inside the
 * image are computed per tap, so the inner loops have no test.
 *
 * Two paths over the non-transposed layout: output rows built whole in
 * phase buffers (c2i_channel: contiguous vector adds, each output written
 * once, channels split over threads), and for input rows of 2 to 7
 * columns the scatter into Y in place (its short scalar loops cost less
 * there). DCGAN's 4 x 4 / 2 layers (C x H in -> 2H): 64 x 16 -> 32
 * 102 -> 70 us, 3 x 32 -> 64 16 -> 9 us, 512 x 1 -> 4 (stride 1) 53 ->
 * 32 us; 256 x 4 -> 8 scatters (46 us either way).
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <string.h>

typedef int64_t i64;

/* ceil(a / b) for b > 0, any sign of a. */
static i64 ceil_div(i64 a, i64 b) { return a >= 0 ? (a + b - 1) / b : -((-a) / b); }

/* The input positions i in [0, n) with 0 <= i * s + off < out:
 * [*lo, *hi). */
static void in_range(i64 off, i64 s, i64 n, i64 out, i64 *lo, i64 *hi) {
  i64 a = ceil_div(-off, s), b = ceil_div(out - off, s);
  *lo = a < 0 ? 0 : a;
  *hi = b > n ? n : b;
  if (*hi < *lo)
    *hi = *lo;
}

/* floor(a / b) for b > 0, any sign of a. */
static i64 floor_div(i64 a, i64 b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

/* Output rows built whole (the most phases along a row times a phase's
 * length: the phase buffers, on the stack), for kernels of up to KW_MAX
 * columns and out_h * kernel_h up to OH_TAPS_MAX (the per-call tables). */
#define ROW_MAX 4096
#define KW_MAX 64
#define OH_TAPS_MAX 4096

typedef struct c2i_job {
  const onnxc_col2im_params *p;
  const float *cols;
  float *y;
  i64 wq;         /* a phase's length: ceil(out_w / stride_w) */
  i64 iw0[KW_MAX], iw1[KW_MAX], at[KW_MAX]; /* per kw, below */
  const i64 *ih;  /* [out_h][kernel_h]: the input row, or -1 */
} c2i_job;

/* Channel chunk = (n, m) of the output: each output row summed whole in
 * phase buffers, then stored once. Output column x = iw * s + kw * d -
 * pad_left lies in phase x mod s at x div s, so tap kw's row of the
 * columns adds input columns [iw0, iw1) into phase (kw d - pad) mod s
 * from index (kw d - pad) div s on (`at`): a contiguous run, which
 * vectorizes (the columns' scatter with stride s into Y, read-modify-
 * write, did not: 10% of DCGAN and of the conv autoencoder). Then the
 * phases interleaved into the row: each output written once, no memset
 * of Y first. The divisions are the job's tables, made once a call. */
static void c2i_channel(void *arg, int64_t chunk) {
  const c2i_job *j = arg;
  const onnxc_col2im_params *p = j->p;
  const i64 kh_n = p->kernel_h, kw_n = p->kernel_w, s = p->stride_w;
  const i64 l = p->in_h * p->in_w, plane = p->out_h * p->out_w;
  const i64 wq = j->wq, out_w = p->out_w;
  const float *cm = j->cols + chunk * kh_n * kw_n * l;
  float *ym = j->y + chunk * plane;
  float buf[ROW_MAX];
  i64 oh, kh, kw, iw, x;
  for (oh = 0; oh < p->out_h; ++oh) {
    float *restrict yr = ym + oh * out_w;
    memset(buf, 0, (size_t)(s * wq) * sizeof(float));
    for (kh = 0; kh < kh_n; ++kh) {
      const i64 ih = j->ih[oh * kh_n + kh];
      if (ih < 0)
        continue;
      for (kw = 0; kw < kw_n; ++kw) {
        const float *restrict cr = cm + (kh * kw_n + kw) * l + ih * p->in_w;
        float *restrict ph = buf + j->at[kw];
        for (iw = j->iw0[kw]; iw < j->iw1[kw]; ++iw)
          ph[iw] += cr[iw];
      }
    }
    if (s == 1) {
      memcpy(yr, buf, (size_t)out_w * sizeof(float));
    } else if (s == 2) {
      const float *restrict e = buf, *restrict o = buf + wq;
      for (x = 0; x < out_w / 2; ++x) {
        yr[2 * x] = e[x];
        yr[2 * x + 1] = o[x];
      }
      if (out_w % 2)
        yr[out_w - 1] = e[out_w / 2];
    } else {
      for (x = 0; x < out_w; ++x)
        yr[x] = buf[(x % s) * wq + x / s];
    }
  }
}

/* The row-at-a-time path when its tables fit (c2i_channel). */
static int c2i_rows(const onnxc_col2im_params *p, const float *cols,
                    float *y) {
  const i64 s = p->stride_w, wq = (p->out_w + s - 1) / s;
  i64 ihs[OH_TAPS_MAX], oh, kh, kw;
  c2i_job j;
  if ((p->flags & ONNXC_COL2IM_TRANSPOSED) || s * wq > ROW_MAX ||
      p->kernel_w > KW_MAX || p->out_h * p->kernel_h > OH_TAPS_MAX)
    return 0;
  j.p = p;
  j.cols = cols;
  j.y = y;
  j.wq = wq;
  j.ih = ihs;
  for (kw = 0; kw < p->kernel_w; ++kw) {
    const i64 off = kw * p->dilation_w - p->pad_left;
    const i64 q = floor_div(off, s);
    in_range(off, s, p->in_w, p->out_w, &j.iw0[kw], &j.iw1[kw]);
    j.at[kw] = (off - q * s) * wq + q;
  }
  for (oh = 0; oh < p->out_h; ++oh)
    for (kh = 0; kh < p->kernel_h; ++kh) {
      /* Input row ih lands on oh through tap kh when ih * stride_h =
       * oh + pad_top - kh * dilation_h. */
      const i64 t = oh + p->pad_top - kh * p->dilation_h;
      ihs[oh * p->kernel_h + kh] =
          t >= 0 && t % p->stride_h == 0 && t / p->stride_h < p->in_h
              ? t / p->stride_h
              : -1;
    }
  onnxc_rt_parallel_for(
      p->batch * p->channels,
      onnxc_rt_threads_for(ONNXC_COPY_FLOP_PER_ELEMENT *
                           (double)(p->batch * p->channels * p->kernel_h *
                                    p->kernel_w * p->in_h * p->in_w)),
      c2i_channel, &j);
  return 1;
}

void onnxc_rt_col2im(const onnxc_col2im_params *p, const float *cols,
                     float *y) {
  const i64 kh_n = p->kernel_h, kw_n = p->kernel_w;
  const i64 taps = kh_n * kw_n, l = p->in_h * p->in_w;
  const i64 plane = p->out_h * p->out_w;
  const int transposed = (p->flags & ONNXC_COL2IM_TRANSPOSED) != 0;
  i64 n, m, kh, kw, ih, iw;
  if (p->batch <= 0 || p->channels <= 0 || plane <= 0)
    return;
  /* The phase path, except for rows of 2 to 7 columns (the scatter's
   * short scalar loops cost less than its vector loops there). */
  if ((p->in_w == 1 || p->in_w >= 8) && c2i_rows(p, cols, y))
    return;
  memset(y, 0, (size_t)(p->batch * p->channels * plane) * sizeof(float));
  for (n = 0; n < p->batch; ++n) {
    const float *cn = cols + n * p->channels * taps * l;
    float *yn = y + n * p->channels * plane;
    for (m = 0; m < p->channels; ++m)
      for (kh = 0; kh < kh_n; ++kh) {
        i64 offh = kh * p->dilation_h - p->pad_top, ih0, ih1;
        in_range(offh, p->stride_h, p->in_h, p->out_h, &ih0, &ih1);
        for (kw = 0; kw < kw_n; ++kw) {
          i64 offw = kw * p->dilation_w - p->pad_left, iw0, iw1;
          /* Row (m, kh, kw) of the columns ([N][M*kh*kw][L]), or column
           * of the transposed ones ([N][L][M*kh*kw]). */
          i64 row = (m * kh_n + kh) * kw_n + kw;
          in_range(offw, p->stride_w, p->in_w, p->out_w, &iw0, &iw1);
          for (ih = ih0; ih < ih1; ++ih) {
            float *yr = yn + m * plane + (ih * p->stride_h + offh) * p->out_w +
                        offw;
            if (!transposed) {
              const float *cr = cn + row * l + ih * p->in_w;
              if (p->stride_w == 1)
                for (iw = iw0; iw < iw1; ++iw)
                  yr[iw] += cr[iw];
              else
                for (iw = iw0; iw < iw1; ++iw)
                  yr[iw * p->stride_w] += cr[iw];
            } else {
              const i64 ld = p->channels * taps;
              const float *cr = cn + ih * p->in_w * ld + row;
              for (iw = iw0; iw < iw1; ++iw)
                yr[iw * p->stride_w] += cr[iw * ld];
            }
          }
        }
      }
  }
}
