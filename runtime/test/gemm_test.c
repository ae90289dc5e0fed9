/*===- gemm_test.c - onnxc_rt_sgemm* and onnxc_rt_sconv2d against loops ---===*
 *
 *   onnxc-gemm-test                 checks every shape class, prints a summary
 *   onnxc-gemm-test bench M N K R   times R products M x K by K x N (median)
 *   onnxc-gemm-test isa             prints the kernel tier in use and the
 *                                   best the CPU supports
 *   onnxc-gemm-test isa-choose      checks the tier choice of ONNXC_ISA and
 *                                   ONNXC_DISABLE_AVX512 on every CPU level
 *
 * Shapes cover the kernel's edges: rows and columns not multiples of the
 * tile (MR = 8, panel 32), depths across the KC = 256 block, transposed and
 * strided operands, packed B, accumulation, batches, products with few
 * rows or columns (kernels/gemv_*.c), epilogues (bias per row or column, clamp;
 * onnxc_rt_sgemm_ep), and convolutions with
 * strides, dilations, groups and strided views. Run it once per kernel tier
 * (ONNXC_ISA=portable, avx2, avx512: test/runtime/gemm.test).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 199309L
#include "../src/kernels/dispatch.h"
#include "onnxc/runtime_abi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int checks, failures;
static unsigned long long rng = 88172645463325252ull;

static float rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)((double)(rng % 2001) / 1000.0 - 1.0);
}

static float *rand_buf(long n) {
  float *p = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  long i;
  for (i = 0; i < n; ++i)
    p[i] = rnd();
  return p;
}

/* |got - exp| <= 1e-5 + 1e-4 * (sum of |terms|): fp32 rounding of a dot
 * product of length k, independent of the summation order. */
static void expect_close(const char *what, double got, double exp, double mag) {
  ++checks;
  if (fabs(got - exp) <= 1e-5 + 1e-4 * mag)
    return;
  if (++failures <= 10)
    printf("FAIL %s: got %g expected %g\n", what, got, exp);
}

static void pack_b(const float *b, long k, long n, long rsb, long csb,
                   float *bp) {
  long panels = (n + ONNXC_SGEMM_PANEL - 1) / ONNXC_SGEMM_PANEL, j, p, c;
  for (j = 0; j < panels; ++j)
    for (p = 0; p < k; ++p)
      for (c = 0; c < ONNXC_SGEMM_PANEL; ++c) {
        long col = j * ONNXC_SGEMM_PANEL + c;
        bp[(j * k + p) * ONNXC_SGEMM_PANEL + c] =
            col < n ? b[p * rsb + col * csb] : 0.0f;
      }
}

/* Test-only flag of check_gemm: C stored transposed (unit row stride). */
#define TRANS_C 256
#define EP_FLAGS \
  (ONNXC_SGEMM_BIAS_ROW | ONNXC_SGEMM_BIAS_COL | ONNXC_SGEMM_CLAMP)

/* The epilogue of onnxc_rt_sgemm_ep on the exact sum s (row i, column j):
 * the clamp bounds are the tests' -0.5 and 0.75. */
static double ref_ep(double s, const float *bias, long i, long j, int flags) {
  if (flags & ONNXC_SGEMM_BIAS_ROW)
    s += bias[i];
  if (flags & ONNXC_SGEMM_BIAS_COL)
    s += bias[j];
  if (flags & ONNXC_SGEMM_CLAMP)
    s = s < -0.5 ? -0.5 : s > 0.75 ? 0.75 : s;
  return s;
}

/* One product M x K by K x N with the given layouts; with epilogue flags
 * through onnxc_rt_sgemm_ep. */
static void check_gemm(long m, long n, long k, int transA, int transB,
                       long pad, int flags) {
  int transC = (flags & TRANS_C) != 0;
  int abi_flags = flags & ~TRANS_C;
  int biased = (flags & (ONNXC_SGEMM_BIAS_ROW | ONNXC_SGEMM_BIAS_COL)) != 0;
  long lda = (transA ? m : k) + pad, ldb = (transB ? k : n) + pad;
  long rows_c = transC ? n : m, cols_c = transC ? m : n, ldc = cols_c + pad;
  long rsa = transA ? 1 : lda, csa = transA ? lda : 1;
  long rsb = transB ? 1 : ldb, csb = transB ? ldb : 1;
  long rsc = transC ? 1 : ldc, csc = transC ? ldc : 1;
  float *a = rand_buf((transA ? k : m) * lda);
  float *b = rand_buf((transB ? n : k) * ldb);
  float *c = rand_buf(rows_c * ldc);
  float *c0 = malloc(sizeof(float) * (size_t)(rows_c * ldc + 1));
  float *bias = rand_buf(m > n ? m : n);
  float *bp = NULL;
  long i, j, p;
  char what[160];
  memcpy(c0, c, sizeof(float) * (size_t)(rows_c * ldc));
  if (flags & ONNXC_SGEMM_B_PACKED) {
    bp = malloc(sizeof(float) * (size_t)(((n + 31) / 32) * 32 * (k ? k : 1)));
    pack_b(b, k, n, rsb, csb, bp);
  }
  if (flags & EP_FLAGS)
    onnxc_rt_sgemm_ep(m, n, k, a, rsa, csa, bp ? bp : b, rsb, csb, c, rsc,
                      csc, abi_flags, bias, -0.5f, 0.75f);
  else
    onnxc_rt_sgemm(m, n, k, a, rsa, csa, bp ? bp : b, rsb, csb, c, rsc, csc,
                   abi_flags);
  sprintf(what, "sgemm %ldx%ldx%ld tA=%d tB=%d pad=%ld flags=%d", m, n, k,
          transA, transB, pad, flags);
  for (i = 0; i < m; ++i) {
    for (j = 0; j < n; ++j) {
      double s = (flags & ONNXC_SGEMM_ACCUMULATE) && !biased
                     ? c0[i * rsc + j * csc]
                     : 0.0;
      double mag = fabs(s);
      for (p = 0; p < k; ++p) {
        double t = (double)a[i * rsa + p * csa] * b[p * rsb + j * csb];
        s += t;
        mag += fabs(t);
      }
      /* The bias is one more term; the clamp never widens the error. */
      if (flags & ONNXC_SGEMM_BIAS_ROW)
        mag += fabs(bias[i]);
      if (flags & ONNXC_SGEMM_BIAS_COL)
        mag += fabs(bias[j]);
      expect_close(what, c[i * rsc + j * csc], ref_ep(s, bias, i, j, flags),
                   mag);
    }
  }
  /* The padding of C stays untouched. */
  for (i = 0; i < rows_c; ++i)
    for (j = cols_c; j < ldc; ++j)
      expect_close(what, c[i * ldc + j], c0[i * ldc + j], 0);
  free(a);
  free(b);
  free(c);
  free(c0);
  free(bias);
  free(bp);
}

/* `batch` products; with epilogue flags through onnxc_rt_sgemm_batched_ep
 * (one bias for every product). */
