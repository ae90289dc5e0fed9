/*===- winograd_test.c - Winograd 3 x 3 convolutions against plain loops --===*
 *
 *   onnxc-winograd-test     checks every case, prints a summary
 *
 * onnxc_rt_sconv2d with constant packed weights (ONNXC_CONV_W_CONST) of 3
 * x 3, stride-1 convolutions takes runtime/src/winograd.c's path. Each
 * case is checked against a double-precision convolution: the error of
 * every output within TOL times the sum of the magnitudes of its products
 * (plus the bias and Y's value), the bound the F(4x4, 3x3) arithmetic
 * keeps (TOL says why; the largest ratio seen is printed). Cases:
 * outputs whose sides are not multiples of 4 (edge tiles), padding on
 * every side and none, batches, bias / sum with Y (accumulate) / clamp,
 * strided views of Y, in place (Y is X), weights in both packed orders,
 * and packed weights rewritten at the same address (the transformed
 * weights are recomputed), for F(4x4, 3x3) and F(2x2, 3x3); dilations 2
 * to 4 (the phases of the map) and 16 output channels (per tier). It also
 * checks that the path was taken with the expected tiles (the runtime's
 * call counts) and that 1 and 3 threads give the same bits.
 * Run once per tier (ONNXC_ISA, test/runtime/winograd.test).
 *===----------------------------------------------------------------------===*/

#include "../src/internal.h"
#include "../src/kernels/dispatch.h"

#include "onnxc/runtime.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* F(4x4, 3x3) rounds each product after the transforms have scaled it (B's
 * rows sum to 10 in magnitude, A's to 19): errors of a few hundred float
 * epsilons (6e-8) of the products' magnitude are its arithmetic, not a
 * fault. Seen here: up to 4e-6 (printed below; the dilated cases, 2.2e-6
 * without them); bound 1e-5. A wrong tap, tile or channel is off by a
 * whole product (above 1e-3 of the magnitude for these random data). */
#define TOL 1e-5

static int checks, failures;
/* Whether the cases that follow expect the Winograd path (0: the direct
 * one, with the same results within TOL). */
static int want_winograd = 1;
/* The dilation of the cases that follow. */
static long dil = 1;
static double worst;
static unsigned long long rng = 88172645463325252ull;

static float value(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (float)((double)(rng % 2001) / 1000.0 - 1.0);
}

static float *rand_buf(long n) {
  float *b = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  long i;
  for (i = 0; i < n; ++i)
    b[i] = value();
  return b;
}

/* W[m, c, 3, 3] packed as runtime_abi.h says: panels of K x 32, K in (c,
 * kh, kw) order or, cblock, in (c / 16, kh, kw, c % 16) order. */
static void pack(const float *w, long m, long c, int cblock, float *wp) {
  long panels = (m + ONNXC_SGEMM_PANEL - 1) / ONNXC_SGEMM_PANEL, k = c * 9;
  long mm, ci, t;
  memset(wp, 0, sizeof(float) * (size_t)(panels * k * ONNXC_SGEMM_PANEL));
  for (mm = 0; mm < m; ++mm)
    for (ci = 0; ci < c; ++ci)
      for (t = 0; t < 9; ++t) {
        long row = cblock ? ((ci / 16) * 9 + t) * 16 + ci % 16 : ci * 9 + t;
        wp[((mm / ONNXC_SGEMM_PANEL) * k + row) * ONNXC_SGEMM_PANEL +
           mm % ONNXC_SGEMM_PANEL] = w[(mm * c + ci) * 9 + t];
      }
}

/* BIAS_ADD: ONNXC_CONV_BIAS_ADD, Y's values plus the bias are the start
 * (ACCUMULATE with BIAS: the bias pointer is ignored). */
enum { BIAS = 1, CLAMP = 2, ACCUMULATE = 4, YPAD = 8, IN_PLACE = 16, BIAS_ADD = 32 };

/* One call: n images of c x h x w, m outputs, pads p (all sides; -1: the
 * call unpadded, X read as padded already), `mode` bits above. */
