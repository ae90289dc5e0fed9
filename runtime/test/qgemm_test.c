/*===- qgemm_test.c - The int8 kernels against plain loops, every tier ----===*
 *
 *   onnxc-qgemm-test             every tier this CPU has, every case below
 *   onnxc-qgemm-test TIER        one tier (portable, avx2, avxvnni,
 *                                avx512vnni, amx)
 *   onnxc-qgemm-test tier        prints the tier the kernels choose
 *   onnxc-qgemm-test bench M N K RUNS | benchconv C M H W K RUNS [STRIDE [GROUPS]]
 *                                times the default tier (median and min,
 *                                GOPS), or ONNXC_QGEMM_TEST_TIER's
 *                                (QBENCH_U8=1: the convolution's outputs
 *                                requantized to uint8)
 *
 * onnxc_rt_qgemm, onnxc_rt_qconv2d and onnxc_rt_dynamic_quantize
 * (runtime/src/kernels/) must equal plain loops exactly: int32 sums are
 * exact, and the float epilogues do the same float operations in the same
 * order (dequantize: (float)acc * (a_scale * b_scale) + bias; requantize:
 * (float)(acc + bias) * (a_scale * b_scale / y_scale), rounded half to
 * even by rint in the reference). Cases: uint8 and int8 activations and
 * weights, zero points absent, per tensor, per row of A, per output
 * channel, every output kind, bias and clamp (of float outputs, and of
 * requantized ones before rounding), per-channel scales, packed
 * and unpacked weights, odd sizes (tile rows, the 32-column panel, depths
 * not a multiple of 4), batches with a shared or a varying B, and
 * convolutions with groups, strides, dilations, pads on every side, 1-D.
 * Then 2 threads against 1 (equal), and DynamicQuantizeLinear's scale,
 * zero point and values against the spec's formulas.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 199309L
#include "onnxc/runtime_abi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Hidden functions of the runtime (runtime/src/kernels/qgemm.h,
 * runtime/src/internal.h). */
int onnxc_rt_qgemm_force_isa(const char *name);
const char *onnxc_rt_qgemm_isa_name(void);
int64_t onnxc_rt_qconv_direct_taken(void);
void onnxc_rt_pool_stats(int64_t *regions, int64_t *worker_chunks);

static int checks, failures;
static unsigned long long rng = 88172645463325252ull;

static unsigned rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng >> 16);
}

static int rnd_in(int lo, int hi) { return lo + (int)(rnd() % (unsigned)(hi - lo + 1)); }

static void fill_bytes(unsigned char *p, long n) {
  long i;
  for (i = 0; i < n; ++i)
    p[i] = (unsigned char)rnd();
}

static void fail(const char *what, long at, double got, double exp) {
  if (++failures <= 20)
    printf("FAIL %s: element %ld got %.9g expected %.9g\n", what, at, got, exp);
}

/* The values of a byte tensor. */
static int val(const unsigned char *p, int is_signed, long i) {
  return is_signed ? (int)(signed char)p[i] : (int)p[i];
}

/* A quantization setup: flags and the parameter arrays (at least as long as
 * the rows of A and the output channels of every case). */
#define CH 1024
typedef struct setup {
  long flags;
  unsigned char azp[CH], bzp[CH], yzp;
  float as, bs[CH], ys;
  float fbias[CH];
  int ibias[CH];
  int has_azp, has_bzp;
} setup;

static void random_setup(setup *s, int channels, int rows_a, int out, int per_row_a) {
  int i;
  memset(s, 0, sizeof *s);
  s->flags = out;
  if (rnd() & 1)
    s->flags |= ONNXC_Q_A_SIGNED;
  if (rnd() & 1)
    s->flags |= ONNXC_Q_B_SIGNED;
  s->has_azp = rnd() % 3 != 0;
  s->has_bzp = rnd() % 3 != 0;
  if (s->has_azp && per_row_a && rows_a <= CH && (rnd() & 1))
    s->flags |= ONNXC_Q_A_ZP_PER_ROW;
  if (s->has_bzp && channels <= CH && (rnd() & 1))
    s->flags |= ONNXC_Q_B_ZP_PER_CHANNEL;
  if (channels <= CH && (rnd() & 1))
    s->flags |= ONNXC_Q_B_SCALE_PER_CHANNEL;
  fill_bytes(s->azp, CH);
  fill_bytes(s->bzp, CH);
  s->yzp = (unsigned char)rnd();
  s->as = (float)(rnd_in(1, 1000)) / 7919.0f;
  for (i = 0; i < CH; ++i) {
    s->bs[i] = (float)(rnd_in(1, 1000)) / 104729.0f;
    s->fbias[i] = (float)(rnd_in(-1000, 1000)) / 97.0f;
    s->ibias[i] = rnd_in(-20000, 20000);
  }
  s->ys = (float)(rnd_in(1, 1000)) / 31.0f;
  if (out != ONNXC_Q_OUT_I32 && (rnd() & 1))
    s->flags |= ONNXC_Q_BIAS;
  if (out != ONNXC_Q_OUT_I32 && (rnd() & 1))
    s->flags |= ONNXC_Q_CLAMP; /* F32: [0, 6]; U8 / S8: [0, 6] steps */
}

