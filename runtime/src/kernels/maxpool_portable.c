/*===- kernels/maxpool_portable.c - Max pooling rows in plain C -----------===*
 *
 * The portable tier's maxpool_row (dispatch.h; pool.c drives it): each
 * output is the max_nan (arith.maximumf: NaN wins, +0 over -0) of its
 * window's columns inside the input, from -inf. Exact, like every tier.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

static void row_portable(const float *row, i64 rstride, i64 nrows,
                         i64 kernel_w, i64 sw, i64 pad_left, i64 in_w, i64 a,
                         i64 b, i64 out_w, float *yrow) {
  i64 ow, r, kw;
  (void)a, (void)b;
  for (ow = 0; ow < out_w; ++ow) {
    i64 c0 = ow * sw - pad_left; /* the window's first column */
    i64 k0 = c0 < 0 ? -c0 : 0, k1 = in_w - c0;
    float acc = -INFINITY;
    if (k1 > kernel_w)
      k1 = kernel_w;
    for (r = 0; r < nrows; ++r)
      for (kw = k0; kw < k1; ++kw)
        acc = max_nan(acc, row[r * rstride + c0 + kw]);
    yrow[ow] = acc;
  }
}

void onnxc_rt_maxpool_fill_portable(onnxc_kernels *k) {
  k->maxpool_row = row_portable;
}
