/*===- pool_test.c - Max pools and Col2Im against plain loops -------------===*
 *
 *   onnxc-pool-test      checks every case, prints a summary
 *
 * Shapes cover the kernel's paths: strides 1, 2 and 3, dilations, padding
 * on every side (also larger than the kernel: windows wholly outside give
 * -inf), widths around the 16-lane vector (odd, < 16, 16, 17, 33), strided
 * views of X and Y, and inputs with NaN, -inf, +inf and signed zeros, whose
 * results must be bit for bit those of arith.maximumf (NaN wins, +0 over
 * -0). Run it once per kernel tier (ONNXC_ISA=portable, avx2, avx512:
 * test/runtime/pool.test), and on several threads (ONNXC_NUM_THREADS=3
 * ONNXC_PARALLEL_MIN_FLOP=0: every call splits by rows), where it also
 * says whether the pool's workers ran any part. Then the uint8 and int8
 * pools (onnxc_rt_u8maxpool2d, onnxc_rt_s8maxpool2d) on the same shapes
 * against the integer max; and Col2Im (onnxc_rt_col2im, ConvTranspose's
 * other memory-bound pass) against its contract's scatter.
 *===----------------------------------------------------------------------===*/

#include "../src/internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;
static unsigned long long rng = 88172645463325252ull;

