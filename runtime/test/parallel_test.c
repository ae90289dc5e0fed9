/*===- parallel_test.c - The kernels on several threads, and the pool -----===*
 *
 *   onnxc-parallel-test           every check below; prints a summary
 *   onnxc-parallel-test threads   prints onnxc_get_num_threads()
 *   onnxc-parallel-test bench gemm M N K RUNS THREADS
 *   onnxc-parallel-test bench conv C M HW KHW STRIDE RUNS THREADS
 *                                 median time of one call (batch 1,
 *                                 padded input, packed weights)
 *
 * Every product and convolution runs on 1, 2 and 3 threads: the 1-thread
 * result must match plain loops, and the others must equal it bit for bit
 * (a split computes every element as one thread does). Shapes are chosen
 * so that each way of splitting is taken (columns, rows, batches, images,
 * groups, channel panels, output rows), with sizes off the 8 x 32 tile.
 * Run it with ONNXC_PARALLEL_MIN_FLOP=0 so that even small calls split.
 * Copies (onnxc_rt_copy) on 1, 2 and 3 threads equal the plain loop.
 * Then: a failure inside a chunk (on the caller and on a worker) comes
 * back to the caller and leaves the pool usable; two application threads
 * share the pool; a forked child runs regions of its own; the workers did
 * run chunks.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L
#include "../src/internal.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NR ONNXC_SGEMM_PANEL

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

static float *copy_buf(const float *src, long n) {
  float *p = malloc(sizeof(float) * (size_t)(n > 0 ? n : 1));
  memcpy(p, src, sizeof(float) * (size_t)n);
  return p;
}

static void check(int ok, const char *what, const char *detail) {
  ++checks;
  if (!ok && ++failures <= 20)
    printf("FAIL %s: %s\n", what, detail);
}

/* The 1-thread result against plain loops: |got - exp| <= 1e-5 + 1e-4 *
 * (sum of |terms|). */
static void check_close(const char *what, const float *got, const double *exp,
                        const double *mag, long n) {
  long i;
  char detail[120];
  for (i = 0; i < n; ++i)
    if (!(fabs(got[i] - exp[i]) <= 1e-5 + 1e-4 * mag[i])) {
      sprintf(detail, "element %ld: got %g expected %g", i, got[i], exp[i]);
      check(0, what, detail);
      return;
    }
  check(1, what, "");
}

static void check_same(const char *what, int threads, const float *got,
                       const float *ref, long n) {
  long i;
  char detail[120];
  for (i = 0; i < n; ++i)
    if (memcmp(&got[i], &ref[i], sizeof(float)) != 0) {
      sprintf(detail, "%d threads, element %ld: %g, on one thread %g", threads,
              i, got[i], ref[i]);
      check(0, what, detail);
      return;
    }
  check(1, what, "");
}

static void set_threads(int n) {
  if (onnxc_set_num_threads(n) != ONNXC_OK) {
    printf("FAIL onnxc_set_num_threads(%d)\n", n);
    exit(1);
  }
}

/* ---- Products --------------------------------------------------------- */

static float *pack_b(const float *b, long k, long n, long rsb, long csb) {
  long panels = (n + NR - 1) / NR, j, p, c;
  float *bp = malloc(sizeof(float) * (size_t)(panels * NR * (k ? k : 1)));
  for (j = 0; j < panels; ++j)
    for (p = 0; p < k; ++p)
      for (c = 0; c < NR; ++c) {
        long col = j * NR + c;
        bp[(j * k + p) * NR + c] = col < n ? b[p * rsb + col * csb] : 0.0f;
      }
  return bp;
}

/* Epilogues of gemm_case and batched_case. */
enum { NO_EP, BIAS_COL_CLAMP, BIAS_ROW };
#define LO (-0.5f)
#define HI 0.75f

/* The epilogue `ep` on the exact product s (row i, column j). */
static double apply_ep(int ep, double s, const float *bias, long i, long j,
                       double *mag) {
  if (ep == BIAS_ROW)
    return s + bias[i];
  if (ep == BIAS_COL_CLAMP) {
    s += bias[j];
    s = s < LO ? LO : s > HI ? HI : s;
    *mag = fabs(s) + 1e-3;
  }
  return s;
}

static int ep_flags(int ep) {
  return ep == BIAS_ROW         ? ONNXC_SGEMM_BIAS_ROW
         : ep == BIAS_COL_CLAMP ? ONNXC_SGEMM_BIAS_COL | ONNXC_SGEMM_CLAMP
                                : 0;
}

/* C (m x n, rows ldc = n + 3 apart: the 3 extra columns must stay) = or +=
 * A B, A transposed or not, B packed or not, with an epilogue (through
 * onnxc_rt_sgemm_ep) or not (onnxc_rt_sgemm). */