static void to_params(const setup *s, onnxc_qparams *q) {
  int out = (int)(s->flags & ONNXC_Q_OUT_MASK);
  memset(q, 0, sizeof *q);
  q->flags = s->flags;
  q->a_zp = s->has_azp ? s->azp : NULL;
  q->b_zp = s->has_bzp ? s->bzp : NULL;
  q->a_scale = &s->as;
  q->b_scale = s->bs;
  q->y_scale = &s->ys;
  q->y_zp = &s->yzp;
  q->bias = out == ONNXC_Q_OUT_F32 ? (const void *)s->fbias : (const void *)s->ibias;
  q->clamp_lo = 0.0f;
  q->clamp_hi = 6.0f;
}

/* The reference epilogue of one element: exact sum `acc` of channel ch. */
static double ref_out(const setup *s, long long acc64, int ch) {
  int out = (int)(s->flags & ONNXC_Q_OUT_MASK);
  int per = (s->flags & ONNXC_Q_B_SCALE_PER_CHANNEL) != 0;
  int acc = (int)(unsigned)acc64;
  float scale = s->as * s->bs[per ? ch : 0];
  if (out == ONNXC_Q_OUT_I32)
    return acc;
  if (out == ONNXC_Q_OUT_F32) {
    float v = (float)acc * scale;
    if (s->flags & ONNXC_Q_BIAS)
      v = v + s->fbias[ch];
    if (s->flags & ONNXC_Q_CLAMP)
      v = v < 0.0f ? 0.0f : v > 6.0f ? 6.0f : v;
    return v;
  }
  {
    int s8 = out == ONNXC_Q_OUT_S8;
    int zp = s8 ? (int)(signed char)s->yzp : (int)s->yzp;
    float m = scale / s->ys, v;
    double r;
    if (s->flags & ONNXC_Q_BIAS)
      acc = (int)((unsigned)acc + (unsigned)s->ibias[ch]);
    v = (float)acc * m;
    if (s->flags & ONNXC_Q_CLAMP)
      v = v < 0.0f ? 0.0f : v > 6.0f ? 6.0f : v;
    r = rint((double)v) + zp;
    if (r < (s8 ? -128 : 0))
      r = s8 ? -128 : 0;
    if (r > (s8 ? 127 : 255))
      r = s8 ? 127 : 255;
    return r;
  }
}

static double got_out(const setup *s, const void *y, long i) {
  switch (s->flags & ONNXC_Q_OUT_MASK) {
  case ONNXC_Q_OUT_I32:
    return ((const int *)y)[i];
  case ONNXC_Q_OUT_F32:
    return ((const float *)y)[i];
  case ONNXC_Q_OUT_U8:
    return ((const unsigned char *)y)[i];
  default:
    return ((const signed char *)y)[i];
  }
}

static const int outs[4] = {ONNXC_Q_OUT_I32, ONNXC_Q_OUT_F32, ONNXC_Q_OUT_U8,
                            ONNXC_Q_OUT_S8};

/* ---- GEMM --------------------------------------------------------------- */

/* B [k x n] in the ABI's packed layout, with its column sums. */
static unsigned char *pack_b(const unsigned char *b, long k, long n,
                             int is_signed) {
  long panels = (n + 31) / 32, k4 = (k + 3) / 4, j, p, c, t;
  long bytes = panels * k4 * 128;
  unsigned char *out = calloc((size_t)(bytes + 4 * n), 1);
  int *sums = (int *)(out + bytes);
  for (j = 0; j < panels; ++j)
    for (p = 0; p < k4; ++p)
      for (c = 0; c < 32; ++c)
        for (t = 0; t < 4; ++t) {
          long kk = 4 * p + t, col = 32 * j + c;
          unsigned char v = 0;
          if (kk < k && col < n)
            v = (unsigned char)(b[kk * n + col] ^ (is_signed ? 0x80 : 0));
          out[((j * k4 + p) * 32 + c) * 4 + t] = v;
          if (kk < k && col < n)
            sums[col] += v;
        }
  return out;
}

