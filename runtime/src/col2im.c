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
 *===----------------------------------------------------------------------===*/

#include "onnxc/runtime_abi.h"

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

void onnxc_rt_col2im(const onnxc_col2im_params *p, const float *cols,
                     float *y) {
  const i64 kh_n = p->kernel_h, kw_n = p->kernel_w;
  const i64 taps = kh_n * kw_n, l = p->in_h * p->in_w;
  const i64 plane = p->out_h * p->out_w;
  const int transposed = (p->flags & ONNXC_COL2IM_TRANSPOSED) != 0;
  i64 n, m, kh, kw, ih, iw;
  if (p->batch <= 0 || p->channels <= 0 || plane <= 0)
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