static void gemm_case(long m, long n, long k, int transA, int packed,
                      int accumulate, int ep) {
  long ldc = n + 3, rsa = transA ? 1 : k, csa = transA ? m : 1, i, j, p;
  int flags = (packed ? ONNXC_SGEMM_B_PACKED : 0) |
              (accumulate ? ONNXC_SGEMM_ACCUMULATE : 0) | ep_flags(ep);
  float *a = rand_buf(m * k), *b = rand_buf(k * n), *c0 = rand_buf(m * ldc);
  float *bias = rand_buf(m > n ? m : n);
  float *bp = packed ? pack_b(b, k, n, n, 1) : NULL, *ref = NULL;
  double *exp = malloc(sizeof(double) * (size_t)(m * ldc));
  double *mag = malloc(sizeof(double) * (size_t)(m * ldc));
  int t;
  char what[120];
  sprintf(what, "sgemm %ldx%ldx%ld transA=%d packed=%d accumulate=%d ep=%d",
          m, n, k, transA, packed, accumulate, ep);
  for (i = 0; i < m; ++i)
    for (j = 0; j < ldc; ++j) {
      double s = j >= n || (accumulate && !ep) ? c0[i * ldc + j] : 0.0,
             g = fabs(s);
      for (p = 0; j < n && p < k; ++p) {
        double v = (double)a[i * rsa + p * csa] * b[p * n + j];
        s += v;
        g += fabs(v);
      }
      exp[i * ldc + j] = j < n ? apply_ep(ep, s, bias, i, j, &g) : s;
      mag[i * ldc + j] = g;
    }
  for (t = 1; t <= 3; ++t) {
    float *c = copy_buf(c0, m * ldc);
    set_threads(t);
    if (ep)
      onnxc_rt_sgemm_ep(m, n, k, a, rsa, csa, packed ? bp : b, n, 1, c, ldc,
                        1, flags, bias, LO, HI);
    else
      onnxc_rt_sgemm(m, n, k, a, rsa, csa, packed ? bp : b, n, 1, c, ldc, 1,
                     flags);
    if (t == 1) {
      check_close(what, c, exp, mag, m * ldc);
      ref = c;
    } else {
      check_same(what, t, c, ref, m * ldc);
      free(c);
    }
  }
  free(a);
  free(b);
  free(c0);
  free(bias);
  free(bp);
  free(ref);
  free(exp);
  free(mag);
}

/* `batch` products of m x k by k x n, B shared (sbb 0) or not, C rows
 * contiguous (the batch then folds into one taller product) or not, with
 * an epilogue (onnxc_rt_sgemm_batched_ep) or not. */
static void batched_case(long batch, long m, long n, long k, int shareB,
                         long cpad, int ep) {
  long sba = m * k, sbb = shareB ? 0 : k * n, sbc = m * n + cpad;
  long csize = batch * sbc, i, j, p, u;
  float *a = rand_buf(batch * sba), *b = rand_buf(shareB ? k * n : batch * sbb);
  float *c0 = rand_buf(csize), *ref = NULL, *bias = rand_buf(m > n ? m : n);
  double *exp = malloc(sizeof(double) * (size_t)csize);
  double *mag = malloc(sizeof(double) * (size_t)csize);
  int t;
  char what[120];
  sprintf(what, "batched %ld x %ldx%ldx%ld shareB=%d cpad=%ld ep=%d", batch, m,
          n, k, shareB, cpad, ep);
  for (i = 0; i < csize; ++i) {
    exp[i] = c0[i];
    mag[i] = 0;
  }
  for (u = 0; u < batch; ++u)
    for (i = 0; i < m; ++i)
      for (j = 0; j < n; ++j) {
        double s = 0, g = 0;
        for (p = 0; p < k; ++p) {
          double v = (double)a[u * sba + i * k + p] * b[u * sbb + p * n + j];
          s += v;
          g += fabs(v);
        }
        exp[u * sbc + i * n + j] = apply_ep(ep, s, bias, i, j, &g);
        mag[u * sbc + i * n + j] = g;
      }
  for (t = 1; t <= 3; ++t) {
    float *c = copy_buf(c0, csize);
    set_threads(t);
    if (ep)
      onnxc_rt_sgemm_batched_ep(batch, m, n, k, a, sba, k, 1, b, sbb, n, 1, c,
                                sbc, n, 1, ep_flags(ep), bias, LO, HI);
    else
      onnxc_rt_sgemm_batched(batch, m, n, k, a, sba, k, 1, b, sbb, n, 1, c,
                             sbc, n, 1, 0);
    if (t == 1) {
      check_close(what, c, exp, mag, csize);
      ref = c;
    } else {
      check_same(what, t, c, ref, csize);
      free(c);
    }
  }
  free(a);
  free(b);
  free(c0);
  free(bias);
  free(ref);
  free(exp);
  free(mag);
}

/* ---- Convolutions ----------------------------------------------------- */

/* W[g, m, c, kh, kw] (contiguous, khw taps per channel) as
 * ONNXC_CONV_W_PACKED panels; `cblock`: rows in ONNXC_CONV_W_CBLOCK
 * order. */
static float *pack_conv(const float *wt, long groups, long m, long kdim,
                        long khw, int cblock) {
  long panels = (m + NR - 1) / NR, g, j, k, c;
  float *p = malloc(sizeof(float) * (size_t)(groups * panels * kdim * NR));
  for (g = 0; g < groups; ++g)
    for (j = 0; j < panels; ++j)
      for (k = 0; k < kdim; ++k)
        for (c = 0; c < NR; ++c) {
          long mm = j * NR + c, ci = k / khw, t = k % khw;
          long row = cblock ? ((ci / ONNXC_CONV_CBLOCK) * khw + t) * ONNXC_CONV_CBLOCK +
                                  ci % ONNXC_CONV_CBLOCK
                            : k;
          p[((g * panels + j) * kdim + row) * NR + c] =
              mm < m ? wt[(g * m + mm) * kdim + k] : 0.0f;
        }
  return p;
}

/* A convolution over an NCHW input (h x w): padded already (pad < 0), or
 * with `pad` rows and columns of zeros on every side (ONNXC_CONV_PADDED).
 * `ypad` extra floats after each output row (Y then is not flat: the plain
 * loops, or the depthwise kernel, run). fuse: 1 bias, 2 clamp. */