static void gemm_case(long batch, long m, long n, long k, int out, int packed,
                      int shared_b) {
  setup s;
  onnxc_qgemm_params p;
  unsigned char *a, *b, *bp = NULL;
  void *c;
  long i, r, col, q;
  int as, bs;
  char what[160];
  random_setup(&s, (int)n, (int)m, out, 1);
  if (packed)
    shared_b = 1;
  as = (s.flags & ONNXC_Q_A_SIGNED) != 0;
  bs = (s.flags & ONNXC_Q_B_SIGNED) != 0;
  a = malloc((size_t)(batch * m * k + 1));
  b = malloc((size_t)((shared_b ? 1 : batch) * k * n + 1));
  c = calloc((size_t)(batch * m * n + 1), 4);
  fill_bytes(a, batch * m * k);
  fill_bytes(b, (shared_b ? 1 : batch) * k * n);
  memset(&p, 0, sizeof p);
  p.batch = batch;
  p.m = m;
  p.n = n;
  p.k = k;
  p.b_batch_stride = shared_b ? 0 : k * n;
  to_params(&s, &p.q);
  if (packed) {
    bp = pack_b(b, k, n, bs);
    p.q.flags |= ONNXC_Q_B_PACKED;
  }
  onnxc_rt_qgemm(&p, a, packed ? bp : b, c);
  snprintf(what, sizeof what,
           "qgemm batch %ld m %ld n %ld k %ld flags %ld%s%s", batch, m, n, k,
           s.flags, packed ? " packed" : "", shared_b ? " shared" : "");
  for (i = 0; i < batch; ++i)
    for (r = 0; r < m; ++r)
      for (col = 0; col < n; ++col) {
        long long acc = 0;
        int za = s.has_azp ? val(s.azp, as, (s.flags & ONNXC_Q_A_ZP_PER_ROW) ? r : 0) : 0;
        int zb = s.has_bzp ? val(s.bzp, bs, (s.flags & ONNXC_Q_B_ZP_PER_CHANNEL) ? col : 0) : 0;
        const unsigned char *bi = b + (shared_b ? 0 : i * k * n);
        double e, g;
        long at = (i * m + r) * n + col;
        for (q = 0; q < k; ++q)
          acc += (long long)(val(a, as, (i * m + r) * k + q) - za) *
                 (val(bi, bs, q * n + col) - zb);
        e = ref_out(&s, acc, (int)col);
        g = got_out(&s, c, at);
        ++checks;
        if (g != e && !(e != e && g != g))
          fail(what, at, g, e);
      }
  free(a);
  free(b);
  free(bp);
  free(c);
}

/* ---- Convolution -------------------------------------------------------- */

typedef struct conv_shape {
  long batch, groups, cin, cout, ih, iw, kh, kw, sh, sw, dh, dw;
  long pt, pl, pb, pr;
} conv_shape;

/* W [groups * cout][cin * kh * kw] packed as the ABI says, with row sums;
 * in ONNXC_Q_W_HWC order when taps > 0 (taps = kh * kw, cin % 4 == 0). */
static unsigned char *pack_w(const unsigned char *w, long rows, long k,
                             int is_signed, long taps) {
  long kp = (k + 3) / 4 * 4, r, q;
  unsigned char *out = calloc((size_t)(rows * kp + 4 * rows), 1);
  int *sums = (int *)(out + rows * kp);
  for (r = 0; r < rows; ++r)
    for (q = 0; q < k; ++q) {
      signed char v = (signed char)(unsigned char)(w[r * k + q] ^ (is_signed ? 0 : 0x80));
      long at = taps ? (q % taps) * (k / taps) + q / taps : q;
      out[r * kp + at] = (unsigned char)v;
      sums[r] += v;
    }
  return out;
}

/* Calls of the direct path (qconv_direct.c) the cases expected and saw;
 * the weights' zero points are made 0 in direct cases (its condition). */
static long direct_expected, direct_seen;

/* packed: 0 the runtime packs, 1 packed in (c, kh, kw) order, 2 in HWC
 * order (when cin % 4 == 0 and the kernel is larger than 1 x 1; else
 * 1). direct: weights whose zero point is 0 after signing. */
