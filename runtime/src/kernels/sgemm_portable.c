/*===- kernels/sgemm_portable.c - The packed-GEMM tile in plain C ---------===*
 *
 * The portable tier's sgemm_tile (dispatch.h): one row of the tile at a
 * time, its NR columns in an array that the compiler vectorizes for the
 * target's baseline (SSE2 on x86-64, NEON on aarch64). Each element is
 * summed over k in order, then gets the epilogue.
 *===----------------------------------------------------------------------===*/

#include "dispatch.h"

static void tile_portable(int rows, i64 kc, const float *a, i64 rsa, i64 csa,
                          const float *panel, float *c, i64 rsc, i64 csc,
                          i64 nw, int accumulate, const tile_ep *ep) {
  int r;
  i64 p, col;
  for (r = 0; r < rows; ++r) {
    float acc[NR];
    for (col = 0; col < NR; ++col)
      acc[col] = 0.0f;
    for (p = 0; p < kc; ++p) {
      float av = a[r * rsa + p * csa];
      const float *brow = panel + p * NR;
      for (col = 0; col < NR; ++col)
        acc[col] += av * brow[col];
    }
    for (col = 0; col < nw; ++col) {
      float *dst = c + r * rsc + col * csc;
      *dst = tile_ep_scalar(acc[col], *dst, accumulate, ep, r, col);
    }
  }
}

void onnxc_rt_sgemm_fill_portable(onnxc_kernels *k) {
  k->sgemm_mr = 8;
  k->wino_width = 32;
  k->sgemm_tile = tile_portable;
}