static void check_batched(long batch, long m, long n, long k, int shareB,
                          int flags) {
  long sba = m * k, sbb = shareB ? 0 : k * n, sbc = m * n, i, j, p, t;
  float *a = rand_buf(batch * sba), *b = rand_buf(shareB ? k * n : batch * sbb);
  float *c = rand_buf(batch * sbc), *bias = rand_buf(m > n ? m : n);
  char what[120];
  if (flags)
    onnxc_rt_sgemm_batched_ep(batch, m, n, k, a, sba, k, 1, b, sbb, n, 1, c,
                              sbc, n, 1, flags, bias, -0.5f, 0.75f);
  else
    onnxc_rt_sgemm_batched(batch, m, n, k, a, sba, k, 1, b, sbb, n, 1, c, sbc,
                           n, 1, 0);
  sprintf(what, "batched %ld x %ldx%ldx%ld shareB=%d flags=%d", batch, m, n,
          k, shareB, flags);
  for (t = 0; t < batch; ++t)
    for (i = 0; i < m; ++i)
      for (j = 0; j < n; ++j) {
        double s = 0, mag = 0;
        for (p = 0; p < k; ++p) {
          double v = (double)a[t * sba + i * k + p] * b[t * sbb + p * n + j];
          s += v;
          mag += fabs(v);
        }
        if (flags & ONNXC_SGEMM_BIAS_ROW)
          mag += fabs(bias[i]);
        if (flags & ONNXC_SGEMM_BIAS_COL)
          mag += fabs(bias[j]);
        expect_close(what, c[t * sbc + i * n + j], ref_ep(s, bias, i, j, flags),
                     mag);
      }
  free(a);
  free(b);
  free(c);
  free(bias);
}

/* fuse & BIAS_ADD: ONNXC_CONV_BIAS_ADD (Y's values plus the bias are the
 * start). */
#define BIAS_ADD 64

/* The fused activations (ONNXC_CONV_ACT) of the conv checks: `(fuse >> 3) & 7`
 * is the kind, with these parameters (Swish with alpha, HardSigmoid with
 * ONNX's non-default alpha and beta, HardSwish's 1/6 and 0.5). */
static float act_alpha(int kind) {
  return kind == ONNXC_ACT_SWISH ? 1.25f
         : kind == ONNXC_ACT_HARD_SIGMOID ? 0.3f
                                          : 1.0f / 6.0f;
}
static float act_beta(int kind) {
  return kind == ONNXC_ACT_HARD_SIGMOID ? 0.4f : 0.5f;
}

/* The activation in double. */
static double ref_act(double s, int kind) {
  double a = act_alpha(kind), b = act_beta(kind), t;
  switch (kind) {
  case ONNXC_ACT_SIGMOID:
    return 1.0 / (1.0 + exp(-s));
  case ONNXC_ACT_SWISH:
    return s / (1.0 + exp(-a * s));
  case ONNXC_ACT_HARD_SIGMOID:
  case ONNXC_ACT_HARD_SWISH:
    t = a * s + b;
    t = t > 1.0 ? 1.0 : t < 0.0 ? 0.0 : t;
    return kind == ONNXC_ACT_HARD_SWISH ? s * t : t;
  default:
    return s;
  }
}

/* A conv check's activation flags and parameters. */
static void set_act(onnxc_conv2d_params *q, int fuse) {
  int kind = (fuse >> 3) & 7;
  if (!kind)
    return;
  q->flags |= ONNXC_CONV_ACT(kind);
  q->act_alpha = act_alpha(kind);
  q->act_beta = act_beta(kind);
}

/* The activation and the sum's tolerance after it (every slope is at most
 * 1.5: the pre-activation error, scaled). */
static void apply_ref_act(double *s, double *mag, int fuse) {
  if (!((fuse >> 3) & 7))
    return;
  *s = ref_act(*s, (fuse >> 3) & 7);
  *mag = 1.5 * *mag + 1e-3;
}

/* Conv over a padded NCHW input with groups; `wpad` > 0 gives W a
 * non-contiguous layout and `ypad` > 0 gives Y row padding. */
/* W[g, m, c, kh, kw] (contiguous, `wstride_c` floats per input channel)
 * as ONNXC_CONV_W_PACKED panels; `cblock`: rows in ONNXC_CONV_W_CBLOCK
 * order, row ((c / 16) * khw + t) * 16 + c % 16 for tap t of channel c. */
static float *pack_conv(const float *wt, long groups, long m, long cin,
                        long khw, long wstride_c, int cblock) {
  long panels = (m + ONNXC_SGEMM_PANEL - 1) / ONNXC_SGEMM_PANEL;
  long kdim = cin * khw, g, j, k, c;
  float *p = malloc(sizeof(float) * (size_t)(groups * panels * kdim * ONNXC_SGEMM_PANEL));
  for (g = 0; g < groups; ++g)
    for (j = 0; j < panels; ++j)
      for (k = 0; k < kdim; ++k)
        for (c = 0; c < ONNXC_SGEMM_PANEL; ++c) {
          long mm = j * ONNXC_SGEMM_PANEL + c, ci = k / khw, t = k % khw;
          long row = cblock ? ((ci / ONNXC_CONV_CBLOCK) * khw + t) * ONNXC_CONV_CBLOCK +
                                  ci % ONNXC_CONV_CBLOCK
                            : k;
          p[((g * panels + j) * kdim + row) * ONNXC_SGEMM_PANEL + c] =
              mm < m ? wt[((g * m + mm) * cin + ci) * wstride_c + t] : 0.0f;
        }
  return p;
}

/* A convolution of an h x w input with `oh` x `ow` outputs. padded: the
 * call gets x unpadded with ONNXC_CONV_PADDED and pads pt (top) and pl
 * (left), any integers, the bottom and right padding being whatever oh
 * and ow reach; else x is read as padded already (pt = pl = 0, every
 * window inside). The reference reads 0 outside the input. */
