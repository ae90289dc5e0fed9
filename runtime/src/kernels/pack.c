/*===- kernels/pack.c - Packing and padding copies, portable --------------===*
 *
 * The portable tier's copies that the drivers of gemm.c and depthwise.c
 * use to build packed panels, im2col panels and padded rows (dispatch.h:
 * pack_rows, pack_cols, im2col, pad_row); the x86 tiers replace them with vector
 * copies (pack_avx512.c). Plain copies: every tier gives the same bits.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

#include <string.h>

static void pack_rows_portable(const float *b, i64 rsb, i64 kc, i64 nc,
                               float *bp) {
  i64 j, p, col;
  for (j = 0; j < nc; j += NR) {
    i64 nw = min64(NR, nc - j);
    for (p = 0; p < kc; ++p) {
      float *dst = bp + p * NR;
      memcpy(dst, b + p * rsb + j, (size_t)nw * sizeof(float));
      for (col = nw; col < NR; ++col)
        dst[col] = 0.0f;
    }
    bp += kc * NR;
  }
}

/* Read along the columns, 16 rows at a time, so that the reads are whole
 * lines and the writes stay in 16 lines of the panel, instead of one
 * strided element per column. */
static void pack_cols_portable(const float *b, i64 csb, i64 kc, i64 nc,
                               float *bp) {
  i64 j, p, p0, col;
  for (j = 0; j < nc; j += NR) {
    i64 nw = min64(NR, nc - j);
    for (p0 = 0; p0 < kc; p0 += 16) {
      i64 pe = min64(kc, p0 + 16);
      for (col = 0; col < nw; ++col) {
        const float *src = b + (j + col) * csb;
        for (p = p0; p < pe; ++p)
          bp[p * NR + col] = src[p];
      }
      for (; col < NR; ++col)
        for (p = p0; p < pe; ++p)
          bp[p * NR + col] = 0.0f;
    }
    bp += kc * NR;
  }
}

void onnxc_rt_im2col_portable(const float *const *src, i64 kc,
                              const int32_t *off, i64 nw, int contiguous,
                              float *dst) {
  i64 p, col;
  (void)contiguous;
  for (p = 0; p < kc; ++p, dst += NR)
    for (col = 0; col < NR; ++col)
      dst[col] = col < nw ? src[p][off[col]] : 0.0f;
}

static void pad_row_portable(float *dst, i64 wp, i64 lo, i64 hi,
                             const float *src) {
  memset(dst, 0, (size_t)lo * sizeof(float));
  memcpy(dst + lo, src, (size_t)(hi - lo) * sizeof(float));
  memset(dst + hi, 0, (size_t)(wp - hi) * sizeof(float));
}

void onnxc_rt_pad_row_cblock_portable(float *dst, i64 wp, i64 lo, i64 hi,
                                      const float *src, i64 cstride,
                                      i64 colstride) {
  i64 col, c;
  memset(dst, 0, (size_t)(lo * ONNXC_CONV_CBLOCK) * sizeof(float));
  for (col = lo; col < hi; ++col)
    for (c = 0; c < ONNXC_CONV_CBLOCK; ++c)
      dst[col * ONNXC_CONV_CBLOCK + c] =
          src[c * cstride + (col - lo) * colstride];
  memset(dst + hi * ONNXC_CONV_CBLOCK, 0,
         (size_t)((wp - hi) * ONNXC_CONV_CBLOCK) * sizeof(float));
}

static void split_row_portable(const float *src, i64 n, float *even,
                               float *odd) {
  i64 c;
  for (c = 0; c + 1 < n; c += 2) {
    even[c / 2] = src[c];
    odd[c / 2] = src[c + 1];
  }
  if (c < n)
    even[c / 2] = src[c];
}

void onnxc_rt_pack_fill_portable(onnxc_kernels *k) {
  k->pack_rows = pack_rows_portable;
  k->pack_cols = pack_cols_portable;
  k->im2col = onnxc_rt_im2col_portable;
  k->pad_row = pad_row_portable;
  k->pad_row_cblock = onnxc_rt_pad_row_cblock_portable;
  k->split_row = split_row_portable;
}