static unsigned long long next(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

/* Mostly values in [-1, 1]; with `special`, also NaN, +-inf and +-0. */
static float value(int special) {
  unsigned long long r = next();
  if (special)
    switch (r % 23) {
    case 0:
      return NAN;
    case 1:
      return -INFINITY;
    case 2:
      return INFINITY;
    case 3:
      return 0.0f;
    case 4:
      return -0.0f;
    }
  return (float)((double)(r % 2001) / 1000.0 - 1.0);
}

/* The reference: arith.maximumf over the window, from -inf. */
static float ref_max(float a, float b) {
  if (isnan(a) || isnan(b))
    return NAN;
  if (a == 0.0f && b == 0.0f)
    return signbit(a) ? b : a;
  return a > b ? a : b;
}

static int same(float a, float b) {
  if (isnan(a) || isnan(b))
    return isnan(a) && isnan(b);
  return memcmp(&a, &b, sizeof a) == 0; /* -0 != +0 */
}

/* The parameters of a pool of n images of c planes h x w (rows xw apart)
 * into oh x ow outputs (rows yw apart). */
static onnxc_maxpool2d_params params_of(long n, long c, long h, long w,
                                        long kh, long kw, long sh, long sw,
                                        long dh, long dw, long pt, long pl,
                                        long oh, long ow, long xw, long yw) {
  onnxc_maxpool2d_params q;
  memset(&q, 0, sizeof q);
  q.batch = n;
  q.channels = c;
  q.out_h = oh;
  q.out_w = ow;
  q.kernel_h = kh;
  q.kernel_w = kw;
  q.stride_h = sh;
  q.stride_w = sw;
  q.dilation_h = dh;
  q.dilation_w = dw;
  q.pad_top = pt;
  q.pad_left = pl;
  q.in_h = h;
  q.in_w = w;
  q.x_strides[0] = c * h * xw;
  q.x_strides[1] = h * xw;
  q.x_strides[2] = xw;
  q.x_strides[3] = 1;
  q.y_strides[0] = c * oh * yw;
  q.y_strides[1] = oh * yw;
  q.y_strides[2] = yw;
  q.y_strides[3] = 1;
  return q;
}

static void check(long h, long w, long kh, long kw, long sh, long sw, long dh,
                  long dw, long pt, long pl, long pb, long pr, int special,
                  int xpad, int ypad) {
  long n = 2, c = 3;
  long oh = (h + pt + pb - ((kh - 1) * dh + 1)) / sh + 1;
  long ow = (w + pl + pr - ((kw - 1) * dw + 1)) / sw + 1;
  /* Row pitches wider than the rows when xpad / ypad (strided views). */
  long xw = w + xpad, yw = ow + ypad;
  long xsize = n * c * h * xw, ysize = n * c * oh * yw;
  float *x, *y;
  onnxc_maxpool2d_params q;
  long i, b, ch, r, col, a1, a2;
  if (oh <= 0 || ow <= 0) /* (before the sizes reach malloc) */
    return;
  x = malloc(sizeof(float) * (size_t)xsize);
  y = malloc(sizeof(float) * (size_t)ysize);
  for (i = 0; i < xsize; ++i)
    x[i] = value(special);
  for (i = 0; i < ysize; ++i)
    y[i] = 12345.0f;
  q = params_of(n, c, h, w, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow, xw, yw);
  onnxc_rt_smaxpool2d(&q, x, y);
  for (b = 0; b < n; ++b)
    for (ch = 0; ch < c; ++ch)
      for (r = 0; r < oh; ++r)
        for (col = 0; col < yw; ++col) {
          float got = y[((b * c + ch) * oh + r) * yw + col];
          float exp = -INFINITY;
          if (col >= ow) { /* past the row: untouched */
            exp = 12345.0f;
          } else {
            for (a1 = 0; a1 < kh; ++a1)
              for (a2 = 0; a2 < kw; ++a2) {
                long ih = r * sh - pt + a1 * dh, iw = col * sw - pl + a2 * dw;
                if (ih >= 0 && ih < h && iw >= 0 && iw < w)
                  exp = ref_max(exp, x[((b * c + ch) * h + ih) * xw + iw]);
              }
          }
          ++checks;
          if (!same(got, exp) && ++failures <= 10)
            printf("FAIL %ldx%ld k%ldx%ld s%ld,%ld d%ld,%ld p%ld,%ld,%ld,%ld "
                   "special %d at n%ld c%ld oh%ld ow%ld: got %g expected %g\n",
                   h, w, kh, kw, sh, sw, dh, dw, pt, pl, pb, pr, special, b, ch,
                   r, col, got, exp);
        }
  free(x);
  free(y);
}

/* The same shapes over uint8 (is_signed 0) or int8 bytes (random, with
 * the extremes), onnxc_rt_u8maxpool2d / onnxc_rt_s8maxpool2d against the
 * integer max over the clipped window (a window wholly in the padding
 * gives the type's lowest value). */
static void check_bytes(long h, long w, long kh, long kw, long sh, long sw,
                        long dh, long dw, long pt, long pl, long pb, long pr,
                        int is_signed, int xpad, int ypad) {
  long n = 2, c = 3;
  long oh = (h + pt + pb - ((kh - 1) * dh + 1)) / sh + 1;
  long ow = (w + pl + pr - ((kw - 1) * dw + 1)) / sw + 1;
  long xw = w + xpad, yw = ow + ypad;
  long xsize = n * c * h * xw, ysize = n * c * oh * yw;
  unsigned char *x, *y;
  onnxc_maxpool2d_params q;
  long i, b, ch, r, col, a1, a2;
  if (oh <= 0 || ow <= 0)
    return;
  x = malloc((size_t)xsize);
  y = malloc((size_t)ysize);
  for (i = 0; i < xsize; ++i) {
    unsigned long long v = next();
    x[i] = (unsigned char)(v % 7 == 0 ? (v & 8 ? 0x80 : 0x7f) : v >> 8);
  }
  memset(y, 0x5a, (size_t)ysize);
  q = params_of(n, c, h, w, kh, kw, sh, sw, dh, dw, pt, pl, oh, ow, xw, yw);
  if (is_signed)
    onnxc_rt_s8maxpool2d(&q, (const int8_t *)x, (int8_t *)y);
  else
    onnxc_rt_u8maxpool2d(&q, x, y);
  for (b = 0; b < n; ++b)
    for (ch = 0; ch < c; ++ch)
      for (r = 0; r < oh; ++r)
        for (col = 0; col < yw; ++col) {
          int got = y[((b * c + ch) * oh + r) * yw + col];
          int exp = is_signed ? -128 : 0;
          if (is_signed)
            got = (signed char)got;
          if (col >= ow) { /* past the row: untouched */
            exp = is_signed ? 0x5a : 0x5a;
          } else {
            for (a1 = 0; a1 < kh; ++a1)
              for (a2 = 0; a2 < kw; ++a2) {
                long ih = r * sh - pt + a1 * dh, iw = col * sw - pl + a2 * dw;
                if (ih >= 0 && ih < h && iw >= 0 && iw < w) {
                  unsigned char v = x[((b * c + ch) * h + ih) * xw + iw];
                  int vv = is_signed ? (signed char)v : v;
                  exp = vv > exp ? vv : exp;
                }
              }
          }
          ++checks;
          if (got != exp && ++failures <= 10)
            printf("FAIL %s %ldx%ld k%ldx%ld s%ld,%ld d%ld,%ld "
                   "p%ld,%ld,%ld,%ld at n%ld c%ld oh%ld ow%ld: got %d "
                   "expected %d\n",
                   is_signed ? "int8" : "uint8", h, w, kh, kw, sh, sw, dh, dw,
                   pt, pl, pb, pr, b, ch, r, col, got, exp);
        }
  free(x);
  free(y);
}

/* onnxc_rt_col2im (col2im.c) against the scatter its contract states, in
 * double: strides 1 to 3 (the phase buffers of each), dilations, pads
 * larger than the kernel's reach, 1-D, batches, the transposed layout,
 * input rows of 1, 7 and 10 columns (the phase path, the scatter, the
 * phase path); on one thread and on three with every call split
 * (pool.test). Outputs are sums of up to 16 values: within 1e-5. */
static void check_col2im(const onnxc_col2im_params *p) {
  const int64_t taps = p->kernel_h * p->kernel_w, l = p->in_h * p->in_w;
  const int64_t rows = p->channels * taps, plane = p->out_h * p->out_w;
  const int64_t ncols = p->batch * rows * l, ny = p->batch * p->channels * plane;
  float *cols = malloc(sizeof(float) * (size_t)ncols);
  float *y = malloc(sizeof(float) * (size_t)ny);
  double *want = calloc((size_t)ny, sizeof(double));
  int64_t i, n, r, q, bad = 0;
  for (i = 0; i < ncols; ++i)
    cols[i] = (float)((i * 7919) % 201 - 100) / 64.0f;
  for (i = 0; i < ny; ++i)
    y[i] = 1e30f; /* every output overwritten */
  for (n = 0; n < p->batch; ++n)
    for (r = 0; r < rows; ++r)
      for (q = 0; q < l; ++q) {
        int64_t m = r / taps, kh = r % taps / p->kernel_w, kw = r % p->kernel_w;
        int64_t oh = q / p->in_w * p->stride_h - p->pad_top + kh * p->dilation_h;
        int64_t ow = q % p->in_w * p->stride_w - p->pad_left + kw * p->dilation_w;
        int64_t at = (p->flags & ONNXC_COL2IM_TRANSPOSED)
                         ? (n * l + q) * rows + r
                         : (n * rows + r) * l + q;
        if (oh >= 0 && oh < p->out_h && ow >= 0 && ow < p->out_w)
          want[(n * p->channels + m) * plane + oh * p->out_w + ow] += cols[at];
      }
  onnxc_rt_col2im(p, cols, y);
  for (i = 0; i < ny; ++i)
    if (!(fabs(y[i] - want[i]) <= 1e-5 * (1.0 + fabs(want[i]))))
      ++bad;
  ++checks;
  if (bad && ++failures <= 10)
    printf("FAIL col2im %lld x %lld -> %lld x %lld, k %lld x %lld, s %lld x %lld, "
           "d %lld x %lld, pads %lld %lld, flags %lld: %lld wrong\n",
           (long long)p->in_h, (long long)p->in_w, (long long)p->out_h,
           (long long)p->out_w, (long long)p->kernel_h, (long long)p->kernel_w,
           (long long)p->stride_h, (long long)p->stride_w,
           (long long)p->dilation_h, (long long)p->dilation_w,
           (long long)p->pad_top, (long long)p->pad_left, (long long)p->flags,
           (long long)bad);
  free(cols);
  free(y);
  free(want);
}

static void test_col2im(void) {
  static const int64_t widths[] = {1, 7, 10};
  int64_t s, k, d, pad, flags, wi;
  for (wi = 0; wi < 3; ++wi)
  for (flags = 0; flags <= ONNXC_COL2IM_TRANSPOSED; ++flags)
    for (s = 1; s <= 3; ++s)
      for (k = 1; k <= 5; k += 2 - (k == 3))
        for (d = 1; d <= 2; ++d)
          for (pad = 0; pad <= k * d; pad += 1 + (k * d > 4)) {
            onnxc_col2im_params p;
            p.batch = 2;
            p.channels = 3;
            p.in_h = 5;
            p.in_w = widths[wi];
            p.kernel_h = k;
            p.kernel_w = k == 1 ? 1 : k - 1; /* not square */
            p.stride_h = s;
            p.stride_w = s == 1 ? 2 : s - 1;
            p.dilation_h = d;
            p.dilation_w = 3 - d;
            p.pad_top = pad;
            p.pad_left = pad / 2;
            /* ConvTranspose's size, an extra output column at the end. */
            p.out_h = (p.in_h - 1) * p.stride_h + (p.kernel_h - 1) * d + 1 -
                      2 * pad;
            p.out_w = (p.in_w - 1) * p.stride_w +
                      (p.kernel_w - 1) * p.dilation_w + 2 - 2 * p.pad_left;
            p.flags = flags;
            if (p.out_h <= 0 || p.out_w <= 0)
              continue;
            check_col2im(&p);
            /* 1-D */
            p.in_h = p.out_h = p.kernel_h = 1;
            p.pad_top = 0;
            check_col2im(&p);
          }
  {
    /* DCGAN's 4 x 4 / 2, pad 1 (an even and an odd phase per row). */
    onnxc_col2im_params p = {1, 8, 16, 16, 32, 32, 4, 4, 2, 2, 1, 1, 1, 1, 0};
    check_col2im(&p);
  }
}

int main(void) {
  static const long widths[] = {1, 5, 15, 16, 17, 31, 33, 47, 64, 65, 111, 112};
  unsigned wi;
  int special, s, p, k;
  for (special = 0; special < 2; ++special)
    for (wi = 0; wi < sizeof widths / sizeof widths[0]; ++wi) {
      long w = widths[wi], h = w > 20 ? 9 : w + 2;
      for (s = 1; s <= 3; ++s)
        for (p = 0; p <= 2; ++p)
          for (k = 1; k <= 3; ++k) {
            /* Symmetric pads, then the ResNet-like uneven ones. */
            check(h, w, k, k, s, s, 1, 1, p, p, p, p, special, 0, 0);
            check(h, w, k, k + 1, s, s, 1, 1, p, p, 0, p + 1, special, 3, 2);
          }
      /* Dilations; pads larger than the kernel; stride only in w. */
      check(h, w, 3, 3, 1, 2, 2, 2, 2, 2, 2, 2, special, 0, 0);
      check(h, w, 2, 2, 2, 2, 1, 1, 3, 3, 3, 3, special, 1, 0);
      check(h, w, 3, 3, 1, 2, 1, 1, 1, 1, 1, 1, special, 0, 1);
    }
  /* ResNet's 3x3 / 2, pads 1, on 112 x 112. */
  check(112, 112, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, 1, 0, 0);
  /* uint8 and int8: the same shapes (the rows path: strides 1 and 2 over
   * unit-stride rows, no column dilation; the window path: the rest). */
  for (special = 0; special < 2; ++special) {
    for (wi = 0; wi < sizeof widths / sizeof widths[0]; ++wi) {
      long w = widths[wi], h = w > 20 ? 9 : w + 2;
      for (s = 1; s <= 3; ++s)
        for (p = 0; p <= 2; ++p)
          for (k = 1; k <= 3; ++k) {
            check_bytes(h, w, k, k, s, s, 1, 1, p, p, p, p, special, 0, 0);
            check_bytes(h, w, k, k + 1, s, s, 1, 1, p, p, 0, p + 1, special,
                        3, 2);
          }
      check_bytes(h, w, 3, 3, 1, 2, 2, 2, 2, 2, 2, 2, special, 0, 0);
      check_bytes(h, w, 2, 2, 2, 2, 1, 1, 3, 3, 3, 3, special, 1, 0);
      check_bytes(h, w, 3, 3, 1, 2, 1, 1, 1, 1, 1, 1, special, 0, 1);
      check_bytes(h, w, 2, 3, 2, 1, 1, 1, 0, 4, 1, 5, special, 0, 0);
    }
    check_bytes(112, 112, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1, special, 0, 0);
  }
  test_col2im();
  if (onnxc_get_num_threads() > 1) {
    /* The caller takes chunks too, so on a loaded machine (CI runs lit's
     * tests side by side on 2 cores) every region above may end before a
     * worker wakes. Repeat a larger case, checked each time, until a worker
     * has run a part of one: the split results are then also tested with
     * the workers' parts in them. */
    int64_t regions, worker_chunks;
    int tries;
    onnxc_rt_pool_stats(&regions, &worker_chunks);
    for (tries = 0; worker_chunks == 0 && tries < 200; ++tries) {
      check(256, 256, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0);
      onnxc_rt_pool_stats(&regions, &worker_chunks);
    }
    printf("pool: %s\n", worker_chunks > 0 ? "workers ran chunks"
                                            : "no chunk ran on a worker");
  }
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}