static void check_conv_ex(long nb, long groups, long m, long cin, long h,
                          long w, long kh, long kw, long sh, long sw, long dh,
                          long dw, long wpad, long pt, long pl, long oh,
                          long ow, int padded, int packed, int fuse) {
  onnxc_conv2d_params q;
  long xsz = nb * groups * cin * h * w;
  long wstride_c = kh * kw + wpad;
  long wsz = groups * m * cin * wstride_c;
  long ysz = nb * groups * m * oh * ow;
  float *x = rand_buf(xsz), *wt = rand_buf(wsz), *y = rand_buf(ysz);
  float *bias = rand_buf(groups * m);
  float *y0 = malloc(sizeof(float) * (size_t)(ysz > 0 ? ysz : 1));
  long n, g, mm, a, b, c, i, j;
  char what[200];
  memcpy(y0, y, sizeof(float) * (size_t)ysz);
  memset(&q, 0, sizeof q);
  q.batch = nb; q.groups = groups; q.out_channels = m; q.in_channels = cin;
  q.out_h = oh; q.out_w = ow; q.kernel_h = kh; q.kernel_w = kw;
  q.stride_h = sh; q.stride_w = sw; q.dilation_h = dh; q.dilation_w = dw;
  q.x_strides[4] = 1; q.x_strides[3] = w; q.x_strides[2] = h * w;
  q.x_strides[1] = cin * h * w; q.x_strides[0] = groups * cin * h * w;
  q.w_strides[4] = 1; q.w_strides[3] = kw; q.w_strides[2] = wstride_c;
  q.w_strides[1] = cin * wstride_c; q.w_strides[0] = m * cin * wstride_c;
  q.y_strides[4] = 1; q.y_strides[3] = ow; q.y_strides[2] = oh * ow;
  q.y_strides[1] = m * oh * ow; q.y_strides[0] = groups * m * oh * ow;
  q.flags = 0;
  q.bias = (fuse & 4) ? NULL : bias; /* 4: start from zero */
  q.clamp_lo = -0.5f;
  q.clamp_hi = 0.75f;
  if (fuse & 5)
    q.flags |= ONNXC_CONV_BIAS;
  if (fuse & BIAS_ADD)
    q.flags |= ONNXC_CONV_BIAS_ADD;
  if (fuse & 2)
    q.flags |= ONNXC_CONV_CLAMP;
  set_act(&q, fuse);
  if (padded) {
    q.flags |= ONNXC_CONV_PADDED;
    q.pad_top = pt; q.pad_left = pl; q.in_h = h; q.in_w = w;
  }
  if (packed) {
    /* packed 2: in ONNXC_CONV_W_CBLOCK order */
    float *wp = pack_conv(wt, groups, m, cin, kh * kw, wstride_c, packed == 2);
    q.flags |= ONNXC_CONV_W_PACKED | (packed == 2 ? ONNXC_CONV_W_CBLOCK : 0) |
               (packed == 3 ? ONNXC_CONV_W_CONST : 0);
    onnxc_rt_sconv2d(&q, x, wp, y);
    free(wp);
  } else {
    onnxc_rt_sconv2d(&q, x, wt, y);
  }
  sprintf(what, "conv n%ld g%ld m%ld c%ld %ldx%ld k%ldx%ld s%ld,%ld d%ld,%ld wpad%ld pads%d %ld,%ld out %ldx%ld packed%d fuse%d",
          nb, groups, m, cin, h, w, kh, kw, sh, sw, dh, dw, wpad, padded, pt,
          pl, oh, ow, packed, fuse);
  for (n = 0; n < nb; ++n)
    for (g = 0; g < groups; ++g)
      for (mm = 0; mm < m; ++mm)
        for (i = 0; i < oh; ++i)
          for (j = 0; j < ow; ++j) {
            long yo = (((n * groups + g) * m + mm) * oh + i) * ow + j;
            double s = (fuse & 4)          ? 0.0
                       : (fuse & 1)        ? bias[g * m + mm]
                       : (fuse & BIAS_ADD) ? (double)y0[yo] + bias[g * m + mm]
                                           : y0[yo],
                   mag = (fuse & BIAS_ADD) ? fabs(y0[yo]) + fabs(bias[g * m + mm])
                                           : fabs(s);
            for (c = 0; c < cin; ++c)
              for (a = 0; a < kh; ++a)
                for (b = 0; b < kw; ++b) {
                  long ih = i * sh - pt + a * dh, iw = j * sw - pl + b * dw;
                  double v;
                  if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                    continue;
                  v = (double)x[(((n * groups + g) * cin + c) * h + ih) * w + iw] *
                      wt[((g * m + mm) * cin + c) * wstride_c + a * kw + b];
                  s += v;
                  mag += fabs(v);
                }
            if (fuse & 2) {
              s = s < -0.5 ? -0.5 : s > 0.75 ? 0.75 : s;
              mag = fabs(s) + 1e-3;
            }
            apply_ref_act(&s, &mag, fuse);
            expect_close(what, y[yo], s, mag);
          }
  free(bias);
  free(x);
  free(wt);
  free(y);
  free(y0);
}

/* ONNXC_CONV_IN_PLACE: a depthwise k x k (k odd), stride 1, pads pt
 * (top), k - 1 - pt (bottom) and (k - 1) / 2 left and right, whose output
 * is written over its input (same strides, same size). */
static void check_conv_in_place(long nb, long groups, long h, long w, long pt,
                                long k, int packed, int fuse) {
  onnxc_conv2d_params q;
  long xsz = nb * groups * h * w, n, g, i, j, a, b;
  float *x = rand_buf(xsz), *x0 = malloc(sizeof(float) * (size_t)xsz);
  float *wt = rand_buf(groups * k * k), *bias = rand_buf(groups);
  char what[160];
  memcpy(x0, x, sizeof(float) * (size_t)xsz);
  memset(&q, 0, sizeof q);
  q.batch = nb; q.groups = groups; q.out_channels = 1; q.in_channels = 1;
  q.out_h = h; q.out_w = w; q.kernel_h = k; q.kernel_w = k;
  q.stride_h = q.stride_w = q.dilation_h = q.dilation_w = 1;
  q.x_strides[4] = 1; q.x_strides[3] = w; q.x_strides[2] = h * w;
  q.x_strides[1] = h * w; q.x_strides[0] = groups * h * w;
  memcpy(q.y_strides, q.x_strides, sizeof q.y_strides);
  q.w_strides[4] = 1; q.w_strides[3] = k; q.w_strides[2] = k * k;
  q.w_strides[1] = k * k; q.w_strides[0] = k * k;
  q.flags = ONNXC_CONV_PADDED | ONNXC_CONV_IN_PLACE | ONNXC_CONV_BIAS;
  q.bias = bias;
  q.clamp_lo = -0.5f;
  q.clamp_hi = 0.75f;
  if (fuse & 2)
    q.flags |= ONNXC_CONV_CLAMP;
  set_act(&q, fuse);
  q.pad_top = pt; q.pad_left = (k - 1) / 2; q.in_h = h; q.in_w = w;
  if (packed) {
    float *wp = pack_conv(wt, groups, 1, 1, k * k, k * k, 0);
    q.flags |= ONNXC_CONV_W_PACKED;
    onnxc_rt_sconv2d(&q, x, wp, x);
    free(wp);
  } else {
    onnxc_rt_sconv2d(&q, x, wt, x);
  }
  sprintf(what, "conv in place n%ld g%ld %ldx%ld k%ld pad_top %ld packed%d fuse%d",
          nb, groups, h, w, k, pt, packed, fuse);
  for (n = 0; n < nb; ++n)
    for (g = 0; g < groups; ++g)
      for (i = 0; i < h; ++i)
        for (j = 0; j < w; ++j) {
          const float *xc = x0 + (n * groups + g) * h * w;
          double s = bias[g], mag = fabs(s);
          for (a = 0; a < k; ++a)
            for (b = 0; b < k; ++b) {
              long ih = i - pt + a, iw = j - (k - 1) / 2 + b;
              double v;
              if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                continue;
              v = (double)xc[ih * w + iw] * wt[(g * k + a) * k + b];
              s += v;
              mag += fabs(v);
            }
          if (fuse & 2) {
            s = s < -0.5 ? -0.5 : s > 0.75 ? 0.75 : s;
            mag = fabs(s) + 1e-3;
          }
          apply_ref_act(&s, &mag, fuse);
          expect_close(what, x[((n * groups + g) * h + i) * w + j], s, mag);
        }
  free(x);
  free(x0);
  free(wt);
  free(bias);
}

/* Over an input padded already: every window inside. */
static void check_conv(long nb, long groups, long m, long cin, long h, long w,
                       long kh, long kw, long sh, long sw, long dh, long dw,
                       long wpad, int packed, int fuse) {
  check_conv_ex(nb, groups, m, cin, h, w, kh, kw, sh, sw, dh, dw, wpad, 0, 0,
                (h - (kh - 1) * dh - 1) / sh + 1,
                (w - (kw - 1) * dw - 1) / sw + 1, 0, packed, fuse);
}

/* ONNXC_CONV_PADDED with pads pt, pb (top, bottom), pl, pr (left, right):
 * the output size they give. */
static void check_conv_pad(long nb, long groups, long m, long cin, long h,
                           long w, long kh, long kw, long sh, long sw, long dh,
                           long dw, long pt, long pb, long pl, long pr,
                           int packed, int fuse) {
  check_conv_ex(nb, groups, m, cin, h, w, kh, kw, sh, sw, dh, dw, 0, pt, pl,
                (h + pt + pb - (kh - 1) * dh - 1) / sh + 1,
                (w + pl + pr - (kw - 1) * dw - 1) / sw + 1, 1, packed, fuse);
}

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The distance in ulps of two floats (0 for two NaNs; NaN against a
 * number: huge). */
