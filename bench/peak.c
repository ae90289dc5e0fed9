/* peak.c - the fp32 FMA peak of one core, measured (bench/run builds it).
 *
 * Independent chains of _mm512_fmadd_ps (zmm) or _mm256_fmadd_ps (ymm): with
 * ACC independent accumulators the FMA latency (4 cycles on current x86)
 * is hidden when ACC >= latency * FMA units; 16 covers 2 units * 4 cycles
 * twice over, and the 32 zmm registers hold them without spills. A
 * dependent chain of integer adds (1 cycle each) estimates the clock, so
 * that flop/cycle says how many 512-bit FMA units the core has (2 units:
 * 2 * 16 lanes * 2 flop = 64).
 *
 *   cc -O2 -march=native -o peak peak.c
 *   peak [SECONDS] [--cpu-time]
 *                      SECONDS (default 0.5): the time each kernel runs, in
 *                      all; --cpu-time times the loops by the thread's CPU
 *                      time instead of the wall clock (bench/train: on a
 *                      loaded machine a loop that loses its core for a
 *                      while is not slower per cycle it runs)
 *
 * prints (one line each, the bench parses them; "n/a" for zmm, and no
 * zmm flop/cycle, when the compiler was not given AVX-512; "n/a" for vnni
 * without AVX-512 VNNI):
 *   peak zmm: X GFLOP/s
 *   peak ymm: X GFLOP/s
 *   peak vnni zmm: X GOPS    (vpdpbusd: 64 int8 multiply-adds, 128 ops)
 *   clock: X GHz
 *   flop/cycle zmm: X
 *   flop/cycle ymm: X
 * Each figure is the best of 5 measurements of SECONDS / 5, taken in
 * rounds over the kernels (the best, not the median: interference only
 * slows a peak loop down).
 */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ACC 16 /* the accumulators of DECL16 */

static clockid_t g_clock = CLOCK_MONOTONIC;

static double now(void) {
  struct timespec t;
  clock_gettime(g_clock, &t);
  return t.tv_sec + t.tv_nsec * 1e-9;
}

/* volatile: the compiler must not know the multiplier and addend. */
static volatile float g_mul = 0.9999999f, g_add = 1e-7f;
static volatile float g_sink;

/* Sixteen named accumulators, not an array: at -O2 a loop over an array of
 * vectors keeps them in memory (a load and a store per FMA). */
#define DECL16(T, init)                                                        \
  T c0 = init(0), c1 = init(1), c2 = init(2), c3 = init(3), c4 = init(4),     \
    c5 = init(5), c6 = init(6), c7 = init(7), c8 = init(8), c9 = init(9),     \
    c10 = init(10), c11 = init(11), c12 = init(12), c13 = init(13),           \
    c14 = init(14), c15 = init(15)
#define STEP16(fma)                                                            \
  c0 = fma(c0, a, b); c1 = fma(c1, a, b); c2 = fma(c2, a, b);                  \
  c3 = fma(c3, a, b); c4 = fma(c4, a, b); c5 = fma(c5, a, b);                  \
  c6 = fma(c6, a, b); c7 = fma(c7, a, b); c8 = fma(c8, a, b);                  \
  c9 = fma(c9, a, b); c10 = fma(c10, a, b); c11 = fma(c11, a, b);              \
  c12 = fma(c12, a, b); c13 = fma(c13, a, b); c14 = fma(c14, a, b);            \
  c15 = fma(c15, a, b)
#define SUM16(add)                                                             \
  add(add(add(add(c0, c1), add(c2, c3)), add(add(c4, c5), add(c6, c7))),       \
      add(add(add(c8, c9), add(c10, c11)), add(add(c12, c13), add(c14, c15))))

#define Z(k) _mm512_set1_ps((float)(k))
#define Y(k) _mm256_set1_ps((float)(k))

#ifdef __AVX512F__
static void zmm(long iters) {
  __m512 a = _mm512_set1_ps(g_mul), b = _mm512_set1_ps(g_add);
  DECL16(__m512, Z);
  for (long i = 0; i < iters; ++i) {
    STEP16(_mm512_fmadd_ps);
  }
  g_sink = _mm512_reduce_add_ps(SUM16(_mm512_add_ps));
}
#endif

static void ymm(long iters) {
  __m256 a = _mm256_set1_ps(g_mul), b = _mm256_set1_ps(g_add);
  DECL16(__m256, Y);
  for (long i = 0; i < iters; ++i) {
    STEP16(_mm256_fmadd_ps);
  }
  float out[8];
  _mm256_storeu_ps(out, SUM16(_mm256_add_ps));
  g_sink = out[0];
}

#ifdef __AVX512VNNI__
/* 24 independent vpdpbusd chains (zmm0-23; sources zmm30-31), in assembly:
 * GCC keeps the intrinsic's accumulators in memory. 24 covers a latency of
 * 5 at 2 per cycle with room. */