static void conv_case(long nb, long groups, long m, long cin, long h, long w,
                      long kh, long kw, long s, long d, int packed, int fuse,
                      long ypad, long pad) {
  onnxc_conv2d_params q;
  long pd = pad < 0 ? 0 : pad;
  long oh = (h + 2 * pd - (kh - 1) * d - 1) / s + 1,
       ow = (w + 2 * pd - (kw - 1) * d - 1) / s + 1;
  long yrow = ow + ypad, kdim = cin * kh * kw;
  long xsz = nb * groups * cin * h * w, wsz = groups * m * kdim;
  long ysz = nb * groups * m * oh * yrow;
  float *x = rand_buf(xsz), *wt = rand_buf(wsz), *y0 = rand_buf(ysz);
  float *bias = rand_buf(groups * m), *ref = NULL;
  /* packed 2: in ONNXC_CONV_W_CBLOCK order */
  float *wp = packed ? pack_conv(wt, groups, m, kdim, kh * kw, packed == 2) : NULL;
  double *exp = malloc(sizeof(double) * (size_t)ysz);
  double *mag = malloc(sizeof(double) * (size_t)ysz);
  long n, g, mm, a, b, c, i, j;
  int t;
  char what[160];
  sprintf(what,
          "conv n%ld g%ld m%ld c%ld %ldx%ld k%ldx%ld s%ld d%ld packed%d "
          "fuse%d ypad%ld pad%ld",
          nb, groups, m, cin, h, w, kh, kw, s, d, packed, fuse, ypad, pad);
  memset(&q, 0, sizeof q);
  q.batch = nb;
  q.groups = groups;
  q.out_channels = m;
  q.in_channels = cin;
  q.out_h = oh;
  q.out_w = ow;
  q.kernel_h = kh;
  q.kernel_w = kw;
  q.stride_h = q.stride_w = s;
  q.dilation_h = q.dilation_w = d;
  q.x_strides[4] = 1;
  q.x_strides[3] = w;
  q.x_strides[2] = h * w;
  q.x_strides[1] = cin * h * w;
  q.x_strides[0] = groups * cin * h * w;
  q.w_strides[4] = 1;
  q.w_strides[3] = kw;
  q.w_strides[2] = kh * kw;
  q.w_strides[1] = kdim;
  q.w_strides[0] = m * kdim;
  q.y_strides[4] = 1;
  q.y_strides[3] = yrow;
  q.y_strides[2] = oh * yrow;
  q.y_strides[1] = m * oh * yrow;
  q.y_strides[0] = groups * m * oh * yrow;
  q.flags = (packed ? ONNXC_CONV_W_PACKED : 0) |
            (packed == 2 ? ONNXC_CONV_W_CBLOCK : 0) |
            (fuse & 1 ? ONNXC_CONV_BIAS : 0) |
            (fuse & 2 ? ONNXC_CONV_CLAMP : 0);
  if (pad >= 0) {
    q.flags |= ONNXC_CONV_PADDED;
    q.pad_top = q.pad_left = pad;
    q.in_h = h;
    q.in_w = w;
  }
  q.bias = bias;
  q.clamp_lo = -0.5f;
  q.clamp_hi = 0.75f;
  for (i = 0; i < ysz; ++i) {
    exp[i] = y0[i];
    mag[i] = 0;
  }
  for (n = 0; n < nb; ++n)
    for (g = 0; g < groups; ++g)
      for (mm = 0; mm < m; ++mm)
        for (i = 0; i < oh; ++i)
          for (j = 0; j < ow; ++j) {
            long yo = (((n * groups + g) * m + mm) * oh + i) * yrow + j;
            double v = fuse & 1 ? bias[g * m + mm] : y0[yo], e = fabs(v);
            for (c = 0; c < cin; ++c)
              for (a = 0; a < kh; ++a)
                for (b = 0; b < kw; ++b) {
                  long ih = i * s + a * d - pd, iw = j * s + b * d - pd;
                  double p;
                  if (ih < 0 || ih >= h || iw < 0 || iw >= w)
                    continue;
                  p = (double)x[(((n * groups + g) * cin + c) * h + ih) * w +
                                iw] *
                      wt[((g * m + mm) * cin + c) * kh * kw + a * kw + b];
                  v += p;
                  e += fabs(p);
                }
            if (fuse & 2) {
              v = v < -0.5 ? -0.5 : v > 0.75 ? 0.75 : v;
              e = fabs(v) + 1e-3;
            }
            exp[yo] = v;
            mag[yo] = e;
          }
  for (t = 1; t <= 3; ++t) {
    float *y = copy_buf(y0, ysz);
    set_threads(t);
    onnxc_rt_sconv2d(&q, x, packed ? wp : wt, y);
    if (t == 1) {
      check_close(what, y, exp, mag, ysz);
      ref = y;
    } else {
      check_same(what, t, y, ref, ysz);
      free(y);
    }
  }
  free(x);
  free(wt);
  free(wp);
  free(y0);
  free(bias);
  free(ref);
  free(exp);
  free(mag);
}

/* ---- Copies (onnxc_rt_copy) ------------------------------------------ */

/* A copy of `rank` dims `sizes` of `esize`-byte elements from a buffer
 * with element strides `ss` to one with `ds` (the offsets `so`, `doff`
 * make room for negative strides), on 1, 2 and 3 threads: every
 * destination byte must be the source's element or, outside the copy,
 * untouched. Copies are exact: every thread count is compared with the
 * plain loop. */