static double ulps(float a, float b) {
  int32_t ia, ib;
  if (a != a || b != b)
    return a != a && b != b ? 0.0 : 1e30;
  memcpy(&ia, &a, sizeof ia);
  memcpy(&ib, &b, sizeof ib);
  if (ia < 0)
    ia = INT32_MIN - ia;
  if (ib < 0)
    ib = INT32_MIN - ib;
  return fabs((double)ia - (double)ib);
}

/* The tier's act_row against act_scalar (libm's expf) over [-100, 100] in
 * steps of 2^-10 (rows of odd lengths: the masked tails) and special
 * values: the largest distance in ulps per kind, printed, at most 4;
 * NaN, infinities and zeros exactly as act_scalar gives them. */
static void check_act_accuracy(void) {
  static const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f,
                                   88.0f, 89.0f, 90.0f, -87.0f, -103.0f,
                                   -104.0f, -105.0f, 1e30f, -1e30f, 3.0f,
                                   -3.0f, 1e-30f, -1e-30f};
  const onnxc_kernels *kt = onnxc_rt_kernels();
  long count = 200 * 1024 + 1, i;
  float *x = malloc(sizeof(float) * (size_t)count);
  float *y = malloc(sizeof(float) * (size_t)count);
  int kind;
  for (kind = ONNXC_ACT_SIGMOID; kind <= ONNXC_ACT_HARD_SWISH; ++kind) {
    act_ep a;
    double worst = 0.0;
    long n, at = 0;
    a.kind = kind;
    a.alpha = kind == ONNXC_ACT_SWISH ? 1.0f : act_alpha(kind);
    a.beta = act_beta(kind);
    for (i = 0; i < count; ++i)
      x[i] = y[i] = -100.0f + (float)i / 1024.0f;
    for (i = 0; i < count; i += n) {
      n = 1 + (i / 7) % 37;
      if (n > count - i)
        n = count - i;
      kt->act_row(y + i, n, &a);
    }
    for (i = 0; i < count; ++i) {
      double d = ulps(y[i], act_scalar(x[i], &a));
      if (d > worst) {
        worst = d;
        at = i;
      }
    }
    ++checks;
    printf("act %d: max %.0f ulp from libm at %g\n", kind, worst, x[at]);
    if (worst > 4.0 && ++failures <= 10)
      printf("FAIL act %d: %.0f ulp at %g\n", kind, worst, x[at]);
    for (i = 0; i < (long)(sizeof specials / sizeof *specials); ++i) {
      float v = specials[i], want = act_scalar(v, &a);
      kt->act_row(&v, 1, &a);
      ++checks;
      if (memcmp(&v, &want, sizeof v) != 0 && !(v != v && want != want) &&
          ulps(v, want) > 4.0 && ++failures <= 10)
        printf("FAIL act %d of %g: got %g expected %g\n", kind,
               specials[i], v, want);
    }
  }
  free(x);
  free(y);
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

static int bench(long m, long n, long k, int runs) {
  float *a = rand_buf(m * k), *b = rand_buf(k * n), *c = rand_buf(m * n);
  double *t = malloc(sizeof(double) * (size_t)runs), flop = 2.0 * m * n * k;
  int i;
  onnxc_rt_sgemm(m, n, k, a, k, 1, b, n, 1, c, n, 1, 0);
  for (i = 0; i < runs; ++i) {
    double t0 = now();
    onnxc_rt_sgemm(m, n, k, a, k, 1, b, n, 1, c, n, 1, 0);
    t[i] = now() - t0;
  }
  qsort(t, (size_t)runs, sizeof(double), cmp_double);
  printf("sgemm %ldx%ldx%ld: median %.3f ms (%.1f GFLOP/s), min %.3f ms (%.1f "
         "GFLOP/s)\n",
         m, n, k, t[runs / 2] * 1e3, flop / t[runs / 2] * 1e-9, t[0] * 1e3,
         flop / t[0] * 1e-9);
  return 0;
}

/* The tier choice (kernels/dispatch.c) for every value of the two
 * variables and every CPU level: ONNXC_ISA lowered to what the CPU has,
 * ONNXC_DISABLE_AVX512 capping at avx2 only without ONNXC_ISA, unknown
 * names ignored. */
static int isa_choose(void) {
  static const struct {
    const char *isa, *disable;
    onnxc_isa best, want;
    int bad;
  } cases[] = {
      {NULL, NULL, ONNXC_ISA_AVX512, ONNXC_ISA_AVX512, 0},
      {NULL, NULL, ONNXC_ISA_AVX2, ONNXC_ISA_AVX2, 0},
      {NULL, NULL, ONNXC_ISA_PORTABLE, ONNXC_ISA_PORTABLE, 0},
      {"portable", NULL, ONNXC_ISA_AVX512, ONNXC_ISA_PORTABLE, 0},
      {"avx2", NULL, ONNXC_ISA_AVX512, ONNXC_ISA_AVX2, 0},
      {"avx512", NULL, ONNXC_ISA_AVX512, ONNXC_ISA_AVX512, 0},
      {"avx512", NULL, ONNXC_ISA_AVX2, ONNXC_ISA_AVX2, 0},
      {"avx512", NULL, ONNXC_ISA_PORTABLE, ONNXC_ISA_PORTABLE, 0},
      {"avx2", NULL, ONNXC_ISA_PORTABLE, ONNXC_ISA_PORTABLE, 0},
      {"", NULL, ONNXC_ISA_AVX2, ONNXC_ISA_AVX2, 0},
      {"AVX2", NULL, ONNXC_ISA_AVX512, ONNXC_ISA_AVX512, 1},
      {"neon", "1", ONNXC_ISA_AVX512, ONNXC_ISA_AVX2, 1},
      {NULL, "1", ONNXC_ISA_AVX512, ONNXC_ISA_AVX2, 0},
      {NULL, "1", ONNXC_ISA_AVX2, ONNXC_ISA_AVX2, 0},
      {NULL, "1", ONNXC_ISA_PORTABLE, ONNXC_ISA_PORTABLE, 0},
      {NULL, "0", ONNXC_ISA_AVX512, ONNXC_ISA_AVX512, 0},
      {NULL, "", ONNXC_ISA_AVX512, ONNXC_ISA_AVX512, 0},
      {"avx512", "1", ONNXC_ISA_AVX512, ONNXC_ISA_AVX512, 0},
      {"portable", "1", ONNXC_ISA_AVX512, ONNXC_ISA_PORTABLE, 0},
  };
  unsigned i;
  for (i = 0; i < sizeof cases / sizeof *cases; ++i) {
    int bad;
    onnxc_isa got =
        onnxc_rt_isa_choose(cases[i].isa, cases[i].disable, cases[i].best, &bad);
    ++checks;
    if (got != cases[i].want || bad != cases[i].bad) {
      ++failures;
      printf("FAIL isa choice: ONNXC_ISA=%s ONNXC_DISABLE_AVX512=%s on %s: "
             "%s (bad %d), expected %s (bad %d)\n",
             cases[i].isa ? cases[i].isa : "(unset)",
             cases[i].disable ? cases[i].disable : "(unset)",
             onnxc_rt_isa_name(cases[i].best), onnxc_rt_isa_name(got), bad,
             onnxc_rt_isa_name(cases[i].want), cases[i].bad);
    }
  }
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}

/* GEMM: sizes around the tiles and blocks, the batched forms, the gemv
 * kernels' few rows or columns, packed B, and the epilogues on every
 * path. */