static void conv_case(const conv_shape *cs, int out, int packed, int direct) {
  setup s;
  onnxc_qconv2d_params p;
  long oh = (cs->ih + cs->pt + cs->pb - ((cs->kh - 1) * cs->dh + 1)) / cs->sh + 1;
  long ow = (cs->iw + cs->pl + cs->pr - ((cs->kw - 1) * cs->dw + 1)) / cs->sw + 1;
  long G = cs->groups, C = cs->cin, M = cs->cout, K = C * cs->kh * cs->kw;
  long xn = cs->batch * G * C * cs->ih * cs->iw, wn = G * M * K;
  long yn = cs->batch * G * M * oh * ow;
  unsigned char *x, *w, *wp = NULL;
  void *y;
  long n, g, m, y0, x0, c, a, b, taken0 = onnxc_rt_qconv_direct_taken();
  int as, bs, c4, expect_direct;
  char what[200];
  if (oh <= 0 || ow <= 0)
    return;
  random_setup(&s, (int)(G * M), 0, out, 0);
  as = (s.flags & ONNXC_Q_A_SIGNED) != 0;
  bs = (s.flags & ONNXC_Q_B_SIGNED) != 0;
  if (direct) { /* int8 weights: zero point 0 or none; uint8: 128 */
    memset(s.bzp, bs ? 0 : 128, sizeof s.bzp);
    s.has_bzp = s.has_bzp || !bs;
  }
  c4 = C % 4 == 0 && cs->kh * cs->kw > 1;
  if (packed == 2 && !c4)
    packed = 1;
  x = malloc((size_t)xn + 1);
  w = malloc((size_t)wn + 1);
  y = calloc((size_t)yn + 1, 4);
  fill_bytes(x, xn);
  fill_bytes(w, wn);
  memset(&p, 0, sizeof p);
  p.batch = cs->batch;
  p.groups = G;
  p.out_channels = M;
  p.in_channels = C;
  p.in_h = cs->ih;
  p.in_w = cs->iw;
  p.out_h = oh;
  p.out_w = ow;
  p.kernel_h = cs->kh;
  p.kernel_w = cs->kw;
  p.stride_h = cs->sh;
  p.stride_w = cs->sw;
  p.dilation_h = cs->dh;
  p.dilation_w = cs->dw;
  p.pad_top = cs->pt;
  p.pad_left = cs->pl;
  to_params(&s, &p.q);
  if (packed) {
    wp = pack_w(w, G * M, K, bs, packed == 2 ? cs->kh * cs->kw : 0);
    p.q.flags |= ONNXC_Q_B_PACKED | (packed == 2 ? ONNXC_Q_W_HWC : 0);
  }
  onnxc_rt_qconv2d(&p, x, packed ? wp : w, y);
  /* The direct path: its tier, weights in HWC order (packed so, or packed
   * by the runtime), no column terms, stride 1, at most a third of each
   * virtual row past the output's. */
  {
    long wv = ow + (cs->kw - 1) * cs->dw;
    /* The weights' zero points after signing (w - 128 for uint8): all 0. */
    int zb_zero = 1;
    long ch;
    for (ch = 0; ch < G * M; ++ch) {
      int z = s.has_bzp ? val(s.bzp, bs, (s.flags & ONNXC_Q_B_ZP_PER_CHANNEL) ? ch : 0) : 0;
      if (z != (bs ? 0 : 128))
        zb_zero = 0;
    }
    expect_direct = (strcmp(onnxc_rt_qgemm_isa_name(), "avx512vnni") == 0 ||
                     strcmp(onnxc_rt_qgemm_isa_name(), "amx") == 0) &&
                    c4 && packed != 1 && zb_zero && cs->sh == 1 &&
                    cs->sw == 1 && 3 * (wv - ow) <= wv;
    if (expect_direct)
      ++direct_expected;
  }
  snprintf(what, sizeof what,
           "qconv n %ld g %ld c %ld m %ld in %ldx%ld k %ldx%ld s %ld,%ld d "
           "%ld,%ld pads %ld,%ld,%ld,%ld flags %ld%s%s",
           cs->batch, G, C, M, cs->ih, cs->iw, cs->kh, cs->kw, cs->sh, cs->sw,
           cs->dh, cs->dw, cs->pt, cs->pl, cs->pb, cs->pr, s.flags,
           packed == 2 ? " packed c4" : packed ? " packed" : "",
           expect_direct ? " direct" : "");
  /* Element -1: the path (calls taken, expected). */
  if (onnxc_rt_qconv_direct_taken() != taken0)
    ++direct_seen;
  if ((onnxc_rt_qconv_direct_taken() != taken0) != expect_direct)
    fail(what, -1, (double)(onnxc_rt_qconv_direct_taken() - taken0),
         expect_direct);
  for (n = 0; n < cs->batch; ++n)
    for (g = 0; g < G; ++g)
      for (m = 0; m < M; ++m)
        for (y0 = 0; y0 < oh; ++y0)
          for (x0 = 0; x0 < ow; ++x0) {
            long long acc = 0;
            long ch = g * M + m, at = ((n * G + g) * M + m) * oh * ow + y0 * ow + x0;
            int za = s.has_azp ? val(s.azp, as, 0) : 0;
            int zb = s.has_bzp ? val(s.bzp, bs, (s.flags & ONNXC_Q_B_ZP_PER_CHANNEL) ? ch : 0) : 0;
            double e, gv;
            for (c = 0; c < C; ++c)
              for (a = 0; a < cs->kh; ++a)
                for (b = 0; b < cs->kw; ++b) {
                  long ih = y0 * cs->sh - cs->pt + a * cs->dh;
                  long iw = x0 * cs->sw - cs->pl + b * cs->dw;
                  int xv = za; /* the padding: a zero term */
                  if (ih >= 0 && ih < cs->ih && iw >= 0 && iw < cs->iw)
                    xv = val(x, as, (((n * G + g) * C + c) * cs->ih + ih) * cs->iw + iw);
                  acc += (long long)(xv - za) *
                         (val(w, bs, (ch * C + c) * cs->kh * cs->kw + a * cs->kw + b) - zb);
                }
            e = ref_out(&s, acc, (int)ch);
            gv = got_out(&s, y, at);
            ++checks;
            if (gv != e && !(e != e && gv != gv))
              fail(what, at, gv, e);
          }
  free(x);
  free(w);
  free(wp);
  free(y);
}