static void copy_case(const char *what, long rank, const long *sizes,
                      const long *ss, long so, const long *ds, long doff,
                      long esize) {
  long slen = 1, dlen = 1, total = 1, d, i, e;
  int64_t params[2 + 3 * 8];
  unsigned char *src, *dst, *exp;
  int threads;
  /* Buffer lengths: the largest offset reached, plus one element. */
  for (d = 0; d < rank; ++d) {
    total *= sizes[d];
    if (sizes[d] > 0) {
      slen += (sizes[d] - 1) * labs(ss[d]);
      dlen += (sizes[d] - 1) * labs(ds[d]);
    }
  }
  slen += so;
  dlen += doff;
  src = malloc((size_t)(slen * esize));
  dst = malloc((size_t)(dlen * esize));
  exp = malloc((size_t)(dlen * esize));
  for (i = 0; i < slen * esize; ++i)
    src[i] = (unsigned char)(rnd() * 127.0f + 128.0f);
  memset(exp, 0xA5, (size_t)(dlen * esize));
  for (i = 0; i < total; ++i) {
    long rem = i, s = so, t = doff;
    for (d = rank - 1; d >= 0; --d) {
      long k = rem % sizes[d];
      rem /= sizes[d];
      s += k * ss[d];
      t += k * ds[d];
    }
    for (e = 0; e < esize; ++e)
      exp[t * esize + e] = src[s * esize + e];
  }
  params[0] = rank;
  params[1] = esize;
  for (d = 0; d < rank; ++d) {
    params[2 + d] = sizes[d];
    params[2 + rank + d] = ss[d];
    params[2 + 2 * rank + d] = ds[d];
  }
  for (threads = 1; threads <= 3; ++threads) {
    char detail[120];
    set_threads(threads);
    memset(dst, 0xA5, (size_t)(dlen * esize));
    onnxc_rt_copy(params, src + so * esize, dst + doff * esize);
    for (i = 0; i < dlen * esize && dst[i] == exp[i]; ++i)
      ;
    sprintf(detail, "%d threads, byte %ld of %ld differs", threads, i,
            dlen * esize);
    check(i == dlen * esize, what, detail);
  }
  set_threads(1);
  free(src);
  free(dst);
  free(exp);
}

static void copy_cases(void) {
  /* A Concat input into its slice (one row once merged, cut into column
   * ranges); into a padded buffer's interior (rows of 17 of 21); a
   * transposed source (nothing merges); a broadcast source (stride 0) and
   * a reversed one; other element sizes; one long dim; an empty copy. */
  static const long s1[] = {1, 7, 33, 35}, ss1[] = {7 * 33 * 35, 33 * 35, 35, 1},
                    ds1[] = {12 * 33 * 35, 33 * 35, 35, 1};
  static const long s2[] = {2, 5, 16, 17}, ss2[] = {5 * 16 * 17, 16 * 17, 17, 1},
                    ds2[] = {5 * 20 * 21, 20 * 21, 21, 1};
  static const long s3[] = {3, 40, 50}, ss3[] = {2000, 1, 40},
                    ds3[] = {2000, 50, 1};
  static const long s4[] = {6, 300}, ss4[] = {0, 1}, ds4[] = {300, 1};
  static const long s5[] = {9, 70}, ss5[] = {-70, -1}, ds5[] = {70, 1};
  static const long s6[] = {100003}, ss6[] = {1}, ds6[] = {1};
  static const long s7[] = {4, 0, 9}, ss7[] = {9, 9, 1}, ds7[] = {9, 9, 1};
  copy_case("copy into a slice", 4, s1, ss1, 0, ds1, 2 * 33 * 35, 4);
  copy_case("copy into a padded interior", 4, s2, ss2, 0, ds2, 2 * 21 + 2, 4);
  copy_case("copy of a transposed source", 3, s3, ss3, 0, ds3, 0, 4);
  copy_case("copy of a broadcast source", 2, s4, ss4, 0, ds4, 0, 4);
  copy_case("copy of a reversed source", 2, s5, ss5, 9 * 70 - 1, ds5, 0, 4);
  copy_case("copy of bytes", 4, s2, ss2, 0, ds2, 5, 1);
  copy_case("copy of halves", 4, s1, ss1, 0, ds1, 3, 2);
  copy_case("copy of doubles", 3, s3, ss3, 0, ds3, 0, 8);
  copy_case("copy of one dim", 1, s6, ss6, 0, ds6, 0, 4);
  copy_case("empty copy", 3, s7, ss7, 0, ds7, 0, 4);
}

/* ---- The pool --------------------------------------------------------- */

static pthread_t main_thread;
static int ran[64];

static void spin_us(long us) {
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  do
    clock_gettime(CLOCK_MONOTONIC, &t1);
  while ((t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000 <
         us);
}

/* Waits (sleeping) until *flag is set, for at most 10 s. */
static void wait_for(const int *flag) {
  struct timespec ms1 = {0, 1000000};
  int i;
  for (i = 0; i < 10000 && !__atomic_load_n(flag, __ATOMIC_ACQUIRE); ++i)
    nanosleep(&ms1, NULL);
}

/* `fail_on` 1: chunks on the calling thread fail, 2: chunks on workers
 * fail; either way a chunk first waits until both sides have taken one, so
 * that on a loaded machine, where a worker may join late or not at all,
 * the failing side does run a chunk and the other side completes one (the
 * worker's count in onnxc_rt_pool_stats). 0: chunks spin 20 us. */
static int fail_on, caller_took, worker_took;
static void task(void *arg, int64_t i) {
  int on_caller = pthread_equal(pthread_self(), main_thread);
  (void)arg;
  __atomic_store_n(on_caller ? &caller_took : &worker_took, 1,
                   __ATOMIC_RELEASE);
  if (fail_on)
    wait_for(on_caller ? &worker_took : &caller_took);
  if ((fail_on == 1 && on_caller) || (fail_on == 2 && !on_caller))
    onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY, "chunk failed");
  if (!fail_on)
    spin_us(20);
  __atomic_fetch_add(&ran[i], 1, __ATOMIC_RELAXED);
}