static void gemm_cases(void) {
  static const long sizes[] = {1, 2, 7, 8, 9, 17, 31, 32, 33, 65};
  unsigned i, j;
  for (i = 0; i < sizeof sizes / sizeof *sizes; ++i)
    for (j = 0; j < sizeof sizes / sizeof *sizes; j += 3) {
      check_gemm(sizes[i], sizes[j], 13, 0, 0, 0, 0);
      check_gemm(sizes[j], sizes[i], 40, 0, 1, 3, ONNXC_SGEMM_ACCUMULATE);
    }
  check_gemm(20, 70, 300, 0, 0, 0, 0);          /* depth across KC */
  check_gemm(9, 33, 600, 1, 0, 5, ONNXC_SGEMM_ACCUMULATE);
  check_gemm(37, 1100, 20, 0, 1, 0, 0);         /* width across NC */
  check_gemm(130, 45, 64, 1, 1, 2, 0);          /* rows across MC */
  check_gemm(5, 70, 300, 0, 0, 0, ONNXC_SGEMM_B_PACKED);
  check_gemm(17, 1100, 270, 0, 1, 1, ONNXC_SGEMM_B_PACKED | ONNXC_SGEMM_ACCUMULATE);
  check_gemm(3, 10, 0, 0, 0, 0, 0);             /* empty depth: C = 0 */
  check_gemm(3, 10, 0, 0, 0, 0, ONNXC_SGEMM_ACCUMULATE);
  check_gemm(0, 10, 5, 0, 0, 0, 0);
  check_batched(3, 9, 40, 17, 0, 0);
  check_batched(4, 9, 40, 17, 1, 0);            /* folded into one product */
  /* Epilogues: a bias per row starts again with each product (no fold). */
  check_batched(3, 9, 40, 17, 1, ONNXC_SGEMM_BIAS_ROW);
  check_batched(3, 9, 40, 17, 1, ONNXC_SGEMM_BIAS_COL | ONNXC_SGEMM_CLAMP);
  check_batched(2, 3, 70, 17, 0, ONNXC_SGEMM_BIAS_COL);
  /* Few rows (the gemv kernels): up to 4 rows against panels of 128 columns and
   * their tails, odd and even depths, B row-major, transposed (dot
   * products) and packed, C transposed; few columns as C^T = B^T A^T. */
  for (i = 1; i <= 5; ++i)
    for (j = 0; j < 6; ++j) {
      static const long ns[] = {1, 16, 100, 129, 300, 4};
      long n = ns[j], k = 127 + (long)j;
      check_gemm((long)i, n, k, 0, 0, 0, 0);
      check_gemm((long)i, n, k, 1, 0, 2, ONNXC_SGEMM_ACCUMULATE);
      check_gemm((long)i, n, k, 0, 1, 1, 0);
      check_gemm((long)i, n, k, 0, 1, 0, ONNXC_SGEMM_ACCUMULATE | TRANS_C);
      check_gemm((long)i, n, k, 0, 0, 3, ONNXC_SGEMM_B_PACKED);
      check_gemm((long)i, n, k, 0, 1, 0, ONNXC_SGEMM_B_PACKED | TRANS_C);
      check_gemm(n, (long)i, k, 0, 1, 0, 0);
      check_gemm(n, (long)i, k, 1, 0, 1, ONNXC_SGEMM_ACCUMULATE | TRANS_C);
    }
  /* A packed B of 1 MiB and more: several panels at once, then the rest. */
  for (i = 1; i <= 4; ++i) {
    check_gemm((long)i, 300, 900, 0, 0, 0, ONNXC_SGEMM_B_PACKED);
    check_gemm((long)i, 300, 900, 0, 1, 0,
               ONNXC_SGEMM_B_PACKED | ONNXC_SGEMM_BIAS_COL | ONNXC_SGEMM_CLAMP);
  }
  /* Epilogues (bias per row or column, clamp) on every path: few rows or
   * columns, the blocked GEMM across KC (the bias with the first block,
   * the clamp with the last) and NC, packed B, strided C, empty depth. */
  for (i = 0; i < 7; ++i) {
    static const int eps[] = {
        ONNXC_SGEMM_BIAS_COL,
        ONNXC_SGEMM_BIAS_ROW,
        ONNXC_SGEMM_CLAMP,
        ONNXC_SGEMM_BIAS_COL | ONNXC_SGEMM_CLAMP,
        ONNXC_SGEMM_BIAS_ROW | ONNXC_SGEMM_CLAMP,
        ONNXC_SGEMM_ACCUMULATE | ONNXC_SGEMM_CLAMP,
        ONNXC_SGEMM_ACCUMULATE | ONNXC_SGEMM_BIAS_COL, /* C ignored */
    };
    int f = eps[i];
    check_gemm(1, 300, 77, 0, 0, 0, f);
    check_gemm(3, 70, 40, 0, 1, 1, f);
    check_gemm(2, 45, 33, 0, 0, 0, f | ONNXC_SGEMM_B_PACKED | TRANS_C);
    check_gemm(50, 3, 64, 0, 1, 0, f);
    check_gemm(20, 70, 300, 0, 0, 0, f);
    check_gemm(37, 1100, 20, 0, 1, 0, f | ONNXC_SGEMM_B_PACKED);
    check_gemm(17, 45, 270, 1, 0, 2, f | ONNXC_SGEMM_B_PACKED);
    check_gemm(9, 33, 300, 0, 0, 1, f | TRANS_C);
    check_gemm(3, 10, 0, 0, 0, 0, f);
  }
}

/* Convolutions without explicit padding: the GEMM paths, the indirect
 * GEMM, depthwise. `packed`: prepacked weights; `fuse` as in check_conv. */