static void check_tile(long n, long c, long m, long h, long w, long p,
                       int mode, int cblock, int tile) {
  long pad = p < 0 ? 0 : p;
  long oh = h + 2 * pad - 2 * dil, ow = w + 2 * pad - 2 * dil;
  long yw = ow + ((mode & YPAD) ? 3 : 0); /* Y's row pitch */
  long xsz = n * c * h * w, ysz = n * m * oh * yw;
  long panels = (m + ONNXC_SGEMM_PANEL - 1) / ONNXC_SGEMM_PANEL;
  float *x = rand_buf(xsz), *wt = rand_buf(m * c * 9), *bias = rand_buf(m);
  float *wp = malloc(sizeof(float) * (size_t)(panels * c * 9 * ONNXC_SGEMM_PANEL));
  float *y, *y0, *y3;
  long calls0 = onnxc_rt_winograd_calls(tile), b, mm, r, col;
  int round;
  onnxc_conv2d_params q;
  char what[160];
  if (mode & IN_PLACE) {
    /* Y is X: same shape (pads 1), m = c. */
    y = x;
  } else {
    y = rand_buf(ysz);
  }
  y0 = malloc(sizeof(float) * (size_t)(xsz > ysz ? xsz : ysz));
  memcpy(y0, (mode & IN_PLACE) ? x : y, sizeof(float) * (size_t)((mode & IN_PLACE) ? xsz : ysz));
  {
    float *x0 = NULL;
    if (mode & IN_PLACE) {
      x0 = malloc(sizeof(float) * (size_t)xsz);
      memcpy(x0, x, sizeof(float) * (size_t)xsz);
    }
    memset(&q, 0, sizeof q);
    q.batch = n;
    q.groups = 1;
    q.out_channels = m;
    q.in_channels = c;
    q.out_h = oh;
    q.out_w = ow;
    q.kernel_h = q.kernel_w = 3;
    q.stride_h = q.stride_w = 1;
    q.dilation_h = q.dilation_w = dil;
    q.x_strides[4] = 1;
    q.x_strides[3] = w;
    q.x_strides[2] = h * w;
    q.x_strides[1] = q.x_strides[0] = c * h * w;
    q.y_strides[4] = 1;
    q.y_strides[3] = yw;
    q.y_strides[2] = oh * yw;
    q.y_strides[1] = q.y_strides[0] = m * oh * yw;
    q.flags = ONNXC_CONV_W_PACKED | ONNXC_CONV_W_CONST |
              (cblock ? ONNXC_CONV_W_CBLOCK : 0);
    if (p >= 0) {
      q.flags |= ONNXC_CONV_PADDED;
      q.pad_top = q.pad_left = p;
      q.in_h = h;
      q.in_w = w;
    }
    if (mode & IN_PLACE)
      q.flags |= ONNXC_CONV_IN_PLACE;
    if (mode & BIAS_ADD)
      q.flags |= ONNXC_CONV_BIAS_ADD;
    else if (!(mode & ACCUMULATE))
      q.flags |= ONNXC_CONV_BIAS;
    q.bias = (mode & (BIAS | BIAS_ADD)) ? bias : NULL;
    if (mode & CLAMP) {
      q.flags |= ONNXC_CONV_CLAMP;
      q.clamp_lo = -0.5f;
      q.clamp_hi = 0.75f;
    }
    /* Round 0 with the weights, round 1 with other weights written at the
     * same address (the transformed ones must follow). */
    for (round = 0; round < 2; ++round) {
      const float *xs = (mode & IN_PLACE) ? x0 : x;
      if (round == 1) {
        free(wt);
        wt = rand_buf(m * c * 9);
        if (mode & IN_PLACE)
          memcpy(x, x0, sizeof(float) * (size_t)xsz);
        else
          memcpy(y, y0, sizeof(float) * (size_t)ysz);
      }
      pack(wt, m, c, cblock, wp);
      onnxc_set_num_threads(1);
      onnxc_rt_sconv2d(&q, x, wp, y);
      sprintf(what,
              "n%ld c%ld m%ld %ldx%ld pads%ld dil%ld mode%d cblock%d round%d",
              n, c, m, h, w, p, dil, mode, cblock, round);
      for (b = 0; b < n; ++b)
        for (mm = 0; mm < m; ++mm)
          for (r = 0; r < oh; ++r)
            for (col = 0; col < ow; ++col) {
              double s = 0, mag = 0;
              long ci, kh, kw, yi = ((b * m + mm) * oh + r) * yw + col;
              float got = y[yi];
              for (ci = 0; ci < c; ++ci)
                for (kh = 0; kh < 3; ++kh)
                  for (kw = 0; kw < 3; ++kw) {
                    long ih = r + kh * dil - pad, iw = col + kw * dil - pad;
                    double v;
                    if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                      continue;
                    v = (double)xs[((b * c + ci) * h + ih) * w + iw] *
                        wt[(mm * c + ci) * 9 + kh * 3 + kw];
                    s += v;
                    mag += fabs(v);
                  }
              if (mode & BIAS_ADD) {
                s += (double)y0[yi] + bias[mm];
                mag += fabs(y0[yi]) + fabs(bias[mm]);
              } else if (mode & ACCUMULATE) {
                s += y0[yi];
                mag += fabs(y0[yi]);
              } else if (mode & BIAS) {
                s += bias[mm];
                mag += fabs(bias[mm]);
              }
              if (mode & CLAMP)
                s = s < -0.5 ? -0.5 : s > 0.75 ? 0.75 : s;
              ++checks;
              if (fabs(got - s) > TOL * mag + 1e-30) {
                if (++failures <= 10)
                  printf("FAIL %s at %ld,%ld,%ld,%ld: got %.9g expected %.9g "
                         "(magnitude %g)\n",
                         what, b, mm, r, col, got, s, mag);
              } else if (mag > 0 && fabs(got - s) / mag > worst) {
                worst = fabs(got - s) / mag;
              }
            }
      /* Three threads: the same bits. */
      y3 = malloc(sizeof(float) * (size_t)(xsz > ysz ? xsz : ysz));
      if (!(mode & IN_PLACE)) {
        memcpy(y3, y, sizeof(float) * (size_t)ysz);
        memcpy(y, y0, sizeof(float) * (size_t)ysz);
        onnxc_set_num_threads(3);
        onnxc_rt_sconv2d(&q, x, wp, y);
        ++checks;
        if (memcmp(y3, y, sizeof(float) * (size_t)ysz) != 0 &&
            ++failures <= 10)
          printf("FAIL %s: 3 threads differ from 1\n", what);
      }
      free(y3);
    }
    free(x0);
  }
  /* Every call of the case took the Winograd path with its tiles (or
   * none did, where the tier leaves the case to the direct path). */
  ++checks;
  if (onnxc_rt_winograd_calls(tile) - calls0 !=
          (want_winograd ? ((mode & IN_PLACE) ? 2 : 4) : 0) &&
      ++failures <= 10)
    printf("FAIL %s: F(%dx%d, 3x3) was %s\n", what, tile, tile,
           want_winograd ? "not taken" : "taken");
  free(x);
  if (!(mode & IN_PLACE))
    free(y);
  free(y0);
  free(wt);
  free(wp);
  free(bias);
}