static void region(void *arg) {
  (void)arg;
  onnxc_rt_parallel_for(64, 2, task, NULL);
}

static void check_failures(void) {
  int mode, i, all_once;
  char msg[64];
  main_thread = pthread_self();
  for (mode = 1; mode <= 2; ++mode) {
    int32_t code;
    char what[64];
    sprintf(what, "failure on the %s", mode == 1 ? "caller" : "worker");
    fail_on = mode;
    caller_took = worker_took = 0;
    memset(msg, 0, sizeof msg);
    code = onnxc_rt_try(region, NULL, msg, sizeof msg);
    check(code == ONNXC_ERROR_OUT_OF_MEMORY && strcmp(msg, "chunk failed") == 0,
          what, msg);
    /* The pool still works: a region runs every chunk once. */
    fail_on = 0;
    memset(ran, 0, sizeof ran);
    code = onnxc_rt_try(region, NULL, msg, sizeof msg);
    for (i = 0, all_once = 1; i < 64; ++i)
      all_once &= ran[i] == 1;
    check(code == 0 && all_once, what, "the next region did not run cleanly");
  }
}

/* ---- A model's call, its arena and the pool ---------------------------- */

/* Inside onnxc_run_model, chunks on the caller and on a worker allocate
 * blocks they never free (a kernel's scratch when another part fails) and
 * one side fails: the call returns the failure, and the runtime frees every
 * block of the call, the workers' too (the ASan build of this test finds a
 * leak otherwise; the TSan build races on the arena otherwise). With a
 * memory limit, the workers' allocations count against the call's. */
static int arena_fail_on;
static void arena_task(void *arg, int64_t i) {
  int on_caller = pthread_equal(pthread_self(), main_thread);
  (void)arg;
  (void)i;
  __atomic_store_n(on_caller ? &caller_took : &worker_took, 1,
                   __ATOMIC_RELEASE);
  (void)onnxc_rt_alloc(4096, "node 'p' (Part)");
  if (arena_fail_on)
    wait_for(on_caller ? &worker_took : &caller_took);
  if ((arena_fail_on == 1 && on_caller) || (arena_fail_on == 2 && !on_caller))
    onnxc_rt_fail(ONNXC_ERROR_RUNTIME, "part failed");
}

static void arena_invoke(void **args) {
  (void)args;
  onnxc_rt_parallel_for(64, 2, arena_task, NULL);
}

static const int64_t one_dim[] = {1};
static const onnxc_value_info arena_in[] = {
    {"x", ONNXC_DTYPE_FLOAT, 1, one_dim, NULL, 0, 0, 0}};
static const onnxc_model_info arena_info = {"arena", 1, 0, arena_in,
                                            NULL, 0, NULL};

static void check_arena(void) {
  float x[1] = {0};
  onnxc_tensor in;
  int mode;
  memset(&in, 0, sizeof in);
  in.data = x;
  in.rank = 1;
  in.shape[0] = 1;
  in.dtype = ONNXC_DTYPE_FLOAT;
  main_thread = pthread_self();
  set_threads(2);
  for (mode = 1; mode <= 2; ++mode) {
    onnxc_status s;
    arena_fail_on = mode;
    caller_took = worker_took = 0;
    s = onnxc_run_model(&arena_info, arena_invoke, &in, 1, NULL, 0);
    check(s == ONNXC_ERROR_RUNTIME &&
              strcmp(onnxc_last_error(), "part failed") == 0,
          mode == 1 ? "arena: failure on the caller"
                    : "arena: failure on the worker",
          onnxc_last_error());
  }
  /* 64 parts of 4 KiB under a limit of 16 KiB: some part, on either
   * thread, fails the call; then a call without a limit runs. */
  arena_fail_on = 0;
  onnxc_set_memory_limit(16 << 10);
  check(onnxc_run_model(&arena_info, arena_invoke, &in, 1, NULL, 0) ==
            ONNXC_ERROR_OUT_OF_MEMORY &&
            strstr(onnxc_last_error(), "node 'p' (Part): out of memory") ==
                onnxc_last_error(),
        "arena: memory limit", onnxc_last_error());
  onnxc_set_memory_limit(0);
  check(onnxc_run_model(&arena_info, arena_invoke, &in, 1, NULL, 0) ==
            ONNXC_OK,
        "arena: the next call", onnxc_last_error());
}

/* Two application threads, each its own products, at the same time. */
typedef struct caller_arg {
  float *a, *b, *ref;
  int ok;
} caller_arg;

#define CN 96
static void *caller(void *p) {
  caller_arg *ca = p;
  float *c = malloc(sizeof(float) * CN * CN);
  int r;
  ca->ok = 1;
  for (r = 0; r < 200; ++r) {
    onnxc_rt_sgemm(CN, CN, CN, ca->a, CN, 1, ca->b, CN, 1, c, CN, 1, 0);
    ca->ok &= memcmp(c, ca->ref, sizeof(float) * CN * CN) == 0;
  }
  free(c);
  return NULL;
}