#define VNNI_ACC 24
static void vnni(long iters) {
#define D(i) "vpdpbusd %%zmm30, %%zmm31, %%zmm" #i "\n\t"
  __asm__ volatile(
      "vpxord %%zmm30, %%zmm30, %%zmm30\n\t"
      "vpxord %%zmm31, %%zmm31, %%zmm31\n\t"
      "1:\n\t" D(0) D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10) D(11)
      D(12) D(13) D(14) D(15) D(16) D(17) D(18) D(19) D(20) D(21) D(22) D(23)
      "dec %0\n\t"
      "jnz 1b\n\t"
      : "+r"(iters)
      :
      : "cc", "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7",
        "xmm8", "xmm9", "xmm10", "xmm11", "xmm12", "xmm13", "xmm14", "xmm15",
        "xmm16", "xmm17", "xmm18", "xmm19", "xmm20", "xmm21", "xmm22", "xmm23",
        "xmm30", "xmm31");
#undef D
}
#endif

/* 100 dependent adds per iteration: 100 cycles (the loop counter runs
 * beside them). Register operands, not immediates: Golden Cove's renamer
 * folds chains of adds of an immediate (Sapphire Rapids ran 100 of them
 * in about 10 cycles, and the clock came out at 22 GHz). */
static void adds(long iters) {
  uint64_t x = 0, one = 1;
  for (long i = 0; i < iters; ++i) {
#define A10 "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t" \
            "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t" "add %1, %0\n\t" \
            "add %1, %0\n\t" "add %1, %0\n\t"
    __asm__ volatile(A10 A10 A10 A10 A10 A10 A10 A10 A10 A10 : "+r"(x) : "r"(one));
  }
  g_sink = (float)x;
}

/* One kernel to measure: its function, the units (flop or cycles) one
 * iteration does, the iterations one measurement runs, its best rate. */
struct kernel {
  void (*f)(long);
  double units;
  long iters;
  double best;
};

/* Iterations for about `seconds`: grow until a run takes >= 20 ms. */
static long calibrate(void (*f)(long), double seconds) {
  for (long iters = 1000;; iters *= 4) {
    double t0 = now();
    f(iters);
    double dt = now() - t0;
    if (dt >= 0.02)
      return (long)(iters * seconds / dt) + 1;
  }
}

int main(int argc, char **argv) {
  double seconds = argc > 1 ? atof(argv[1]) : 0.5;
  if (argc > 2 && strcmp(argv[2], "--cpu-time") == 0)
    g_clock = CLOCK_THREAD_CPUTIME_ID;
  if (!(seconds > 0) || (argc > 2 && g_clock == CLOCK_MONOTONIC) || argc > 3) {
    fprintf(stderr, "usage: peak [SECONDS] [--cpu-time]\n");
    return 2;
  }
  /* 2 flop per lane per FMA; the adds: 100 cycles per iteration. */
  struct kernel ks[] = {
    {ymm, ACC * 8 * 2.0, 0, 0},
    {adds, 100.0, 0, 0},
#ifdef __AVX512F__
    {zmm, ACC * 16 * 2.0, 0, 0},
#endif
#ifdef __AVX512VNNI__
    {vnni, VNNI_ACC * 64 * 2.0, 0, 0},
#endif
  };
  int n = sizeof ks / sizeof ks[0], tries = 5;
  for (int k = 0; k < n; ++k)
    ks[k].iters = calibrate(ks[k].f, seconds / tries);
  /* Rounds of all kernels, so that a burst of load elsewhere hits one
   * round, not every measurement of one kernel. */
  for (int t = 0; t < tries; ++t)
    for (int k = 0; k < n; ++k) {
      double t0 = now();
      ks[k].f(ks[k].iters);
      double rate = ks[k].iters * ks[k].units / (now() - t0);
      if (rate > ks[k].best)
        ks[k].best = rate;
    }
  double y = ks[0].best, hz = ks[1].best;
#ifdef __AVX512F__
  double z = ks[2].best;
  printf("peak zmm: %.1f GFLOP/s\n", z / 1e9);
#else
  printf("peak zmm: n/a\n");
#endif
  printf("peak ymm: %.1f GFLOP/s\n", y / 1e9);
#ifdef __AVX512VNNI__
  printf("peak vnni zmm: %.1f GOPS\n", ks[n - 1].best / 1e9);
#else
  printf("peak vnni zmm: n/a\n");
#endif
  printf("clock: %.2f GHz\n", hz / 1e9);
#ifdef __AVX512F__
  printf("flop/cycle zmm: %.1f\n", z / hz);
#endif
  printf("flop/cycle ymm: %.1f\n", y / hz);
  return 0;
}