/* ---- DynamicQuantizeLinear ------------------------------------------------ */

static void dq_case(long n, int kind) {
  float *x = calloc((size_t)(n + 1), sizeof(float));
  unsigned char *y = malloc((size_t)n + 1);
  float scale, lo = 0.0f, hi = 0.0f, es, z;
  unsigned char zp;
  long i;
  int ez;
  for (i = 0; i < n; ++i) {
    float v = (float)((int)(rnd() % 20001) - 10000) / 1000.0f;
    x[i] = kind == 0 ? v : kind == 1 ? fabsf(v) + 0.5f : kind == 2 ? -fabsf(v) - 0.5f : 0.0f;
    if (kind == 4 && i % 7 == 0) /* exact ties of x / scale */
      x[i] = (float)i * 0.5f;
  }
  onnxc_rt_dynamic_quantize(x, n, y, &scale, &zp);
  for (i = 0; i < n; ++i) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
  es = hi == lo ? 1.0f : (hi - lo) / 255.0f;
  z = 0.0f - lo / es;
  z = z < 0.0f ? 0.0f : z > 255.0f ? 255.0f : z;
  ez = (int)rint(z);
  checks += 2;
  if (scale != es)
    fail("dynamic quantize scale", n, scale, es);
  if (zp != ez)
    fail("dynamic quantize zero point", n, zp, ez);
  for (i = 0; i < n; ++i) {
    double r = rint((double)(x[i] / es)) + ez;
    r = r < 0 ? 0 : r > 255 ? 255 : r;
    ++checks;
    if (y[i] != r)
      fail("dynamic quantize", i, y[i], r);
  }
  free(x);
  free(y);
}

/* ---- Driver ------------------------------------------------------------- */