/* F(4x4, 3x3) cases. */
static void check(long n, long c, long m, long h, long w, long p, int mode,
                  int cblock) {
  check_tile(n, c, m, h, w, p, mode, cblock, 4);
}

int main(void) {
  int mode;
  /* Edges: sides 4k, 4k + 1, 4k + 2, 4k + 3; padded and not. */
  check(1, 16, 32, 18, 18, 1, BIAS, 0);
  check(1, 16, 32, 17, 19, 1, BIAS | CLAMP, 1);
  check(1, 32, 32, 21, 15, 1, BIAS, 1);
  check(1, 16, 48, 20, 22, -1, BIAS, 0);
  check(1, 16, 32, 10, 40, 0, BIAS, 0);
  check(1, 64, 64, 16, 16, 1, BIAS | CLAMP, 1);
  check(1, 16, 32, 13, 13, 2, BIAS, 0); /* pads wider than the kernel's */
  /* Batches; every epilogue; Y with a row pitch wider than its rows. */
  for (mode = 0; mode < 16; ++mode)
    check(2, 16, 32, 14, 13, 1, mode, mode & 1);
  /* Many tiles over several chunks and threads; deep K. */
  check(1, 32, 32, 57, 55, 1, BIAS | CLAMP, 1);
  check(1, 256, 32, 14, 14, 1, BIAS, 1);
  /* 256 input channels: products through the 6 x 64 tile where the tier
   * has it, a pair of panels and the 16 channels left through the GEMM. */
  check(1, 256, 80, 16, 16, 1, BIAS | CLAMP, 1);
  /* In place: Y is X; one chunk of tiles, and several (X read whole
   * before Y is written). */
  check(1, 32, 32, 16, 16, 1, BIAS | CLAMP | IN_PLACE, 1);
  check(1, 32, 32, 57, 55, 1, BIAS | CLAMP | IN_PLACE, 0);
  check(1, 32, 32, 19, 17, 1, ACCUMULATE | IN_PLACE, 0);
  /* F(2x2, 3x3): maps with fewer than 16 tiles of 4 x 4 (8 x 8; 7 x 9,
   * odd edges; a batch of 6 x 6), and the weights' transform too large
   * for the tiles of 4 x 4 (384 -> 256 channels at 16 x 16: 885 KB a
   * tile; 2 x 2: 98 KB). */
  check_tile(1, 16, 32, 8, 8, 1, BIAS | CLAMP, 0, 2);
  check_tile(1, 32, 48, 7, 9, 1, BIAS, 1, 2);
  check_tile(2, 16, 32, 6, 6, 1, ACCUMULATE | YPAD, 0, 2);
  check_tile(2, 16, 32, 8, 8, -1, BIAS | CLAMP, 1, 2);
  check_tile(1, 384, 256, 16, 16, 1, BIAS | CLAMP, 1, 2);
  check_tile(1, 32, 32, 8, 8, 1, ACCUMULATE | CLAMP | IN_PLACE, 0, 2);
  /* A residual Add fused (ONNXC_CONV_BIAS_ADD): F(4x4, 3x3) over several
   * chunks, with a clamp, a row pitch; F(2x2, 3x3). */
  check(1, 32, 32, 57, 55, 1, BIAS_ADD | CLAMP, 1);
  check(2, 16, 32, 14, 13, 1, BIAS_ADD | YPAD, 0);
  check(1, 256, 80, 16, 16, 1, BIAS_ADD | CLAMP, 1);
  check_tile(1, 32, 48, 7, 9, 1, BIAS_ADD | CLAMP, 1, 2);
  /* 16 output channels (U-Net's first and last layers): Winograd where
   * the tier's tiles are half a panel wide (AVX2's wino_width), else the
   * direct path; edge tiles, a deep K, a fused residual, F(2x2, 3x3). */
  want_winograd = onnxc_rt_kernels()->wino_width <= 16;
  printf("16 output channels: %s\n",
         want_winograd ? "winograd" : "direct");
  check(1, 16, 16, 18, 17, 1, BIAS | CLAMP, 0);
  check(1, 48, 16, 21, 22, 1, BIAS, 1);
  check(2, 16, 16, 14, 13, 1, BIAS_ADD | YPAD, 0);
  check_tile(1, 32, 16, 8, 8, 1, BIAS | CLAMP, 1, 2);
  want_winograd = 1;
  /* 24 output channels (a text detector's head): the last block of 8 of
   * the output transforms through a scratch; the bias, Y read (the sum, a
   * fused residual), a row pitch, in place (32 -> 24 is not), F(2x2, 3x3),
   * a batch over several chunks. 40 (3/4 of 48 on AVX2, 5/8 of 64
   * elsewhere: the direct path there). */
  check(1, 16, 24, 18, 17, 1, BIAS | CLAMP, 0);
  check(2, 32, 24, 14, 13, 1, ACCUMULATE | YPAD, 1);
  check(1, 48, 24, 21, 22, 1, BIAS_ADD | CLAMP, 0);
  check(1, 24 + 8, 24, 57, 55, 1, BIAS, 1);
  check_tile(1, 32, 24, 8, 8, 1, BIAS | CLAMP, 1, 2);
  want_winograd = onnxc_rt_kernels()->wino_width <= 16;
  check(1, 16, 40, 18, 18, 1, BIAS | CLAMP, 0);
  check_tile(1, 16, 40, 7, 9, 1, ACCUMULATE, 1, 2);
  want_winograd = 1;
  /* Dilated (U-Net's bottleneck): the d^2 phases of the map as a batch of
   * undilated calls, when the pads and sides are multiples of d; a batch,
   * Y read (the sum, a fused residual) and strided, unpadded X, in place
   * (Y is X), d = 3. */
  dil = 2;
  check(1, 32, 32, 16, 16, 2, BIAS | CLAMP, 0);
  check(2, 16, 32, 20, 24, 2, ACCUMULATE | YPAD, 1);
  check(1, 16, 48, 20, 20, -1, BIAS_ADD | CLAMP, 0);
  check(1, 32, 32, 16, 16, 2, BIAS | CLAMP | IN_PLACE, 1);
  check(1, 32, 32, 18, 18, 2, ACCUMULATE | IN_PLACE, 0);
  dil = 4;
  check(1, 16, 32, 16, 16, 4, BIAS, 1);
  dil = 3;
  check(1, 16, 32, 18, 18, 3, BIAS | CLAMP, 0);
  /* Pads not a multiple of the dilation, an odd side: the direct path. */
  want_winograd = 0;
  dil = 2;
  check(1, 16, 32, 16, 16, 1, BIAS, 0);
  check(1, 16, 32, 15, 16, 2, BIAS, 0);
  want_winograd = 1;
  dil = 1;
  printf("winograd: largest error %.2g of the products' magnitude\n", worst);
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}