static void conv_cases(int packed, int fuse) {
  check_conv(1, 1, 8, 3, 9, 11, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(2, 1, 17, 5, 12, 40, 3, 3, 2, 2, 1, 1, 0, packed, fuse);
  check_conv(1, 2, 6, 4, 10, 9, 3, 2, 1, 2, 2, 1, 3, packed, fuse);
  check_conv(1, 1, 33, 70, 6, 6, 1, 1, 1, 1, 1, 1, 0, packed, fuse); /* 1x1 */
  /* 16 channels and a second panel of 16 (the 16-wide tiles: rows of 37
   * positions, tiles ending at each row's end), batch 2. */
  check_conv(2, 1, 16, 5, 7, 37, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(1, 1, 48, 7, 9, 20, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  /* Panels of <= 16 channels over rows of >= 32 outputs: positions in
   * lanes (conv_rtile), segments of 32 and a masked tail, channel groups
   * of 8 (16), 6 + 6 (12) and 5 (5); K = 288 (its largest), dilated,
   * padded. */
  check_conv_pad(1, 1, 12, 32, 5, 72, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse);
  check_conv_pad(2, 1, 16, 3, 4, 64, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse);
  check_conv_pad(1, 1, 5, 7, 9, 45, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, packed, fuse);
  check_conv(1, 1, 48, 16, 4, 70, 3, 3, 1, 1, 1, 1, 0, packed, fuse); /* 32 + 16 */
  check_conv(1, 2, 70, 300, 33, 33, 1, 1, 1, 1, 1, 1, 0, packed, fuse); /* 1x1, K > KC, > NC positions */
  /* Strided 1 x 1 (onnxc_rt_sconv2d_subsample, then stride 1): stride 2
   * (split_row, rows of odd and even widths), 3, and 2 x 1; batch 2 and
   * two groups. */
  check_conv(1, 1, 70, 40, 9, 37, 1, 1, 2, 2, 1, 1, 0, packed, fuse);
  check_conv(2, 2, 40, 20, 8, 66, 1, 1, 2, 2, 1, 1, 0, packed, fuse);
  check_conv(1, 1, 33, 17, 10, 50, 1, 1, 3, 3, 1, 1, 0, packed, fuse);
  check_conv(1, 1, 64, 24, 7, 35, 1, 1, 2, 1, 1, 1, 0, packed, fuse);
  /* The same through the copy of the positions read
   * (onnxc_rt_sconv2d_subsample: >= 64 KiB of input an output row),
   * strides 2 and 3 (rows of 23 and 11 outputs: the indirect GEMM after
   * it), batch 2, two groups. */
  check_conv(2, 2, 36, 320, 9, 46, 1, 1, 2, 2, 1, 1, 0, packed, fuse);
  check_conv(1, 1, 40, 520, 7, 33, 1, 1, 3, 3, 1, 1, 0, packed, fuse);
  /* Rows of 40 outputs (conv1x1_packed after it). */
  check_conv(1, 1, 70, 220, 4, 80, 1, 1, 2, 2, 1, 1, 0, packed, fuse);
  /* 1 x 1 over rows of more than 32 outputs (conv1x1_packed), 64 input
   * channels: X read in place for 40 output channels, packed for 130. */
  check_conv(1, 1, 40, 64, 3, 41, 1, 1, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(1, 1, 130, 64, 3, 41, 1, 1, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(1, 1, 70, 40, 15, 15, 3, 3, 1, 1, 1, 1, 0, packed, fuse); /* > 128 positions */
  /* K > 2304: the indirect GEMM's two K blocks (not clamped: the clamp
   * checks' tolerance is for short sums). */
  if (!(fuse & 2)) {
    check_conv(1, 1, 9, 260, 6, 7, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
    /* Two panels at once (conv_tile2: 32 + 28 channels, then 32 + 32
     * and a narrow 4), over both K blocks; 13 positions: tiles of 5
     * and 4. */
    check_conv(1, 1, 60, 260, 6, 7, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
    check_conv(1, 1, 100, 258, 3, 19, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  }
  check_conv(2, 1, 64, 20, 9, 9, 3, 3, 2, 2, 1, 1, 0, packed, fuse); /* a pair, strided */
  /* Padded inputs over 512 KiB, in bands of rows (25, 25, 10; strided:
   * bands of 12). */
  if (!(fuse & 2)) {
    check_conv_pad(1, 1, 40, 48, 60, 100, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse);
    check_conv_pad(1, 1, 40, 48, 120, 100, 3, 3, 2, 2, 1, 1, 1, 2, 1, 1, packed, fuse);
  }
  /* One full panel in tiles of up to 12 (conv_tile1, K = 450 in steps),
   * then a narrow one. */
  check_conv(1, 1, 40, 50, 7, 25, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  /* A narrow panel over rows (conv_rows) with K = 360 in three steps. */
  check_conv(1, 1, 12, 40, 5, 40, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  /* Unpacked weights, packed by the runtime for the indirect GEMM when
   * that packs less than im2col would (weight panels <= images x
   * position panels): a weight gradient's convolution (16 "images",
   * 14 x 14 kernels, 3 x 3 outputs, K = 6272 across KCI), one with
   * dilations (a strided Conv's weight gradient), grouped, W padded
   * (the packer's strided path), 40 channels (two panels, the second
   * partial); and the im2col path kept for more weight panels than
   * that (100 channels, one image of 25 positions). */
  if (!(fuse & 2))
    check_conv(16, 1, 32, 32, 16, 16, 14, 14, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(4, 1, 16, 8, 15, 15, 6, 6, 1, 1, 2, 2, 0, packed, fuse);
  check_conv(3, 2, 10, 4, 12, 12, 10, 10, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(3, 2, 10, 4, 12, 12, 10, 10, 1, 1, 1, 1, 5, packed, fuse);
  check_conv(5, 1, 40, 3, 9, 10, 3, 4, 2, 1, 1, 2, 0, packed, fuse);
  check_conv(1, 1, 100, 6, 7, 7, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(1, 6, 1, 1, 9, 37, 3, 3, 1, 1, 1, 1, 0, packed, fuse); /* depthwise */
  check_conv(2, 5, 1, 1, 12, 45, 3, 3, 2, 2, 1, 1, 0, packed, fuse); /* depthwise, stride 2 */
  check_conv(1, 3, 2, 1, 11, 40, 3, 3, 1, 3, 2, 2, 0, packed, fuse); /* x2 multiplier, stride 3 */
  check_conv(1, 4, 1, 1, 7, 33, 5, 5, 1, 2, 1, 1, 2, packed, fuse); /* 5x5, W padded */
}

/* Convolutions with ONNXC_CONV_PADDED: depthwise windows of every size and
 * the GEMM paths. */
static void conv_pad_cases(int packed, int fuse) {
  /* ONNXC_CONV_PADDED: the padding read around the input (depthwise)
   * or copied in (the GEMM paths). */
  check_conv_pad(1, 5, 1, 1, 9, 37, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse); /* depthwise 3x3 pad 1 */
  check_conv_pad(2, 3, 1, 1, 12, 45, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, packed, fuse); /* stride 2 */
  check_conv_pad(1, 3, 1, 1, 11, 35, 3, 3, 2, 2, 1, 1, 0, 1, 0, 1, packed, fuse); /* bottom / right only */
  check_conv_pad(1, 2, 1, 1, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse); /* 7x7, one masked block */
  check_conv_pad(1, 2, 1, 1, 14, 40, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, packed, fuse); /* dilated */
  check_conv_pad(1, 3, 2, 1, 11, 40, 3, 3, 1, 3, 2, 2, 2, 1, 3, 2, packed, fuse); /* gather, multiplier 2 */
  check_conv_pad(1, 2, 1, 1, 10, 20, 5, 5, 2, 1, 1, 1, 2, 2, 2, 2, packed, fuse); /* 5x5 */
  /* Depthwise windows other than 3 x 3 (the tiers' general paths): 5 x 5
   * and 7 x 7 of stride 1 and 2 across the 32- and 64-column chunks and
   * their tails, dilated, 1-D, more than 256 taps (the gather path), and
   * over inputs padded already. */
  check_conv_pad(1, 3, 1, 1, 20, 70, 7, 7, 1, 1, 1, 1, 3, 3, 3, 3, packed, fuse);
  check_conv_pad(1, 3, 1, 1, 19, 75, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, packed, fuse);
  check_conv_pad(1, 2, 1, 1, 9, 66, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, packed, fuse); /* 33 outputs */
  check_conv_pad(1, 2, 1, 1, 9, 130, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, packed, fuse); /* 65 outputs */
  check_conv_pad(1, 2, 1, 1, 17, 40, 5, 5, 1, 1, 2, 2, 4, 4, 4, 4, packed, fuse); /* dilated */
  check_conv_pad(1, 2, 1, 1, 12, 29, 3, 5, 1, 2, 3, 1, 3, 3, 1, 2, packed, fuse); /* 3x5, mixed */
  check_conv_pad(1, 4, 1, 1, 1, 200, 1, 15, 1, 1, 1, 1, 0, 0, 7, 7, packed, fuse); /* 1-D */
  check_conv_pad(1, 3, 1, 1, 7, 7, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, packed, fuse); /* 7x7 map */
  check_conv_pad(1, 2, 1, 1, 20, 24, 17, 17, 1, 1, 1, 1, 8, 8, 8, 8, packed, fuse); /* 289 taps */
  check_conv(1, 3, 1, 1, 21, 69, 5, 5, 2, 2, 1, 1, 0, packed, fuse);
  check_conv(1, 3, 1, 1, 20, 80, 5, 5, 1, 1, 2, 2, 0, packed, fuse);
  check_conv(1, 2, 1, 1, 12, 40, 4, 4, 3, 3, 1, 1, 0, packed, fuse); /* stride 3 */
  check_conv_pad(1, 1, 8, 3, 9, 11, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse); /* GEMM path */
  check_conv_pad(2, 1, 17, 5, 12, 40, 3, 3, 2, 2, 1, 1, 1, 0, 2, 1, packed, fuse);
  check_conv_pad(1, 2, 6, 4, 10, 9, 3, 2, 1, 2, 2, 1, 2, 1, 0, 3, packed, fuse);
  check_conv_pad(1, 1, 33, 20, 6, 6, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse); /* 1x1 padded */
}

/* Bands of rows and columns, in place, many channels in short rows, and
 * grouped convolutions of few channels per group. */
static void conv_band_cases(int packed, int fuse) {
  /* Bands of rows, as a thread pool splits them: negative pad_top (the
   * window starts inside the input) and pad_top past the kernel (rows of
   * zeros above), same x. Columns too. */
  check_conv_ex(1, 4, 1, 1, 12, 30, 3, 3, 1, 1, 1, 1, 0, -5, 1, 4, 30, 1, packed, fuse);
  check_conv_ex(1, 4, 1, 1, 12, 30, 3, 3, 2, 2, 1, 1, 0, -3, -2, 6, 13, 1, packed, fuse);
  check_conv_ex(1, 3, 1, 1, 12, 30, 3, 3, 1, 1, 1, 1, 0, 5, 1, 10, 30, 1, packed, fuse);
  check_conv_ex(1, 3, 1, 1, 12, 30, 3, 3, 1, 1, 1, 1, 0, 3, 20, 14, 14, 1, packed, fuse);
  check_conv_ex(1, 2, 1, 1, 12, 30, 3, 3, 2, 3, 1, 1, 0, -4, -7, 5, 9, 1, packed, fuse);
  check_conv_ex(1, 1, 8, 3, 12, 30, 3, 3, 1, 1, 1, 1, 0, -5, 1, 4, 30, 1, packed, fuse);
  check_conv_ex(1, 1, 8, 3, 12, 30, 3, 3, 1, 1, 1, 1, 0, 6, -2, 9, 26, 1, packed, fuse);
  check_conv_ex(1, 1, 33, 20, 6, 6, 1, 1, 1, 1, 1, 1, 0, -2, 0, 3, 6, 1, packed, fuse);
  check_conv_ex(1, 2, 1, 1, 12, 30, 3, 3, 1, 1, 1, 1, 0, 40, 1, 3, 30, 1, packed, fuse); /* all zeros */
  check_conv_in_place(2, 5, 9, 37, 1, 3, packed, fuse);
  check_conv_in_place(1, 3, 7, 7, 1, 3, packed, fuse);
  check_conv_in_place(1, 2, 6, 16, 0, 3, packed, fuse); /* one strip */
  check_conv_in_place(1, 2, 6, 14, 2, 3, packed, fuse);
  check_conv_in_place(1, 2, 5, 20, 2, 3, packed, fuse); /* two strips */
  check_conv_in_place(1, 2, 6, 8, 1, 3, packed, fuse); /* one AVX2 strip */
  check_conv_in_place(1, 3, 9, 37, 2, 5, packed, fuse); /* 5x5 */
  check_conv_in_place(1, 2, 8, 70, 3, 7, packed, fuse); /* 7x7 */
  /* Short rows with many channels: the AVX-512 tier's channels-in-lanes
   * blocks for windows over 3x3 (16 channels and a tail of 5 or 1): 5x5,
   * 3x5, 7x7, strides 1 and 2, dilated, rows of 16 to 32, negative and
   * large pads, W padded, in place; and the same shapes in 3x3 (the
   * strips). */
  check_conv_pad(1, 21, 1, 1, 14, 16, 5, 5, 1, 1, 2, 2, 4, 4, 4, 4, packed, fuse);
  check_conv_pad(1, 18, 1, 1, 28, 28, 7, 7, 1, 1, 1, 1, 3, 3, 3, 3, packed, fuse);
  check_conv_ex(1, 19, 1, 1, 12, 30, 5, 5, 2, 1, 1, 1, 0, -3, 2, 4, 30, 1, packed, fuse);
  check_conv_pad(1, 37, 1, 1, 7, 7, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, packed, fuse);
  check_conv_pad(2, 33, 1, 1, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, packed, fuse);
  check_conv_pad(1, 16, 1, 1, 14, 14, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2, packed, fuse);
  check_conv_pad(1, 21, 1, 1, 9, 11, 3, 3, 1, 1, 2, 3, 2, 2, 3, 3, packed, fuse);
  check_conv_pad(1, 17, 1, 1, 16, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse);
  check_conv_pad(1, 18, 1, 1, 20, 30, 3, 5, 2, 2, 1, 1, 0, 1, 2, 3, packed, fuse);
  check_conv_ex(1, 19, 1, 1, 12, 30, 3, 3, 2, 3, 1, 1, 0, -4, -7, 5, 9, 1, packed, fuse);
  check_conv_ex(1, 20, 1, 1, 12, 14, 3, 3, 1, 1, 1, 1, 0, 3, 5, 14, 14, 1, packed, fuse);
  check_conv(1, 23, 1, 1, 9, 9, 3, 3, 1, 1, 1, 1, 0, packed, fuse);
  check_conv(2, 17, 1, 1, 11, 20, 5, 5, 2, 2, 1, 1, 2, packed, fuse); /* W padded */
  /* Grouped with few channels per group (ResNeXt's 32 groups of 4 to
   * 16): one depthwise pass per input channel, the bias on the first,
   * the clamp and activation after the last, up to the tier's
   * dw_grouped_max (groups of 8 through the GEMM on AVX2). */
  check_conv_pad(1, 32, 4, 4, 14, 14, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse);
  check_conv_pad(2, 8, 8, 8, 15, 15, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, packed, fuse);
  check_conv_pad(1, 4, 16, 16, 7, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, packed, fuse);
  check_conv_pad(1, 6, 3, 5, 10, 20, 5, 5, 2, 1, 2, 1, 4, 4, 2, 2, packed, fuse);
  check_conv(1, 4, 2, 3, 9, 40, 3, 3, 1, 1, 1, 1, 1, packed, fuse);
  check_conv(1, 2, 17, 4, 9, 9, 3, 3, 1, 1, 1, 1, 0, packed, fuse); /* 17: the GEMM */
  check_conv_in_place(1, 40, 7, 7, 2, 5, packed, fuse);
  check_conv_in_place(2, 17, 14, 14, 1, 3, packed, fuse);
}

/* Weights in ONNXC_CONV_W_CBLOCK order (packed 2): padded inputs copied
 * in blocks of 16 channels (panels of 32 and a narrow last one: 48 and 40
 * channels, 16 alone; rows of 37, 9 and 5 positions; stride 2; 5 x 5;
 * 3 blocks; bands of rows with negative and large pad_top, as threads
 * split a call), and an unpadded input read over its planes in that
 * order. */
static void conv_cblock_cases(int fuse) {
  check_conv_pad(1, 1, 48, 32, 20, 37, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, fuse);
  check_conv_pad(2, 1, 40, 48, 9, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, fuse);
  check_conv_pad(1, 1, 16, 32, 12, 40, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, fuse);
  check_conv_pad(1, 1, 33, 16, 13, 11, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 2, fuse);
  check_conv_pad(1, 1, 64, 32, 11, 5, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2, 2, fuse);
  check_conv_pad(1, 1, 32, 32, 12, 30, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2, 2, fuse); /* dilated */
  check_conv_ex(1, 1, 48, 32, 12, 30, 3, 3, 1, 1, 1, 1, 0, -5, 1, 4, 30, 1, 2, fuse);
  check_conv_ex(1, 1, 48, 32, 12, 30, 3, 3, 1, 1, 1, 1, 0, 3, 1, 12, 30, 1, 2, fuse);
  check_conv(1, 1, 48, 32, 10, 21, 3, 3, 1, 1, 1, 1, 0, 2, fuse); /* unpadded */
  /* A padded input over 512 KiB: bands of 19, 19 and 2 rows, each padded
   * on its own. */
  if (!(fuse & 2))
    check_conv_pad(1, 1, 64, 64, 40, 100, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 2, fuse);
}

/* conv.c's (internal.h): large packed constant weights copied once into
 * the runtime's own pages and kept. The test links the static runtime. */
const float *onnxc_rt_kept_copy(const onnxc_conv2d_params *q, const float *w);

/* The kept copy: a copy for large ONNXC_CONV_W_CONST | W_PACKED weights
 * (the same one on the next call, a new one once the values at the
 * address change), the weights themselves when small, not constant, or
 * with ONNXC_KEEP_WEIGHTS=0; and convolutions through it against loops
 * (packed 3: constant weights, freed after each call, so that the next
 * case's weights may reuse the address with other values). */
#define KEPT_CHECK(cond)                                                       \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond) && ++failures <= 10)                                           \
      printf("FAIL kept copy: %s (line %d)\n", #cond, __LINE__);               \
  } while (0)

static void kept_copy_cases(void) {
  const char *env = getenv("ONNXC_KEEP_WEIGHTS");
  int on = !(env && strcmp(env, "0") == 0);
  long cin = 1536, m = 64, n = 2 * cin * ONNXC_SGEMM_PANEL, i;
  float *wt = rand_buf(m * cin), *wp = pack_conv(wt, 1, m, cin, 1, 1, 0);
  const float *u, *u2;
  onnxc_conv2d_params q;
  memset(&q, 0, sizeof q);
  q.batch = q.groups = 1;
  q.out_channels = m;
  q.in_channels = cin;
  q.kernel_h = q.kernel_w = 1;
  q.flags = ONNXC_CONV_W_PACKED;
  KEPT_CHECK(onnxc_rt_kept_copy(&q, wp) == wp); /* not constant */
  q.flags |= ONNXC_CONV_W_CONST;
  u = onnxc_rt_kept_copy(&q, wp);
  KEPT_CHECK(on ? u != wp && memcmp(u, wp, sizeof(float) * (size_t)n) == 0
           : u == wp);
  KEPT_CHECK(onnxc_rt_kept_copy(&q, wp) == u);
  for (i = 0; i < n; ++i)
    wp[i] = -wp[i] - 1.0f;
  u2 = onnxc_rt_kept_copy(&q, wp);
  KEPT_CHECK(memcmp(u2, wp, sizeof(float) * (size_t)n) == 0);
  q.in_channels = 256; /* 64 KiB: small */
  KEPT_CHECK(onnxc_rt_kept_copy(&q, wp) == wp);
  free(wp);
  free(wt);
  /* Packed B of 1.2 MiB (parallel.c's kept_b): the GEMM and gemv paths,
   * twice (B freed in between, and malloc's next B may take its
   * address with other values). */
  for (i = 0; i < 2; ++i) {
    check_gemm(17, 1100, 270, 0, 1, 1, ONNXC_SGEMM_B_PACKED);
    check_gemm(1, 1100, 270, 0, 0, 0, ONNXC_SGEMM_B_PACKED);
  }
  for (i = 0; i < 2; ++i) {
    check_conv_ex(1, 1, 64, 1536, 5, 7, 1, 1, 1, 1, 1, 1, 0, 0, 0, 5, 7, 0, 3,
                  1);
    check_conv_ex(1, 1, 48, 256, 9, 9, 3, 3, 2, 2, 1, 1, 0, 1, 1, 5, 5, 1, 3,
                  1 | ONNXC_ACT_HARD_SWISH << 3);
  }
}

/* The tier's split_row (even and odd columns) for every length up to 70:
 * the input exactly n floats (ASan: gemm-sanitizers.test), the outputs
 * guarded past their (n + 1) / 2 and n / 2 floats. */
static void check_split_row(void) {
  const onnxc_kernels *kt = onnxc_rt_kernels();
  long n, c;
  for (n = 1; n <= 70; ++n) {
    float *src = malloc((size_t)n * sizeof(float));
    float even[40], odd[40];
    for (c = 0; c < n; ++c)
      src[c] = (float)(c + 1);
    for (c = 0; c < 40; ++c)
      even[c] = odd[c] = -1.0f;
    kt->split_row(src, n, even, odd);
    for (c = 0; c < 40; ++c) {
      float we = c < (n + 1) / 2 ? (float)(2 * c + 1) : -1.0f;
      float wo = c < n / 2 ? (float)(2 * c + 2) : -1.0f;
      ++checks;
      if ((even[c] != we || odd[c] != wo) && ++failures <= 10)
        printf("FAIL split_row n %ld: column %ld even %g (want %g) odd %g "
               "(want %g)\n",
               n, c, even[c], we, odd[c], wo);
    }
    free(src);
  }
}

int main(int argc, char **argv) {
  static const int fuses[] = {
      0, 1, 2, 3, 4, 5, 6,
      1 | ONNXC_ACT_SIGMOID << 3, 1 | ONNXC_ACT_SWISH << 3,
      1 | ONNXC_ACT_HARD_SIGMOID << 3, 1 | ONNXC_ACT_HARD_SWISH << 3,
      4 | ONNXC_ACT_SWISH << 3, 3 | ONNXC_ACT_HARD_SWISH << 3,
      BIAS_ADD, BIAS_ADD | 2, BIAS_ADD | ONNXC_ACT_HARD_SWISH << 3};
  unsigned i;
  if (argc == 6 && strcmp(argv[1], "bench") == 0)
    return bench(atol(argv[2]), atol(argv[3]), atol(argv[4]), atoi(argv[5]));
  if (argc == 2 && strcmp(argv[1], "isa") == 0) {
    printf("isa: %s (cpu: %s)\n", onnxc_rt_kernels()->name,
           onnxc_rt_isa_name(onnxc_rt_isa_supported()));
    return 0;
  }
  if (argc == 2 && strcmp(argv[1], "isa-choose") == 0)
    return isa_choose();
  if (argc == 2 && strcmp(argv[1], "kept") == 0) {
    kept_copy_cases();
    printf("%d checks, %d failed\n", checks, failures);
    return failures != 0;
  }
  printf("isa: %s\n", onnxc_rt_kernels()->name);
  check_act_accuracy();
  check_split_row();
  gemm_cases();
  /* fuse: 1 bias, 2 clamp, 4 zero start (null bias), BIAS_ADD (Y plus the
   * bias), and combinations; (fuse >> 3) & 7 an activation (ONNXC_CONV_ACT: after the bias, after a
   * zero start, after the clamp). */
  for (i = 0; i < 2 * sizeof fuses / sizeof *fuses; ++i) {
    int packed = (int)(i & 1), fuse = fuses[i >> 1];
    conv_cases(packed, fuse);
    conv_pad_cases(packed, fuse);
    conv_band_cases(packed, fuse);
    if (packed)
      conv_cblock_cases(fuse);
  }
  kept_copy_cases();
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}
