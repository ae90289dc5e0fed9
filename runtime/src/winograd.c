/*===- winograd.c - 3 x 3 convolutions as Winograd F(4x4, 3x3) ------------===*
 *
 * A stride-1, undilated 3 x 3 convolution of one group computes each 4 x 4
 * block of outputs (a tile) from the 6 x 6 input patch around it in three
 * steps (Lavin and Gray, 2016):
 *   1. the input transform V = B^T d B of every tile and input channel
 *      (the tier's wino_input, 16 channels per call, over the padded input
 *      in channel blocks that the direct path copies too);
 *   2. for each of the 36 points xi, the product M_xi[tile, m] =
 *      sum over c of V_xi[tile, c] U_xi[c, m], through the packed GEMM
 *      (gemm.c and the tier's sgemm tile), U = G g G^T the weights'
 *      transform, computed once per weight tensor and kept;
 *   3. the output transform A^T M A, the bias, the sum with Y, the clamp
 *      (the tier's wino_output), stored into Y.
 * The products take 36 multiplies per 16 outputs and input channel where
 * the direct convolution takes 144: ResNet-18's 3 x 3 layers of 56 x 56
 * to 14 x 14 run 2-2.6 times faster (docs/performance.md).
 *
 * The sums are those of the convolution in another arithmetic: results
 * differ from the direct path's by rounding, a few units in the 5th to
 * 6th significant digit for unit-scale data (F(4x4, 3x3)'s error grows
 * with its points 2 and -2; runtime/test/winograd_test.c bounds it). The
 * same call gives the same bits on any number of threads and every tier
 * gives results within that bound of the exact ones.
 *
 * Taken (onnxc_rt_winograd_takes) for compile-time packed weights only
 * (ONNXC_CONV_W_CONST: constants, whose address identifies them for the
 * model library's lifetime; a signature of their values is checked too),
 * input and output channels multiples of 16, at least 32 output channels
 * (the products' panels are 32 wide: U-Net's 16-channel layers at 256 x
 * 256 ran 15-45% slower than the direct path with half of each empty),
 * an output of at least 16 tiles (ResNet's 7 x 7 maps have 4: their
 * transformed weights, 4 times the size, would be read for 4 tiles),
 * no fused activation other than a clamp. ONNXC_WINOGRAD=0 turns it off
 * (tests and A/B runs).
 *===----------------------------------------------------------------------===*/

#include "gemm.h"

#include "onnxc/runtime_abi.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define XI 36   /* points: the 6 x 6 transform */
#define TILE 4  /* outputs per tile side */
#define CB ONNXC_CONV_CBLOCK

/* ---- Transformed weights, kept per weight tensor ---------------------- */

typedef struct wino_weights {
  const float *w;  /* the packed weights (the key) */
  uint64_t sig;    /* and a signature of their values */
  i64 c, m;        /* input and output channels */
  float *u;        /* XI x ceil(m / NR) panels of c x NR: U_xi packed */
} wino_weights;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static wino_weights *cache;
static i64 cache_len, cache_cap;

/* The runtime is linked into each model library: the cache goes with it. */
__attribute__((destructor)) static void free_cache(void) {
  i64 i;
  for (i = 0; i < cache_len; ++i)
    free(cache[i].u);
  free(cache);
  cache = NULL;
  cache_len = cache_cap = 0;
}

/* U_xi = (G g G^T)_xi for every (c, m), packed as XI groups of GEMM
 * panels (panel j row c column col holds U_xi[c, j NR + col], zero past
 * m). In double, rounded once. G = [[1/4, 0, 0], [-1/6, -1/6, -1/6],
 * [-1/6, 1/6, -1/6], [1/24, 1/12, 1/6], [1/24, -1/12, 1/6], [0, 0, 1]]. */
