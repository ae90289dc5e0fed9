/*===- qgemm_portable.c - The int8 kernels' portable C tier ---------------===*
 *
 * The tile kernel, panel interleave and DynamicQuantizeLinear loops of
 * qgemm.h in plain C: the reference the vector tiers match exactly, and
 * the tier of CPUs without AVX2. Also the scalar epilogue, which the
 * vector tiers may use for what they do not vectorize.
 *===----------------------------------------------------------------------===*/

#include "qgemm.h"

#include <string.h>

#define MR 4

void onnxc_rt_qepi_store(int rows, int nw, const int32_t *acc, int64_t ldacc,
                         const qepi *ep, void *c, int64_t rsc) {
  int r, col;
  for (r = 0; r < rows; ++r)
    for (col = 0; col < nw; ++col) {
      /* Unsigned: the int32 terms wrap as the sums do. */
      uint32_t u = (uint32_t)acc[r * ldacc + col];
      int32_t t;
      int ch = ep->ch_row ? r : col;
      float v;
      if (ep->radd)
        u += (uint32_t)ep->radd[r];
      if (ep->cadd)
        u += (uint32_t)ep->cadd[col];
      if (ep->rmul && ep->cmul)
        u += (uint32_t)ep->rmul[r] * (uint32_t)ep->cmul[col];
      if (ep->rmul2 && ep->cmul2)
        u += (uint32_t)ep->rmul2[r] * (uint32_t)ep->cmul2[col];
      t = (int32_t)u;
      switch (ep->out) {
      case ONNXC_Q_OUT_I32:
        ((int32_t *)c)[r * rsc + col] = t;
        continue;
      case ONNXC_Q_OUT_F32:
        v = (float)t * ep->scale[ch];
        if (ep->bias)
          v = v + ep->bias[ch];
        if (ep->clamp) {
          v = v < ep->lo ? ep->lo : v;
          v = v > ep->hi ? ep->hi : v;
        }
        ((float *)c)[r * rsc + col] = v;
        continue;
      default:
        v = (float)t * ep->scale[ch];
        if (!(v >= ep->lo)) /* NaN too, as MAXPS(v, lo) */
          v = ep->lo;
        if (v > ep->hi)
          v = ep->hi;
        t = (int32_t)onnxc_q_round_even(v) + ep->yzp;
        if (ep->out == ONNXC_Q_OUT_U8)
          ((uint8_t *)c)[r * rsc + col] = (uint8_t)t;
        else
          ((int8_t *)c)[r * rsc + col] = (int8_t)t;
      }
    }
}

static void tile(int rows, int64_t k4, const int8_t *a, int64_t lda,
                 const uint8_t *panel, int nw, const qepi *ep, void *c,
                 int64_t rsc) {
  int32_t acc[MR][QNR];
  int64_t p;
  int r, col;
  memset(acc, 0, sizeof acc);
  for (p = 0; p < k4; ++p, panel += 4 * QNR)
    for (r = 0; r < rows; ++r) {
      const int8_t *ar = a + r * lda + 4 * p;
      int32_t a0 = ar[0], a1 = ar[1], a2 = ar[2], a3 = ar[3];
      for (col = 0; col < QNR; ++col) {
        const uint8_t *b = panel + 4 * col;
        acc[r][col] += a0 * b[0] + a1 * b[1] + a2 * b[2] + a3 * b[3];
      }
    }
  onnxc_rt_qepi_store(rows, nw, acc[0], QNR, ep, c, rsc);
}

void onnxc_rt_qinterleave_portable(const uint8_t *const rows[4],
                                   const uint8_t *const hi[4], int split,
                                   uint8_t *dst) {
  int col, t;
  for (col = 0; col < QNR; ++col)
    for (t = 0; t < 4; ++t)
      dst[4 * col + t] = col < split ? rows[t][col] : hi[t][col];
}

void onnxc_rt_qinterleave_panels_portable(const uint8_t *const base[4],
                                          const int *seg,
                                          const int64_t (*off)[QSEG],
                                          const int (*start)[QSEG],
                                          int64_t panels, int64_t stride,
                                          uint8_t *dst) {
  int64_t i;
  int t, s, col;
  for (i = 0; i < panels; ++i)
    for (s = 0; s < seg[i]; ++s)
      for (col = start[i][s]; col < (s + 1 < seg[i] ? start[i][s + 1] : QNR);
           ++col)
        for (t = 0; t < 4; ++t)
          dst[i * stride + 4 * col + t] = base[t][off[i][s] + col];
}

static void minmax(const float *x, int64_t n, float *lo, float *hi) {
  float l = x[0], h = x[0];
  int64_t i;
  for (i = 1; i < n; ++i) {
    l = x[i] < l ? x[i] : l;
    h = x[i] > h ? x[i] : h;
  }
  *lo = l;
  *hi = h;
}

void onnxc_rt_qquantize_portable(const float *x, int64_t n, uint8_t *y,
                                 float scale, int32_t zp) {
  float lo = (float)(0 - zp), hi = (float)(255 - zp);
  int64_t i;
  for (i = 0; i < n; ++i) {
    float v = x[i] / scale;
    if (!(v >= lo))
      v = lo;
    if (v > hi)
      v = hi;
    y[i] = (uint8_t)((int32_t)onnxc_q_round_even(v) + zp);
  }
}

const qgemm_isa *onnxc_rt_qgemm_portable(void) {
  static const qgemm_isa isa = {"portable",
                                MR,
                                tile,
                                onnxc_rt_qinterleave_portable,
                                onnxc_rt_qinterleave_panels_portable,
                                0,
                                0,
                                minmax,
                                onnxc_rt_qquantize_portable,
                                0,
                                0,
                                0,
                                0,
                                0,
                                0};
  return &isa;
}