static void check_callers(void) {
  caller_arg args[2];
  pthread_t th[2];
  int i;
  set_threads(2);
  for (i = 0; i < 2; ++i) {
    args[i].a = rand_buf(CN * CN);
    args[i].b = rand_buf(CN * CN);
    args[i].ref = malloc(sizeof(float) * CN * CN);
    set_threads(1);
    onnxc_rt_sgemm(CN, CN, CN, args[i].a, CN, 1, args[i].b, CN, 1,
                   args[i].ref, CN, 1, 0);
  }
  set_threads(2);
  for (i = 0; i < 2; ++i)
    pthread_create(&th[i], NULL, caller, &args[i]);
  for (i = 0; i < 2; ++i) {
    pthread_join(th[i], NULL);
    check(args[i].ok, "two callers", "a result differs");
    free(args[i].a);
    free(args[i].b);
    free(args[i].ref);
  }
}

/* After a fork, the child has no workers: its regions must not wait for
 * the parent's. */
static void check_fork(void) {
  int status = 0;
  pid_t pid;
  set_threads(2);
  fflush(stdout);
  pid = fork();
  if (pid == 0) {
    int64_t before, after, chunks;
    alarm(30); /* a deadlock fails the check instead of hanging */
    onnxc_rt_pool_stats(&before, &chunks);
    fail_on = 0;
    memset(ran, 0, sizeof ran);
    region(NULL);
    onnxc_rt_pool_stats(&after, &chunks);
    _exit(after == before + 1 && ran[0] == 1 && ran[63] == 1 ? 0 : 1);
  }
  check(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
            WEXITSTATUS(status) == 0,
        "fork", "the child's region failed");
}

/* ---- Bench ------------------------------------------------------------ */

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int cmp_double(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return a < b ? -1 : a > b;
}

/* Median time of `runs` calls of op(ctx) after 3 warm-up calls. */
static double time_median(void (*op)(void *), void *ctx, int runs) {
  double *t = malloc(sizeof(double) * (size_t)runs), med;
  int i;
  for (i = 0; i < 3; ++i)
    op(ctx);
  for (i = 0; i < runs; ++i) {
    double t0 = now();
    op(ctx);
    t[i] = now() - t0;
  }
  qsort(t, (size_t)runs, sizeof(double), cmp_double);
  med = t[runs / 2];
  free(t);
  return med;
}

typedef struct bench_gemm_ctx {
  long m, n, k;
  float *a, *b, *c;
} bench_gemm_ctx;

static void bench_gemm_op(void *p) {
  bench_gemm_ctx *x = p;
  onnxc_rt_sgemm(x->m, x->n, x->k, x->a, x->k, 1, x->b, 0, 0, x->c, x->n, 1,
                 ONNXC_SGEMM_B_PACKED);
}

typedef struct bench_conv_ctx {
  onnxc_conv2d_params q;
  float *x, *w, *y;
} bench_conv_ctx;

static void bench_conv_op(void *p) {
  bench_conv_ctx *x = p;
  onnxc_rt_sconv2d(&x->q, x->x, x->w, x->y);
}

static int bench(int argc, char **argv) {
  double flop, t1, tn;
  int64_t regions0, chunks0, regions, chunks;
  int runs, threads;
  void (*op)(void *);
  void *ctx;
  bench_gemm_ctx g;
  bench_conv_ctx c;
  if (argc == 8 && strcmp(argv[2], "gemm") == 0) {
    g.m = atol(argv[3]);
    g.n = atol(argv[4]);
    g.k = atol(argv[5]);
    runs = atoi(argv[6]);
    threads = atoi(argv[7]);
    g.a = rand_buf(g.m * g.k);
    g.b = rand_buf(((g.n + NR - 1) / NR) * NR * g.k);
    g.c = rand_buf(g.m * g.n);
    flop = 2.0 * g.m * g.n * g.k;
    op = bench_gemm_op;
    ctx = &g;
    printf("sgemm %ldx%ldx%ld (packed B)", g.m, g.n, g.k);
  } else if (argc == 10 && strcmp(argv[2], "conv") == 0) {
    long cin = atol(argv[3]), m = atol(argv[4]), hw = atol(argv[5]);
    long khw = atol(argv[6]), s = atol(argv[7]);
    long in = (hw - 1) * s + khw, kdim = cin * khw * khw;
    runs = atoi(argv[8]);
    threads = atoi(argv[9]);
    memset(&c.q, 0, sizeof c.q);
    c.q.batch = c.q.groups = 1;
    c.q.out_channels = m;
    c.q.in_channels = cin;
    c.q.out_h = c.q.out_w = hw;
    c.q.kernel_h = c.q.kernel_w = khw;
    c.q.stride_h = c.q.stride_w = s;
    c.q.dilation_h = c.q.dilation_w = 1;
    c.q.x_strides[4] = 1;
    c.q.x_strides[3] = in;
    c.q.x_strides[2] = in * in;
    c.q.x_strides[1] = c.q.x_strides[0] = cin * in * in;
    c.q.y_strides[4] = 1;
    c.q.y_strides[3] = hw;
    c.q.y_strides[2] = hw * hw;
    c.q.y_strides[1] = c.q.y_strides[0] = m * hw * hw;
    c.q.flags = ONNXC_CONV_W_PACKED | ONNXC_CONV_BIAS;
    c.x = rand_buf(cin * in * in);
    c.w = rand_buf(((m + NR - 1) / NR) * NR * kdim);
    c.y = rand_buf(m * hw * hw);
    c.q.bias = rand_buf(m);
    flop = 2.0 * m * hw * hw * kdim;
    op = bench_conv_op;
    ctx = &c;
    printf("conv %ld->%ld %ldx%ld k%ld s%ld", cin, m, hw, hw, khw, s);
  } else {
    fprintf(stderr, "usage: see the header of parallel_test.c\n");
    return 2;
  }
  set_threads(1);
  t1 = time_median(op, ctx, runs);
  set_threads(threads);
  onnxc_rt_pool_stats(&regions0, &chunks0);
  tn = time_median(op, ctx, runs);
  onnxc_rt_pool_stats(&regions, &chunks);
  printf(" %.2f MFLOP: 1 thread %.1f us, %d threads %.1f us (x%.2f); "
         "%.1f chunks per call on workers\n",
         flop * 1e-6, t1 * 1e6, threads, tn * 1e6, t1 / tn,
         (double)(chunks - chunks0) / (runs + 3));
  return 0;
}