static float *transform_weights(const onnxc_conv2d_params *q, const float *w) {
  static const double G[6][3] = {{0.25, 0, 0},
                                 {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                                 {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                                 {1.0 / 24, 1.0 / 12, 1.0 / 6},
                                 {1.0 / 24, -1.0 / 12, 1.0 / 6},
                                 {0, 0, 1}};
  i64 c = q->in_channels, m = q->out_channels;
  i64 panels = (m + NR - 1) / NR, xi_stride = panels * c * NR;
  float *plain = malloc(sizeof(float) * (size_t)(c * m * 9));
  float *u = calloc((size_t)(XI * xi_stride), sizeof(float));
  i64 ci, mi;
  if (!plain || !u) {
    free(plain);
    free(u);
    return NULL;
  }
  onnxc_rt_sconv2d_unpack_weights(q, w, plain);
  for (mi = 0; mi < m; ++mi)
    for (ci = 0; ci < c; ++ci) {
      const float *g = plain + (mi * c + ci) * 9;
      double t[6][3];
      int a, b, k;
      for (a = 0; a < 6; ++a)
        for (b = 0; b < 3; ++b)
          t[a][b] = G[a][0] * g[b] + G[a][1] * g[3 + b] + G[a][2] * g[6 + b];
      for (a = 0; a < 6; ++a)
        for (b = 0; b < 6; ++b) {
          double v = 0;
          for (k = 0; k < 3; ++k)
            v += t[a][k] * G[b][k];
          u[(a * 6 + b) * xi_stride + ((mi / NR) * c + ci) * NR + mi % NR] =
              (float)v;
        }
    }
  free(plain);
  return u;
}

/* A signature of packed weights w: 256 of their values spread over them
 * (a check that the address still holds the weights it held, should a
 * library that shares this runtime be unloaded and another be loaded at
 * its address). */
static uint64_t signature(const onnxc_conv2d_params *q, const float *w) {
  i64 panels = (q->out_channels + NR - 1) / NR;
  i64 n = panels * q->in_channels * 9 * NR, i, step = n / 256 > 0 ? n / 256 : 1;
  uint64_t h = 1469598103934665603ull;
  for (i = 0; i < n; i += step) {
    uint32_t bits;
    memcpy(&bits, w + i, sizeof bits);
    h = (h ^ bits) * 1099511628211ull;
  }
  return h;
}

/* The transformed weights of q's packed weights w, computed on the first
 * call (under the lock: concurrent first calls compute them once), or
 * NULL when there is no memory for them (the caller takes the direct
 * path). */
static const float *weights_for(const onnxc_conv2d_params *q, const float *w) {
  float *u = NULL;
  uint64_t sig = signature(q, w);
  i64 i;
  pthread_mutex_lock(&cache_lock);
  for (i = 0; i < cache_len; ++i)
    if (cache[i].w == w && cache[i].c == q->in_channels &&
        cache[i].m == q->out_channels) {
      if (cache[i].sig == sig) {
        u = cache[i].u;
        break;
      }
      /* Other weights at this address: transformed again, in place of
       * the entry. */
      free(cache[i].u);
      cache[i] = cache[--cache_len];
      break;
    }
  if (!u) {
    if (cache_len == cache_cap) {
      i64 cap = cache_cap ? 2 * cache_cap : 16;
      wino_weights *grown = realloc(cache, sizeof(wino_weights) * (size_t)cap);
      if (grown) {
        cache = grown;
        cache_cap = cap;
      }
    }
    if (cache_len < cache_cap && (u = transform_weights(q, w)) != NULL) {
      cache[cache_len].w = w;
      cache[cache_len].sig = sig;
      cache[cache_len].c = q->in_channels;
      cache[cache_len].m = q->out_channels;
      cache[cache_len].u = u;
      ++cache_len;
    }
  }
  pthread_mutex_unlock(&cache_lock);
  return u;
}

/* ---- The call ----------------------------------------------------------- */

static int enabled(void) {
  static int on = -1;
  int v = __atomic_load_n(&on, __ATOMIC_RELAXED);
  if (v < 0) {
    const char *env = getenv("ONNXC_WINOGRAD");
    v = !(env && env[0] == '0' && env[1] == '\0');
    __atomic_store_n(&on, v, __ATOMIC_RELAXED);
  }
  return v;
}

static i64 tiles_of(const onnxc_conv2d_params *q) {
  return q->batch * ((q->out_h + TILE - 1) / TILE) *
         ((q->out_w + TILE - 1) / TILE);
}

int onnxc_rt_winograd_takes(const onnxc_conv2d_params *q) {
  int64_t act = q->flags & ONNXC_CONV_ACT_MASK;
  return enabled() && (q->flags & ONNXC_CONV_W_PACKED) &&
         (q->flags & ONNXC_CONV_W_CONST) &&
         !(q->flags & ONNXC_CONV_X_CBLOCK) && act == 0 && q->groups == 1 &&
         q->kernel_h == 3 && q->kernel_w == 3 && q->stride_h == 1 &&
         q->stride_w == 1 && q->dilation_h == 1 && q->dilation_w == 1 &&
         q->in_channels % CB == 0 && q->out_channels % CB == 0 &&
         q->out_channels >= 2 * CB &&
         q->batch > 0 && q->out_h > 0 && q->out_w > 0 &&
         q->y_strides[4] == 1 && tiles_of(q) >= 16;
}

typedef struct wino_job {
  const onnxc_kernels *kt;
  const onnxc_conv2d_params *q; /* the call */
  const float *xp;              /* its input padded, in channel blocks */
  i64 xbs, xrs;                 /* the copy's block and row strides */
  const float *u;               /* transformed weights */
  float *y;
  i64 th, tw, tiles, chunk;     /* tiles per column, row, in all; per chunk */
  i64 mparts, mstep;            /* output channels split in parts of mstep */
} wino_job;

/* Part `chunk` of the call: tiles [t0, t0 + nt) and output channels [m0,
 * m0 + mw): input transforms, the XI products, the output transforms. V and M in scratch, a tile's points together (what its
 * transforms read or write is contiguous; the products read and write
 * rows XI c and XI mw apart): V_xi[t, c] at v + (t XI + xi) c, M_xi[t, m]
 * at mm + (t XI + xi) mw + m - m0. */
static void run_chunk(void *arg, int64_t chunk) {
  const wino_job *j = arg;
  const onnxc_conv2d_params *q = j->q;
  const onnxc_kernels *kt = j->kt;
  i64 c = q->in_channels, m = q->out_channels;
  i64 tc = chunk / j->mparts, m0 = (chunk % j->mparts) * j->mstep;
  i64 mw = min64(j->mstep, m - m0);
  i64 t0 = tc * j->chunk, nt = min64(j->chunk, j->tiles - t0);
  i64 per_image = j->th * j->tw, panels = (m + NR - 1) / NR;
  i64 t, cb, xi, mb;
  void *raw;
  float *v = onnxc_rt_gemm_alloc_panels(XI * nt * (c + mw), &raw);
  float *mm = v + XI * nt * c;
  for (t = 0; t < nt; ++t) {
    i64 tt = t0 + t, n = tt / per_image, r = tt % per_image;
    i64 oy = (r / j->tw) * TILE, ox = (r % j->tw) * TILE;
    for (cb = 0; cb < c / CB; ++cb)
      kt->wino_input(j->xp + (n * (c / CB) + cb) * j->xbs + oy * j->xrs +
                         ox * CB,
                     j->xrs, v + t * XI * c + cb * CB, c);
  }
  for (xi = 0; xi < XI; ++xi) {
    block_args b;
    memset(&b, 0, sizeof b);
    b.m = nt;
    b.nc = mw;
    b.kc = c;
    b.a = v + xi * c;
    b.rsa = XI * c;
    b.csa = 1;
    b.bp = j->u + (xi * panels + m0 / NR) * c * NR;
    b.panel_stride = c * NR;
    b.c = mm + xi * mw;
    b.rsc = XI * mw;
    b.csc = 1;
    onnxc_rt_gemm_block(kt, &b);
  }
  for (t = 0; t < nt; ++t) {
    i64 tt = t0 + t, n = tt / per_image, r = tt % per_image;
    i64 oy = (r / j->tw) * TILE, ox = (r % j->tw) * TILE;
    int rows = (int)min64(TILE, q->out_h - oy);
    int cols = (int)min64(TILE, q->out_w - ox);
    for (mb = m0; mb < m0 + mw; mb += CB) {
      wino_store s;
      s.bias = (q->flags & ONNXC_CONV_BIAS) && q->bias ? q->bias + mb : NULL;
      s.accumulate = !(q->flags & ONNXC_CONV_BIAS);
      s.clamp = (q->flags & ONNXC_CONV_CLAMP) != 0;
      s.lo = q->clamp_lo;
      s.hi = q->clamp_hi;
      s.ycs = q->y_strides[2];
      s.yrs = q->y_strides[3];
      kt->wino_output(mm + t * XI * mw + mb - m0, mw, &s,
                      j->y + n * q->y_strides[0] + mb * q->y_strides[2] +
                          oy * q->y_strides[3] + ox,
                      rows, cols);
    }
  }
  onnxc_rt_free_scratch(raw);
}

/* V and M of a chunk within this many bytes (L2), with at least 16 tiles
 * (the GEMM's rows) and at most 64. */
#define CHUNK_BYTES (1 << 20)

static long calls;

long onnxc_rt_winograd_calls(void) {
  return __atomic_load_n(&calls, __ATOMIC_RELAXED);
}

int onnxc_rt_winograd(const onnxc_conv2d_params *q, const float *x,
                      const float *w, float *y) {
  const float *u = weights_for(q, w);
  onnxc_conv2d_params wide, padded;
  wino_job j;
  void *raw;
  i64 chunks;
  double flop;
  int threads;
  if (!u)
    return 0;
  /* The padded copy in channel blocks over whole tiles: the rows and
   * columns of an output of th x tw tiles (zeros past the input). */
  wide = *q;
  if (!(q->flags & ONNXC_CONV_PADDED)) {
    wide.flags |= ONNXC_CONV_PADDED;
    wide.pad_top = wide.pad_left = 0;
    wide.in_h = q->out_h + 2;
    wide.in_w = q->out_w + 2;
  }
  j.th = (q->out_h + TILE - 1) / TILE;
  j.tw = (q->out_w + TILE - 1) / TILE;
  wide.out_h = j.th * TILE;
  wide.out_w = j.tw * TILE;
  j.tiles = tiles_of(q);
  j.chunk = CHUNK_BYTES / (4 * XI * (q->in_channels + q->out_channels));
  j.chunk = j.chunk < 16 ? 16 : j.chunk > 64 ? 64 : j.chunk;
  chunks = (j.tiles + j.chunk - 1) / j.chunk;
  flop = 2.0 * XI * (double)j.tiles * (double)q->in_channels *
         (double)q->out_channels;
  threads = onnxc_rt_threads_for(flop);
  /* Too few chunks of tiles for the threads (a 14 x 14 map is one): the
   * output channels split too, in whole panels, each part reading its
   * panels of the transformed weights (and transforming its tiles' input
   * again). Each element's sum is the same on any split. */
  j.mparts = 1;
  if (threads > 1 && chunks < 2 * threads) {
    i64 panels = (q->out_channels + NR - 1) / NR;
    j.mparts = (2 * threads + chunks - 1) / chunks;
    j.mparts = j.mparts > panels ? panels : j.mparts;
  }
  j.mstep = ((q->out_channels + NR * j.mparts - 1) / (NR * j.mparts)) * NR;
  j.mparts = (q->out_channels + j.mstep - 1) / j.mstep;
  chunks *= j.mparts;
  j.xp = onnxc_rt_sconv2d_pad_cblock(&wide, x, &padded, &raw, threads);
  j.kt = onnxc_rt_kernels();
  j.q = q;
  j.xbs = padded.x_strides[2];
  j.xrs = padded.x_strides[3];
  j.u = u;
  j.y = y;
  onnxc_rt_parallel_for(chunks, threads, run_chunk, &j);
  onnxc_rt_free_scratch(raw);
  __atomic_add_fetch(&calls, 1, __ATOMIC_RELAXED);
  return 1;
}
