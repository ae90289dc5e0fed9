/* conv_cblock.c - one 3 x 3 convolution through onnxc_rt_sconv2d with its
 * weights packed in (c, kh, kw) order and in ONNXC_CONV_W_CBLOCK order
 * (the runtime then pads the input into a copy in blocks of 16 channels):
 * per-call CPU time of each, alternating, and the largest difference
 * between the two outputs (docs/performance.md, issue 10).
 *
 *   cc -O2 -I runtime/include -o conv_cblock bench/conv_cblock.c \
 *       build/lib/libonnxc_runtime.a -lm -lpthread
 *   conv_cblock CIN COUT HW [CALLS [ROUNDS]]
 *
 * CIN (a multiple of 16) -> COUT channels over an HW x HW map, pads 1,
 * bias and Relu fused, one thread. Before each call 32 MB are written, so
 * that the input and the padded copy come from memory as in a model (the
 * previous layer's output). Prints the median of CALLS calls (default 10),
 * the least over ROUNDS rounds (default 3), and GFLOP/s at it.
 */
#include "onnxc/runtime_abi.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double cpu_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* W[m, c, 3, 3] as ONNXC_CONV_W_PACKED panels, in ONNXC_CONV_W_CBLOCK
 * order when `cblock`. */
static float *pack(const float *w, int cin, int cout, int cblock) {
  long k = (long)cin * 9, panels = (cout + 31) / 32;
  size_t n = (size_t)(panels * k * 32);
  float *p = calloc(n, sizeof(float));
  int m, c, t;
  for (m = 0; m < cout; ++m)
    for (c = 0; c < cin; ++c)
      for (t = 0; t < 9; ++t) {
        long row = cblock ? ((long)(c / 16) * 9 + t) * 16 + c % 16 : (long)c * 9 + t;
        p[((m / 32) * k + row) * 32 + m % 32] = w[((long)m * cin + c) * 9 + t];
      }
  return p;
}

static double median_ms(int cin, int cout, int hw, int calls, const float *x,
                        const float *wp, const float *bias, float *y,
                        int cblock, char *junk) {
  onnxc_conv2d_params q;
  double *t = malloc(sizeof(double) * (size_t)calls), r;
  int i;
  memset(&q, 0, sizeof q);
  q.batch = q.groups = 1;
  q.out_channels = cout;
  q.in_channels = cin;
  q.out_h = q.out_w = hw;
  q.kernel_h = q.kernel_w = 3;
  q.stride_h = q.stride_w = q.dilation_h = q.dilation_w = 1;
  q.x_strides[4] = 1;
  q.x_strides[3] = hw;
  q.x_strides[2] = (long)hw * hw;
  q.x_strides[1] = q.x_strides[0] = (long)cin * hw * hw;
  q.y_strides[4] = 1;
  q.y_strides[3] = hw;
  q.y_strides[2] = (long)hw * hw;
  q.y_strides[1] = q.y_strides[0] = (long)cout * hw * hw;
  q.flags = ONNXC_CONV_W_PACKED | ONNXC_CONV_BIAS | ONNXC_CONV_CLAMP |
            ONNXC_CONV_PADDED | (cblock ? ONNXC_CONV_W_CBLOCK : 0);
  q.bias = bias;
  q.clamp_lo = 0.0f;
  q.clamp_hi = INFINITY;
  q.pad_top = q.pad_left = 1;
  q.in_h = q.in_w = hw;
  for (i = 0; i < calls + 1; ++i) {
    double t0;
    memset(junk, i, 32u << 20);
    t0 = cpu_ms();
    onnxc_rt_sconv2d(&q, x, wp, y);
    if (i > 0)
      t[i - 1] = cpu_ms() - t0;
  }
  qsort(t, (size_t)calls, sizeof(double), cmp);
  r = t[calls / 2];
  free(t);
  return r;
}

int main(int argc, char **argv) {
  int cin, cout, hw, calls, rounds, r;
  long nx, ny, nw, i;
  float *x, *w, *bias, *y0, *y1, *p0, *p1;
  char *junk;
  double best0 = 1e30, best1 = 1e30, diff = 0, flop;
  if (argc < 4) {
    fprintf(stderr, "usage: conv_cblock CIN COUT HW [CALLS [ROUNDS]]\n");
    return 2;
  }
  cin = atoi(argv[1]);
  cout = atoi(argv[2]);
  hw = atoi(argv[3]);
  calls = argc > 4 ? atoi(argv[4]) : 10;
  rounds = argc > 5 ? atoi(argv[5]) : 3;
  if (cin <= 0 || cin % 16 || cout <= 0 || hw <= 0 || calls <= 0 || rounds <= 0) {
    fprintf(stderr, "conv_cblock: CIN a positive multiple of 16; COUT, HW, CALLS, ROUNDS positive\n");
    return 2;
  }
  nx = (long)cin * hw * hw;
  ny = (long)cout * hw * hw;
  nw = (long)cout * cin * 9;
  x = malloc(sizeof(float) * (size_t)nx);
  w = malloc(sizeof(float) * (size_t)nw);
  bias = malloc(sizeof(float) * (size_t)cout);
  y0 = malloc(sizeof(float) * (size_t)ny);
  y1 = malloc(sizeof(float) * (size_t)ny);
  junk = malloc(32u << 20);
  srand(1);
  for (i = 0; i < nx; ++i)
    x[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  for (i = 0; i < nw; ++i)
    w[i] = ((float)rand() / (float)RAND_MAX - 0.5f) * 0.2f;
  for (i = 0; i < cout; ++i)
    bias[i] = 0.01f * (float)i;
  p0 = pack(w, cin, cout, 0);
  p1 = pack(w, cin, cout, 1);
  for (r = 0; r < rounds; ++r) {
    double a = median_ms(cin, cout, hw, calls, x, p0, bias, y0, 0, junk);
    double b = median_ms(cin, cout, hw, calls, x, p1, bias, y1, 1, junk);
    best0 = a < best0 ? a : best0;
    best1 = b < best1 ? b : best1;
  }
  for (i = 0; i < ny; ++i)
    diff = fmax(diff, fabs((double)y0[i] - (double)y1[i]));
  flop = 2.0 * cout * cin * 9 * (double)hw * hw;
  printf("%d->%d %dx%d: planes %.3f ms (%.0f GFLOP/s), channel blocks %.3f ms "
         "(%.0f GFLOP/s), ratio %.3f, max difference %.2g\n",
         cin, cout, hw, hw, best0, flop / best0 / 1e6, best1,
         flop / best1 / 1e6, best1 / best0, diff);
  return 0;
}