static void run_cases(void) {
  static const long ms[] = {1, 3, 8, 13, 33};
  /* 20, 49: a last panel of 17 to 24 columns (the 256-bit tiers' quarter
   * in the second half). */
  static const long ns[] = {1, 5, 20, 32, 37, 49, 70};
  static const long ks[] = {1, 3, 4, 7, 64, 129};
  static const conv_shape convs[] = {
      /* batch groups cin cout ih iw kh kw sh sw dh dw pt pl pb pr */
      {1, 1, 3, 16, 12, 12, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {2, 1, 5, 9, 7, 9, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0},
      {1, 2, 3, 5, 8, 8, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {1, 3, 2, 4, 9, 11, 3, 2, 1, 2, 2, 1, 2, 0, 1, 2},
      {1, 1, 8, 33, 5, 40, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
      {2, 1, 4, 12, 6, 6, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
      {1, 4, 1, 1, 10, 10, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, /* depthwise */
      {1, 6, 1, 1, 11, 12, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, /* depthwise /2 */
      {2, 5, 1, 1, 9, 40, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2},  /* depthwise 5x5 */
      {1, 3, 1, 1, 13, 13, 3, 3, 1, 1, 2, 1, 2, 1, 2, 1}, /* dw, dilated rows */
      {1, 3, 1, 1, 8, 70, 1, 7, 1, 3, 1, 1, 0, 3, 0, 3},  /* dw /3, 7 taps */
      {1, 2, 1, 1, 9, 9, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2},   /* dw, dilated */
      {1, 4, 1, 1, 1, 33, 1, 3, 1, 1, 1, 1, 0, 1, 0, 1},  /* dw 1-D */
      {1, 3, 1, 1, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},   /* dw, 4 rows a call */
      {1, 2, 1, 1, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, /* dw /2 to 7 x 7 */
      {1, 2, 1, 1, 30, 5, 3, 3, 4, 1, 1, 1, 1, 1, 1, 1},  /* dw, window-bound */
      {1, 22, 1, 1, 7, 9, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  /* dw, runs of channels */
      {2, 22, 1, 1, 12, 12, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, /* the same, /2 */
      {1, 1, 6, 10, 13, 13, 3, 3, 1, 1, 3, 3, 3, 3, 3, 3},
      {1, 1, 2, 3, 1, 50, 1, 5, 1, 1, 1, 1, 0, 2, 0, 2},  /* 1-D */
      {2, 2, 3, 4, 1, 17, 1, 3, 1, 2, 1, 2, 0, 1, 0, 0},  /* 1-D strided */
      {1, 1, 17, 20, 20, 20, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2},
      {1, 1, 3, 7, 35, 37, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {1, 1, 2, 3, 4, 4, 3, 3, 1, 1, 1, 1, 4, 0, 5, 1}, /* pads past the kernel */
      {1, 1, 3, 5, 6, 150, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1}, /* /2, rows > 64 */
      {1, 2, 2, 3, 9, 71, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2},  /* /2, even pad */
      {1, 3, 1, 1, 9, 67, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0},  /* dw /2, no pad */
      {1, 3, 1, 1, 11, 150, 3, 5, 2, 4, 1, 1, 1, 2, 1, 2}, /* dw /4: flat rows */
      {1, 2, 1, 1, 9, 61, 3, 7, 1, 5, 1, 1, 1, 3, 1, 3},  /* dw /5: phases */
      {1, 40, 1, 1, 5, 5, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  /* dw, 40 small maps */
      /* More channels: full 8-row tiles, panels of 16 columns or fewer. */
      {1, 1, 8, 16, 7, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},   /* 49 positions */
      {2, 1, 19, 37, 9, 11, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, /* C, M odd */
      {1, 1, 12, 64, 14, 14, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1}, /* /2 */
      {1, 2, 9, 18, 10, 13, 3, 2, 1, 3, 2, 2, 2, 0, 1, 2},  /* groups, dil */
      {1, 1, 33, 40, 6, 70, 5, 5, 1, 2, 1, 1, 2, 2, 2, 2},  /* 5 x 5, wide */
      {1, 1, 16, 20, 3, 3, 3, 3, 1, 1, 1, 1, 4, 3, 5, 2},   /* pads > kernel */
      {1, 1, 10, 16, 1, 40, 1, 3, 1, 1, 1, 1, 0, 1, 0, 1},  /* 1-D */
      /* AMX: 32 + 16 rows of 1 x 1 (k4 16); 16 + 8 rows over 9 quads
       * (k4 36: steps of 12) at stride 2. */
      {1, 1, 64, 48, 7, 9, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0},
      {1, 2, 16, 24, 9, 10, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      /* AMX over a depth padded to 48 groups (a stem: 147 k, 37 groups). */
      {1, 1, 3, 32, 20, 21, 7, 7, 2, 2, 1, 1, 3, 3, 3, 3},
  };
  unsigned i, j, l, o;
  for (i = 0; i < sizeof ms / sizeof *ms; ++i)
    for (j = 0; j < sizeof ns / sizeof *ns; ++j)
      for (l = 0; l < sizeof ks / sizeof *ks; ++l)
        for (o = 0; o < 4; ++o)
          gemm_case(1, ms[i], ns[j], ks[l], outs[o], (int)((i + j + l) % 2), 1);
  for (o = 0; o < 4; ++o) {
    gemm_case(3, 5, 37, 19, outs[o], 0, 0);
    gemm_case(2, 9, 40, 33, outs[o], 0, 1);
    gemm_case(2, 9, 40, 33, outs[o], 1, 1);
    gemm_case(1, 300, 70, 600, outs[o], o % 2, 1);
    /* Packed B and W over 256 KiB (kept in the runtime's own pages,
     * conv.c's onnxc_rt_kept_bytes; malloc's next weights may take the
     * freed ones' address with other values). */
    gemm_case(1, 3, 520, 600, outs[o], 1, 1);
  }
  {
    static const conv_shape big = {1, 1, 160, 200, 5, 6, 3, 3,
                                   1, 1, 1, 1, 1, 1, 1, 1};
    for (o = 0; o < 4; ++o) {
      conv_case(&big, outs[o], 1, 0);
      conv_case(&big, outs[o], 2, 0);
    }
  }
  static const conv_shape direct_convs[] = {
      /* batch groups cin cout ih iw kh kw sh sw dh dw pt pl pb pr */
      {1, 1, 64, 64, 13, 29, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1}, /* rows of 29 */
      {2, 1, 8, 20, 9, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},    /* M % 8: 4 */
      {1, 2, 12, 9, 10, 12, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  /* groups */
      {1, 1, 16, 16, 12, 40, 3, 3, 1, 1, 2, 2, 2, 2, 2, 2}, /* dilated */
      {1, 1, 4, 8, 7, 50, 5, 5, 1, 1, 1, 1, 0, 3, 4, 1},    /* pads */
      {1, 1, 20, 33, 5, 70, 1, 3, 1, 1, 1, 1, 0, 1, 0, 1},  /* 1-D, 70 */
      {1, 1, 8, 8, 6, 6, 3, 3, 1, 1, 1, 1, 4, 3, 5, 2},     /* pads > kernel */
      {1, 1, 32, 40, 4, 4, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},   /* 4 x 4 */
      {1, 1, 8, 8, 20, 3, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0},    /* too narrow */
      {1, 1, 8, 16, 9, 9, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},    /* stride 2 */
      /* AMX: 16 + 8 rows, steps of 4 quads (the groups' 16 channels); 32
       * rows + 1 over 7 quads (steps of 7, 1-D). */
      {2, 2, 16, 24, 8, 11, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {1, 1, 28, 33, 1, 45, 1, 5, 1, 1, 1, 2, 0, 4, 0, 4},
  };
  for (i = 0; i < sizeof convs / sizeof *convs; ++i)
    for (o = 0; o < 4; ++o) {
      conv_case(&convs[i], outs[o], 0, 0);
      conv_case(&convs[i], outs[o], 1, 0);
      conv_case(&convs[i], outs[o], 2, 1);
    }
  for (i = 0; i < sizeof direct_convs / sizeof *direct_convs; ++i)
    for (o = 0; o < 4; ++o) {
      conv_case(&direct_convs[i], outs[o], 0, 1);
      conv_case(&direct_convs[i], outs[o], 2, 1);
      conv_case(&direct_convs[i], outs[o], 2, 0);
    }
  for (i = 0; i < 5; ++i) {
    dq_case(1, (int)i);
    dq_case(37, (int)i);
    dq_case(1000, (int)i);
  }
  dq_case(100003, 0);
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int bench(int argc, char **argv) {
  long runs, i;
  double *t, ops;
  onnxc_qgemm_params p;
  onnxc_qconv2d_params cp;
  unsigned char *a, *b;
  void *c;
  float one = 1.0f;
  int conv = strcmp(argv[1], "benchconv") == 0;
  const char *tier = getenv("ONNXC_QGEMM_TEST_TIER");
  if (tier && !onnxc_rt_qgemm_force_isa(tier)) {
    printf("tier %s: not on this CPU\n", tier);
    return 2;
  }
  if ((!conv && argc != 6) || (conv && (argc < 8 || argc > 10)))
    return 2;
  memset(&p, 0, sizeof p);
  memset(&cp, 0, sizeof cp);
  if (conv) {
    /* C and M in all (GROUPS divides them). */
    cp.batch = 1;
    cp.groups = argc == 10 ? atol(argv[9]) : 1;
    cp.in_channels = atol(argv[2]) / cp.groups;
    cp.out_channels = atol(argv[3]) / cp.groups;
    cp.in_h = atol(argv[4]);
    cp.in_w = atol(argv[5]);
    cp.kernel_h = cp.kernel_w = atol(argv[6]);
    cp.stride_h = cp.stride_w = argc >= 9 ? atol(argv[8]) : 1;
    cp.dilation_h = cp.dilation_w = 1;
    cp.pad_top = cp.pad_left = cp.kernel_h / 2;
    cp.out_h = (cp.in_h + 2 * cp.pad_top - cp.kernel_h) / cp.stride_h + 1;
    cp.out_w = (cp.in_w + 2 * cp.pad_left - cp.kernel_w) / cp.stride_w + 1;
    /* QBENCH_U8=1: requantized uint8 outputs (QLinearConv's). */
    cp.q.flags = ONNXC_Q_B_SIGNED |
                 (getenv("QBENCH_U8") ? ONNXC_Q_OUT_U8 : ONNXC_Q_OUT_F32);
    cp.q.a_scale = cp.q.b_scale = cp.q.y_scale = &one;
    runs = atol(argv[7]);
    ops = 2.0 * cp.groups * cp.in_channels * cp.out_channels * cp.out_h *
          cp.out_w * cp.kernel_h * cp.kernel_w;
    a = calloc((size_t)(cp.groups * cp.in_channels * cp.in_h * cp.in_w), 1);
    {
      /* Packed weights, as the compiler passes constant ones. */
      long k = cp.in_channels * cp.kernel_h * cp.kernel_w;
      long rows = cp.groups * cp.out_channels;
      unsigned char *w = calloc((size_t)(rows * k), 1);
      /* In HWC order where the compiler packs so. */
      long taps = cp.kernel_h * cp.kernel_w;
      int c4 = cp.in_channels % 4 == 0 && taps > 1;
      b = pack_w(w, rows, k, 1, c4 ? taps : 0);
      free(w);
      cp.q.flags |= ONNXC_Q_B_PACKED | (c4 ? ONNXC_Q_W_HWC : 0);
    }
    c = malloc((size_t)(4 * cp.groups * cp.out_channels * cp.out_h * cp.out_w));
  } else {
    p.batch = 1;
    p.m = atol(argv[2]);
    p.n = atol(argv[3]);
    p.k = atol(argv[4]);
    p.q.flags = ONNXC_Q_B_SIGNED | ONNXC_Q_OUT_F32;
    p.q.a_scale = p.q.b_scale = &one;
    runs = atol(argv[5]);
    ops = 2.0 * p.m * p.n * p.k;
    a = malloc((size_t)(p.m * p.k));
    b = malloc((size_t)(p.k * p.n));
    c = malloc((size_t)(4 * p.m * p.n));
  }
  t = malloc(sizeof(double) * (size_t)runs);
  for (i = 0; i < runs; ++i) {
    double t0 = now();
    if (conv)
      onnxc_rt_qconv2d(&cp, a, b, c);
    else
      onnxc_rt_qgemm(&p, a, b, c);
    t[i] = now() - t0;
  }
  qsort(t, (size_t)runs, sizeof *t, cmp_double);
  printf("median %.3f ms, %.1f GOPS; min %.3f ms, %.1f GOPS\n", t[runs / 2] * 1e3,
         ops / t[runs / 2] * 1e-9, t[0] * 1e3, ops / t[0] * 1e-9);
  free(a);
  free(b);
  free(c);
  free(t);
  return 0;
}

int main(int argc, char **argv) {
  static const char *const tiers[] = {"portable", "avx2", "avxvnni",
                                      "avx512vnni", "amx"};
  unsigned i;
  int64_t regions, worker_chunks;
  if (argc > 1 && strncmp(argv[1], "bench", 5) == 0)
    return bench(argc, argv);
  if (argc > 1 && strcmp(argv[1], "tier") == 0) {
    printf("default tier: %s\n", onnxc_rt_qgemm_isa_name());
    return 0;
  }
  for (i = 0; i < sizeof tiers / sizeof *tiers; ++i) {
    int before = failures, n0 = checks;
    if (argc > 1 && strcmp(argv[1], tiers[i]) != 0)
      continue;
    if (!onnxc_rt_qgemm_force_isa(tiers[i])) {
      printf("tier %s: not on this CPU\n", tiers[i]);
      continue;
    }
    run_cases();
    /* Split over 2 threads: the same values (each element alike). */
    onnxc_set_num_threads(2);
    rng = 88172645463325252ull;
    run_cases();
    onnxc_set_num_threads(1);
    printf("tier %s: %d checks, %d failed\n", tiers[i], checks - n0,
           failures - before);
  }
  onnxc_rt_qgemm_force_isa(NULL);
  onnxc_rt_pool_stats(&regions, &worker_chunks);
  printf("parallel regions: %s\n", regions > 0 && worker_chunks > 0
                                       ? "some, with parts on a worker"
                                       : "none");
  printf("direct convolutions: %ld expected, %ld taken\n", direct_expected,
         direct_seen);
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}
