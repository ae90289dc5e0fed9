/*===- kept.c - Weights derived from a model's constants, kept -----------===*
 *
 * The runtime derives data from a call's constant packed weights (the
 * compiler's globals: ONNXC_CONV_W_CONST convolution weights, a GEMM's
 * ONNXC_SGEMM_B_PACKED B, the int8 kernels' ONNXC_Q_B_PACKED B and W) on
 * the first call and keeps it for the library's lifetime:
 * - Winograd's transformed weights (winograd.c);
 * - the 1 x 1 path's micro-panels (conv.c);
 * - a plain copy of large weights in 2 MiB pages (onnxc_rt_kept_copy,
 *   onnxc_rt_kept_bytes; parallel.c, kernels/qgemm.c, kernels/qconv.c).
 * One cache serves them all (onnxc_rt_kept_weights), keyed by the
 * weights' address, what was derived and the shape, and checked against a
 * signature of the values. C99, libc and pthreads.
 *===----------------------------------------------------------------------===*/

/* posix_memalign and madvise in alloc.c; here pthread_atfork. */
#define _DEFAULT_SOURCE

#include "internal.h"
#include "kernels/dispatch.h"

#include "onnxc/runtime_abi.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NR ONNXC_SGEMM_PANEL

/* What the runtime derives from a call's constant packed weights
 * (ONNXC_CONV_W_CONST): Winograd's transforms (kind: the variant's tile,
 * 4 or 2) and the 1 x 1 path's micro-panels (conv.c,
 * ONNXC_KEPT_MICRO_PANELS). Made on the first call and kept for the
 * library's lifetime (onnxc_rt_kept_weights, internal.h). */
typedef struct kept_weights {
  const float *w;       /* the packed weights (the key) */
  uint64_t sig;         /* and a signature of their values */
  int kind;             /* what was derived */
  i64 groups, c, m;     /* groups, input and output channels */
  float *u;             /* the derived weights (onnxc_rt_malloc_large) */
} kept_weights;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

/* A fork while another thread holds the lock leaves the child's copy
 * locked forever: the lock is taken around fork, then released on both
 * sides. */
static void lock_cache(void) { pthread_mutex_lock(&cache_lock); }
static void unlock_cache(void) { pthread_mutex_unlock(&cache_lock); }
static void register_atfork(void) {
  pthread_atfork(lock_cache, unlock_cache, unlock_cache);
}
static kept_weights *cache;
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

/* A signature of the n floats at w: their first and last 32 values (a
 * check that the address still holds the weights it held, should a library
 * that shares this runtime be unloaded and another be loaded at its
 * address). Computed on every call, over weights that are otherwise never
 * read again (cold, in pages the TLB no longer maps): 4 cache lines. 256
 * values spread over them cost 256 misses a call, 9-14% of ResNet-18's
 * run. */
static uint64_t signature(const float *w, i64 n) {
  i64 i, head = n < 32 ? n : 32, tail = n - 32 > head ? n - 32 : head;
  uint64_t h = 1469598103934665603ull ^ (uint64_t)n;
  for (i = 0; i < n; i = i + 1 == head ? tail : i + 1) {
    uint32_t bits;
    memcpy(&bits, w + i, sizeof bits);
    h = (h ^ bits) * 1099511628211ull;
  }
  return h;
}

const float *onnxc_rt_kept_weights(const onnxc_conv2d_params *q,
                                   const float *w, int64_t n, int kind,
                                   onnxc_rt_derive_fn derive,
                                   const void *arg) {
  float *u = NULL;
  uint64_t sig = signature(w, n);
  i64 i;
  pthread_once(&atfork_once, register_atfork);
  pthread_mutex_lock(&cache_lock);
  for (i = 0; i < cache_len; ++i)
    if (cache[i].w == w && cache[i].kind == kind &&
        cache[i].groups == q->groups && cache[i].c == q->in_channels &&
        cache[i].m == q->out_channels) {
      if (cache[i].sig == sig) {
        u = cache[i].u;
        break;
      }
      /* Other weights at this address: derived again, in place of the
       * entry. */
      free(cache[i].u);
      cache[i] = cache[--cache_len];
      break;
    }
  if (!u) {
    if (cache_len == cache_cap) {
      i64 cap = cache_cap ? 2 * cache_cap : 16;
      kept_weights *grown = realloc(cache, sizeof(kept_weights) * (size_t)cap);
      if (grown) {
        cache = grown;
        cache_cap = cap;
      }
    }
    if (cache_len < cache_cap && (u = derive(q, w, arg)) != NULL) {
      kept_weights *e = &cache[cache_len++];
      e->w = w;
      e->sig = sig;
      e->kind = kind;
      e->groups = q->groups;
      e->c = q->in_channels;
      e->m = q->out_channels;
      e->u = u;
    }
  }
  pthread_mutex_unlock(&cache_lock);
  return u;
}

/* ---- Copies of constant weights in the runtime's own pages ------------ */

/* The compiler's packed constant weights live in the library's read-only
 * pages, mapped from the page cache in 4 KiB pages wherever the kernel
 * placed the file. Large ones are copied once into 2 MiB pages
 * (onnxc_rt_malloc_large) and kept: ViT-Tiny and the int8 ResNet-18s ran
 * 18% faster, ResNet-18 6% (docs/performance.md, eighteenth session).
 * ONNXC_KEEP_WEIGHTS=0 turns this off. */
#define KEEP_WEIGHTS_MIN ((int64_t)256 << 10)

static int keep_enabled(void) {
  static int on = -1;
  return onnxc_rt_env_on("ONNXC_KEEP_WEIGHTS", &on);
}

static float *copy_weights(const onnxc_conv2d_params *q, const float *wp,
                           const void *arg) {
  size_t bytes = *(const size_t *)arg;
  float *u = onnxc_rt_malloc_large(bytes);
  (void)q;
  if (u)
    memcpy(u, wp, bytes);
  return u;
}

const void *onnxc_rt_kept_bytes(const void *w, size_t bytes) {
  onnxc_conv2d_params key;
  const float *u;
  if ((int64_t)bytes < KEEP_WEIGHTS_MIN || !keep_enabled())
    return w;
  /* Keyed by the address and the size (as a "convolution" no call has). */
  memset(&key, 0, sizeof key);
  key.groups = 1;
  key.in_channels = (i64)bytes;
  u = onnxc_rt_kept_weights(&key, (const float *)w, (i64)(bytes / 4),
                            ONNXC_KEPT_COPY, copy_weights, &bytes);
  return u ? (const void *)u : w;
}

const float *onnxc_rt_kept_copy(const onnxc_conv2d_params *q, const float *w) {
  const int both = ONNXC_CONV_W_CONST | ONNXC_CONV_W_PACKED;
  i64 panels = (q->out_channels + NR - 1) / NR;
  i64 n = q->groups * panels * q->in_channels * q->kernel_h * q->kernel_w * NR;
  if ((q->flags & both) != both || n <= 0)
    return w;
  return (const float *)onnxc_rt_kept_bytes(w, sizeof(float) * (size_t)n);
}