int main(int argc, char **argv) {
  int64_t regions, worker_chunks;
  if (argc >= 2 && strcmp(argv[1], "threads") == 0) {
    printf("threads: %d\n", (int)onnxc_get_num_threads());
    return 0;
  }
  if (argc >= 2 && strcmp(argv[1], "bench") == 0)
    return bench(argc, argv);

  /* The thread count API. */
  check(onnxc_set_num_threads(-1) == ONNXC_ERROR_INVALID_ARGUMENT,
        "onnxc_set_num_threads(-1)", "accepted");
  set_threads(0);
  check(onnxc_get_num_threads() == (int32_t)sysconf(_SC_NPROCESSORS_ONLN) ||
            onnxc_get_num_threads() == 64,
        "onnxc_set_num_threads(0)", "not the online CPUs");
  set_threads(1000);
  check(onnxc_get_num_threads() == 64, "onnxc_set_num_threads(1000)",
        "not capped at 64");

  /* Products: by columns (unpacked, packed, transposed A, accumulating),
   * by rows (narrow C), a single row, a single column, empty K. */
  gemm_case(37, 301, 67, 0, 0, 0, NO_EP);
  gemm_case(37, 301, 67, 0, 1, 0, NO_EP);
  gemm_case(45, 200, 300, 1, 0, 1, NO_EP);
  gemm_case(19, 97, 5, 0, 1, 1, NO_EP);
  gemm_case(203, 20, 33, 0, 0, 0, NO_EP);
  gemm_case(203, 20, 33, 1, 1, 1, NO_EP);
  gemm_case(1, 1000, 50, 0, 0, 0, NO_EP);
  gemm_case(1, 1000, 50, 0, 1, 0, NO_EP);
  gemm_case(500, 1, 40, 0, 0, 0, NO_EP);
  gemm_case(64, 64, 0, 0, 0, 0, NO_EP);
  /* Epilogues: a column bias follows a split by columns, a row bias one by
   * rows; the clamp of every part. */
  gemm_case(37, 301, 67, 0, 1, 0, BIAS_COL_CLAMP);
  gemm_case(29, 150, 300, 1, 0, 1, BIAS_COL_CLAMP);
  gemm_case(203, 20, 33, 0, 1, 0, BIAS_ROW);
  gemm_case(203, 20, 33, 0, 0, 0, BIAS_COL_CLAMP);
  gemm_case(1, 1000, 50, 0, 1, 0, BIAS_COL_CLAMP);
  gemm_case(3, 1000, 70, 0, 0, 1, NO_EP);
  gemm_case(2, 700, 70, 1, 1, 0, BIAS_ROW);
  gemm_case(1000, 3, 70, 0, 0, 0, BIAS_COL_CLAMP);
  gemm_case(1000, 2, 70, 1, 0, 0, BIAS_ROW);
  /* Few rows over a packed B of 1 MiB and more (k n >= 256 Ki floats): the
   * gemv kernels read several panels at once, but a part of 128 columns
   * has a smaller B: both must sum each column the same way. */
  gemm_case(1, 300, 900, 0, 1, 0, NO_EP);
  gemm_case(2, 512, 784, 0, 1, 0, BIAS_COL_CLAMP);
  gemm_case(3, 1000, 300, 1, 1, 1, NO_EP);
  gemm_case(4, 1000, 300, 0, 1, 0, NO_EP);
  /* Batches: split by products, one taller product, fewer products than
   * threads. */
  batched_case(7, 13, 40, 9, 0, 0, NO_EP);
  batched_case(20, 5, 17, 6, 0, 2, NO_EP);
  batched_case(5, 9, 70, 11, 1, 3, NO_EP);
  batched_case(4, 11, 33, 20, 1, 0, NO_EP);
  batched_case(1, 30, 130, 17, 0, 0, NO_EP);
  batched_case(2, 30, 130, 17, 0, 5, NO_EP);
  batched_case(6, 9, 70, 11, 1, 0, BIAS_ROW);
  batched_case(6, 9, 70, 11, 1, 0, BIAS_COL_CLAMP);
  batched_case(20, 5, 17, 6, 0, 2, BIAS_COL_CLAMP);
  /* Convolutions: by images, by groups (depthwise 3 x 3 stride 1 and 2,
   * grouped, packed grouped), by channel panels (7 x 7 map, 5 panels), by
   * rows (1 x 1 packed, 3 x 3 packed, unpacked im2col, strided, dilated,
   * non-flat Y). */
  conv_case(3, 1, 20, 5, 9, 9, 3, 3, 1, 1, 1, 1, 0, -1);
  conv_case(1, 37, 1, 1, 19, 23, 3, 3, 1, 1, 0, 3, 0, -1);
  conv_case(1, 37, 1, 1, 19, 23, 3, 3, 2, 1, 0, 1, 0, -1);
  conv_case(2, 4, 6, 3, 10, 11, 3, 3, 1, 1, 0, 1, 0, -1);
  conv_case(1, 3, 40, 8, 10, 10, 3, 3, 1, 1, 1, 3, 0, -1);
  conv_case(1, 1, 150, 16, 9, 9, 3, 3, 1, 1, 1, 3, 0, -1);
  conv_case(1, 1, 150, 16, 7, 7, 1, 1, 1, 1, 1, 1, 0, -1);
  conv_case(1, 1, 40, 24, 30, 29, 1, 1, 1, 1, 1, 3, 0, -1);
  conv_case(1, 1, 33, 9, 31, 27, 3, 3, 1, 1, 1, 1, 0, -1);
  conv_case(1, 1, 33, 9, 31, 27, 3, 3, 1, 1, 0, 2, 0, -1);
  conv_case(1, 1, 17, 4, 33, 33, 5, 5, 2, 1, 1, 1, 0, -1);
  conv_case(1, 1, 17, 4, 25, 25, 3, 3, 1, 2, 0, 0, 0, -1);
  /* Unpacked weights that the runtime packs (once, before the split): a
   * weight gradient's shape by images, a training step's convolution by
   * rows (padded); unpacked weights on the im2col path (10 channel
   * panels against 8 position panels) by channels. */
  conv_case(16, 1, 32, 8, 10, 10, 8, 8, 1, 1, 0, 0, 0, -1);
  conv_case(1, 1, 33, 9, 31, 27, 3, 3, 1, 1, 0, 1, 0, 1);
  conv_case(1, 1, 300, 4, 17, 17, 3, 3, 1, 1, 0, 0, 0, -1);
  conv_case(1, 1, 8, 3, 12, 12, 3, 3, 1, 1, 0, 1, 4, -1);
  conv_case(1, 2, 1, 1, 15, 15, 3, 3, 2, 1, 0, 3, 5, -1);
  /* Unpadded inputs (ONNXC_CONV_PADDED), padded once before the split
   * for the GEMM paths: by rows, by groups (depthwise), by images, by
   * channel panels. One input channel (the direct kernel, which reads
   * around the padding): by rows, every band with its own padding above
   * (none, or negative, past the first). */
  conv_case(1, 1, 16, 1, 40, 37, 3, 3, 1, 1, 0, 3, 0, 1);
  conv_case(1, 1, 8, 1, 41, 39, 3, 3, 2, 1, 0, 1, 0, 2);
  conv_case(1, 1, 33, 9, 31, 27, 3, 3, 1, 1, 1, 1, 0, 1);
  conv_case(1, 1, 33, 9, 31, 27, 3, 3, 1, 1, 0, 3, 0, 1);
  conv_case(1, 1, 17, 4, 33, 33, 5, 5, 2, 1, 1, 1, 0, 2);
  conv_case(1, 1, 17, 4, 26, 25, 3, 3, 2, 2, 1, 3, 0, 3);
  conv_case(1, 1, 40, 24, 30, 29, 1, 1, 1, 1, 1, 3, 0, 0);
  conv_case(1, 37, 1, 1, 19, 23, 3, 3, 1, 1, 0, 3, 0, 1);
  conv_case(1, 37, 1, 1, 19, 23, 3, 3, 2, 1, 0, 1, 0, 1);
  conv_case(3, 1, 20, 5, 9, 9, 3, 3, 1, 1, 1, 1, 0, 1);
  conv_case(1, 1, 150, 16, 7, 7, 3, 3, 1, 1, 1, 3, 0, 1);
  conv_case(1, 1, 8, 3, 12, 12, 3, 3, 1, 1, 0, 1, 4, 2);
  /* Groups of at most 8 channels with packed weights, unpadded inputs:
   * the depthwise path, which reads around the padding (no copy before
   * the split), by groups; stride 1 and 2. */
  conv_case(1, 8, 4, 4, 20, 21, 3, 3, 1, 1, 1, 1, 0, 1);
  conv_case(1, 8, 8, 8, 19, 22, 3, 3, 2, 1, 1, 3, 0, 1);
  /* Weights in ONNXC_CONV_W_CBLOCK order: the input copied in channel
   * blocks once before the split, by rows (one panel) and by channel
   * panels (a 7 x 7 map); unpadded, read over the planes. */
  conv_case(1, 1, 48, 32, 31, 27, 3, 3, 1, 1, 2, 3, 0, 1);
  conv_case(1, 1, 150, 32, 7, 7, 3, 3, 1, 1, 2, 3, 0, 1);
  conv_case(2, 1, 40, 16, 12, 12, 3, 3, 2, 1, 2, 1, 0, 1);
  conv_case(1, 1, 33, 32, 31, 27, 3, 3, 1, 1, 2, 1, 0, -1);

  copy_cases();

  check_failures();
  check_arena();
  check_callers();
  check_fork();

  /* The workers did take part: at least in check_failures, which waits
   * for them (on a loaded machine every other region may well end before
   * the worker joins). */
  onnxc_rt_pool_stats(&regions, &worker_chunks);
  check(regions > 0 && worker_chunks > 0, "pool",
        "no region ran chunks on a worker");
  printf("pool: %s\n", regions > 0 && worker_chunks > 0
                           ? "workers ran chunks"
                           : "workers ran no chunk");
  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}
