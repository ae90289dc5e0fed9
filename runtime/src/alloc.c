/*===- alloc.c - The buffer allocator of compiled models ------------------===*
 *
 * Models allocate every buffer through
 *   void *onnxc_rt_alloc(size_t size, const char *site);
 *   void _mlir_memref_to_llvm_free(void *ptr);
 * (MLIR's memref lowering with use-generic-functions; the compiler names
 * the allocating node in `site`), and the kernels their scratch through
 * _mlir_memref_to_llvm_alloc. Three jobs:
 *
 * - Accounting. onnxc_run_model opens an arena for each call (the calling
 *   thread's current arena; the pool's workers take it for the parts they
 *   run): every block allocated during the call is linked into it, with
 *   a 32-byte header before the caller's bytes (still a plain malloc block,
 *   which free() takes once the header is accounted for: see
 *   onnxc_rt_arena_owner). A check that fails inside the model longjmps
 *   out of it (onnxc_rt_fail) past the frees the model would have done:
 *   the arena frees what is left when the call ends, so that a failed call
 *   leaks nothing. Outputs handed to the caller leave the arena first.
 * - Limits. A call may hold at most onnxc_set_memory_limit()'s bytes at
 *   once (ONNXC_MEMORY_LIMIT); an allocation past the limit, or one that
 *   malloc refuses, fails the call with ONNXC_ERROR_OUT_OF_MEMORY and a
 *   message naming the node. Outside a call (no arena) a failed
 *   allocation returns NULL.
 * - Reuse within a call: a freed block of up to 4 KiB (sizes in steps of
 *   64 bytes) stays with the call for its next allocation of that size.
 * - Reuse across calls. A model frees each intermediate buffer as soon as it is dead and
 *   allocates the same sizes again on the next run; glibc returns large
 *   freed blocks to the kernel (munmap, heap trimming), so every run
 *   page-faulted its working set in again: a third of the run time of a
 *   transformer or a CNN at batch 1. Freed blocks of 64 KiB and more are
 *   kept (up to ONNXC_CACHE_BLOCKS blocks, ONNXC_CACHE_BYTES bytes in all)
 *   and handed out again for a request they fit without wasting more than
 *   a third. The cache is shared by all threads behind a spin lock (held
 *   for a scan of at most 64 entries). ONNXC_DISABLE_ALLOC_CACHE=1 in the
 *   environment turns it off.
 *===----------------------------------------------------------------------===*/

/* madvise, MADV_HUGEPAGE and posix_memalign, which -std=c99 hides. */
#define _DEFAULT_SOURCE

#include "internal.h"

#include <malloc.h>
#include <stddef.h>
#include <sys/mman.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Built with AddressSanitizer (libonnxc_runtime_asan.a, for `onnxc
 * --sanitize=address`): every block is a malloc block of exactly the bytes
 * asked for, freed when the model frees it (no spares, no cache, no
 * rounding), so that ASan sees each buffer's bounds and lifetime. */
#if defined(__SANITIZE_ADDRESS__)
#define ONNXC_RT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ONNXC_RT_ASAN 1
#endif
#endif
#ifdef ONNXC_RT_ASAN
#define ONNXC_RT_REUSE 0
#else
#define ONNXC_RT_REUSE 1
#endif

#define ONNXC_CACHE_BLOCKS 64
#define ONNXC_CACHE_BYTES ((size_t)1 << 30)
#define ONNXC_CACHE_MIN ((size_t)64 << 10)

/* Before every block's bytes: its place in its arena. 32 bytes keep the
 * caller's bytes 16-byte aligned, as malloc's are. */
struct onnxc_rt_block {
  onnxc_rt_block *prev, *next;
  onnxc_rt_arena *arena; /* NULL: allocated outside a call, or handed over */
  size_t size;           /* the caller's bytes */
};
#define HEADER sizeof(onnxc_rt_block)
typedef char onnxc_check_header_size_[HEADER == 32 ? 1 : -1];

/*===-------------------------- The cache ---------------------------------===*/

typedef struct cached_block {
  void *ptr;
  size_t size; /* malloc_usable_size */
} cached_block;

static cached_block cache[ONNXC_CACHE_BLOCKS];
static size_t cached_bytes;
static int cache_lock;
static volatile int cache_state = -1; /* -1 unknown, 0 off, 1 on */

static void spin_lock(int *l) {
  while (__atomic_exchange_n(l, 1, __ATOMIC_ACQUIRE))
    while (__atomic_load_n(l, __ATOMIC_RELAXED))
      ;
}

static void spin_unlock(int *l) { __atomic_store_n(l, 0, __ATOMIC_RELEASE); }

static int cache_enabled(void) {
  if (!ONNXC_RT_REUSE)
    return 0;
  if (cache_state < 0) {
    const char *off = getenv("ONNXC_DISABLE_ALLOC_CACHE");
    cache_state = !(off && off[0] && strcmp(off, "0") != 0);
  }
  return cache_state;
}

/* Blocks of at least ONNXC_HUGE_MIN bytes start on a 2 MiB boundary and
 * ask for transparent huge pages (madvise: the kernel's default policy
 * gives them only to ranges that ask). A convolution reads its input in
 * place with a channel's plane between consecutive k (12.5 KiB at 56 x 56
 * in ResNeXt's 1 x 1 layers), a new 4 KiB page at nearly every k; with
 * 2 MiB pages a whole map is one or two TLB entries. The cache keeps such
 * blocks across calls, so the pages are made once. ONNXC_HUGE_PAGES=0
 * turns this off. */
#define ONNXC_HUGE_MIN ((size_t)512 << 10)
#define ONNXC_HUGE_PAGE ((size_t)2 << 20)

static int huge_pages(size_t size) {
#ifdef MADV_HUGEPAGE
  static int on = -1;
  return size >= ONNXC_HUGE_MIN && ONNXC_RT_REUSE &&
         onnxc_rt_env_on("ONNXC_HUGE_PAGES", &on);
#else
  (void)size;
  return 0;
#endif
}

/* `size` in whole 2 MiB pages when it takes huge pages, else itself. */
static size_t whole_pages(size_t size) {
  return huge_pages(size) ? (size + ONNXC_HUGE_PAGE - 1) & ~(ONNXC_HUGE_PAGE - 1)
                          : size;
}

/* A new block of `size` bytes (whole 2 MiB pages when huge_pages). */
static void *fresh_alloc(size_t size) {
#ifdef MADV_HUGEPAGE
  if (huge_pages(size)) {
    void *p = NULL;
    if (posix_memalign(&p, ONNXC_HUGE_PAGE, size) != 0)
      return NULL;
    /* A failure leaves 4 KiB pages. */
    madvise(p, size, MADV_HUGEPAGE);
    return p;
  }
#endif
  return malloc(size);
}

/* 64-byte aligned in every case: a block under ONNXC_HUGE_MIN would be
 * malloc's, whose blocks of more than its mmap threshold start 16 bytes
 * into a page, and the kernels read derived and copied weights a cache
 * line (a zmm vector) at a time. LSTM's 256 KiB recurrent weights, kept
 * 16 bytes off a line, made every load of its gemv span two lines: the
 * bench's LSTM took 1.18 ms a run against 0.90 without the copy. */
void *onnxc_rt_malloc_large(size_t size) {
  void *p = NULL;
  size = whole_pages(size);
  if (huge_pages(size))
    return fresh_alloc(size);
  return posix_memalign(&p, 64, size) == 0 ? p : NULL;
}

/* A raw block of at least `size` bytes: a cached one, else a new one. */
static void *raw_alloc(size_t size) {
  /* Huge blocks in whole pages, matched in the cache as such. */
  size = whole_pages(size);
  if (size >= ONNXC_CACHE_MIN && cache_enabled()) {
    void *found = NULL;
    size_t best = 0;
    int i, at = -1;
    spin_lock(&cache_lock);
    /* The smallest cached block that holds `size` with at most a third
     * to spare. */
    for (i = 0; i < ONNXC_CACHE_BLOCKS; ++i) {
      size_t s = cache[i].size;
      if (cache[i].ptr && s >= size && s - size <= size / 3 &&
          (at < 0 || s < best)) {
        at = i;
        best = s;
      }
    }
    if (at >= 0) {
      found = cache[at].ptr;
      cached_bytes -= cache[at].size;
      cache[at].ptr = NULL;
      cache[at].size = 0;
    }
    spin_unlock(&cache_lock);
    if (found)
      return found;
  }
  return fresh_alloc(size);
}

/* Frees a raw block, or keeps it for reuse. */
static void raw_free(void *ptr) {
  size_t size;
  if (!ptr)
    return;
  size = malloc_usable_size(ptr);
  /* A huge block (2 MiB-aligned, whole pages): malloc's usable size
   * counts the alignment's slack too; the block is its whole pages. */
  if (size >= ONNXC_HUGE_PAGE && ((uintptr_t)ptr & (ONNXC_HUGE_PAGE - 1)) == 0)
    size &= ~(ONNXC_HUGE_PAGE - 1);
  if (size >= ONNXC_CACHE_MIN && cache_enabled()) {
    void *evicted = NULL;
    int i, at = -1, smallest = -1;
    spin_lock(&cache_lock);
    for (i = 0; i < ONNXC_CACHE_BLOCKS; ++i) {
      if (!cache[i].ptr) {
        if (at < 0)
          at = i;
      } else if (smallest < 0 || cache[i].size < cache[smallest].size) {
        smallest = i;
      }
    }
    /* Full: the smallest cached block makes room when this one is larger. */
    if (at < 0 && smallest >= 0 && cache[smallest].size < size) {
      evicted = cache[smallest].ptr;
      cached_bytes -= cache[smallest].size;
      cache[smallest].ptr = NULL;
      at = smallest;
    }
    if (at >= 0 && cached_bytes + size <= ONNXC_CACHE_BYTES) {
      cache[at].ptr = ptr;
      cache[at].size = size;
      cached_bytes += size;
      ptr = NULL;
    }
    spin_unlock(&cache_lock);
    free(evicted);
  }
  free(ptr);
}

void onnxc_rt_free_owner(void *owner) { raw_free(owner); }

int onnxc_rt_cache_holds(const void *block) {
  int i, found = 0;
  spin_lock(&cache_lock);
  for (i = 0; i < ONNXC_CACHE_BLOCKS; ++i)
    found |= cache[i].ptr == block;
  spin_unlock(&cache_lock);
  return found;
}

/* A block handed over as an output (onnxc_rt_arena_forget) carries this
 * copy of the runtime's mark in its header's unused links, so that
 * onnxc_rt_release_owner knows it for one of its own. Each model library
 * links its own runtime, and the caller's onnxc_tensor_release may be
 * another library's (or a tool's) copy: a block from another copy goes back
 * to libc, not into this copy's cache, which its own allocations would
 * never draw from again. */
static char handover_mark;

static void mark_handed(onnxc_rt_block *b) {
  b->prev = (onnxc_rt_block *)(uintptr_t)&handover_mark;
  b->next = (onnxc_rt_block *)~(uintptr_t)&handover_mark;
}

void onnxc_rt_release_owner(void *owner) {
  onnxc_rt_block *b = (onnxc_rt_block *)owner;
  if (!owner)
    return;
  /* An owner is a malloc block of at least HEADER bytes when it is a
   * handed block; other owners (copies, strings) are plain malloc blocks,
   * whose first 16 bytes malloc always provides (its smallest chunk holds
   * 24). Under ASan no block is reused, and none is read. */
  if (ONNXC_RT_REUSE && malloc_usable_size(owner) >= HEADER &&
      b->prev == (onnxc_rt_block *)(uintptr_t)&handover_mark &&
      b->next == (onnxc_rt_block *)~(uintptr_t)&handover_mark) {
    b->prev = b->next = NULL;
    raw_free(owner);
    return;
  }
  free(owner);
}

/*===-------------------------- The memory limit --------------------------===*/

/* Bytes one call may hold at once; 0: no limit; -1: not set yet. */
static int64_t memory_limit = -1;

onnxc_status onnxc_set_memory_limit(int64_t bytes) {
  if (bytes < 0) {
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "onnxc_set_memory_limit: negative limit %lld",
                          (long long)bytes);
  }
  __atomic_store_n(&memory_limit, bytes, __ATOMIC_RELAXED);
  return ONNXC_OK;
}

/* ONNXC_MEMORY_LIMIT: bytes, or with a K, M or G suffix (KiB, MiB, GiB);
 * -1 when it is not a size. */
static int64_t parse_limit(const char *s) {
  char *end = NULL;
  unsigned long long v;
  int shift = 0;
  if (s[0] < '0' || s[0] > '9')
    return -1;
  v = strtoull(s, &end, 10);
  if (*end == 'k' || *end == 'K')
    shift = 10;
  else if (*end == 'm' || *end == 'M')
    shift = 20;
  else if (*end == 'g' || *end == 'G')
    shift = 30;
  if (shift)
    ++end;
  if (*end != '\0' || v > ((unsigned long long)INT64_MAX >> shift))
    return -1;
  return (int64_t)(v << shift);
}

int64_t onnxc_get_memory_limit(void) {
  int64_t n = __atomic_load_n(&memory_limit, __ATOMIC_RELAXED);
  if (n < 0) {
    /* First use: ONNXC_MEMORY_LIMIT, else none. A bad value counts as
     * unset, with a warning. Threads racing here compute the same value;
     * an onnxc_set_memory_limit that came in between wins. */
    const char *env = getenv("ONNXC_MEMORY_LIMIT");
    int64_t unset = -1;
    n = 0;
    if (env && env[0]) {
      n = parse_limit(env);
      if (n < 0) {
        fprintf(stderr,
                "onnxc: ignoring ONNXC_MEMORY_LIMIT='%s' (not a size in "
                "bytes, K, M or G)\n",
                env);
        n = 0;
      }
    }
    if (!__atomic_compare_exchange_n(&memory_limit, &unset, n, 0,
                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
      n = unset;
  }
  return n;
}

/*===-------------------------- Arenas ------------------------------------===*/

static ONNXC_THREAD_LOCAL onnxc_rt_arena *current;

onnxc_rt_arena *onnxc_rt_arena_current(void) { return current; }

void onnxc_rt_arena_set_current(onnxc_rt_arena *arena) { current = arena; }

onnxc_rt_arena *onnxc_rt_arena_enter(onnxc_rt_arena *arena) {
  onnxc_rt_arena *previous = current;
  memset(arena, 0, sizeof *arena);
  arena->limit = (size_t)onnxc_get_memory_limit();
  current = arena;
  return previous;
}

void onnxc_rt_arena_leave(onnxc_rt_arena *arena, onnxc_rt_arena *previous) {
  onnxc_rt_block *b = arena->head; /* the spares too */
  while (b) {
    onnxc_rt_block *next = b->next;
    raw_free(b);
    b = next;
  }
  arena->head = NULL;
  arena->in_use = 0;
  current = previous;
}

/* The block of `ptr` if it is a live block of `arena`. A pointer the arena
 * does not hold is never dereferenced (a model built otherwise may return
 * plain malloc blocks). */
static onnxc_rt_block *find_block(onnxc_rt_arena *arena, const void *ptr) {
  onnxc_rt_block *b;
  for (b = arena->head; b; b = b->next)
    if ((const char *)b + HEADER == (const char *)ptr)
      return b;
  return NULL;
}

void *onnxc_rt_arena_owner(onnxc_rt_arena *arena, const void *ptr) {
  return ptr ? (void *)find_block(arena, ptr) : NULL;
}

static void unlink_block(onnxc_rt_arena *arena, onnxc_rt_block *b) {
  if (b->prev)
    b->prev->next = b->next;
  else
    arena->head = b->next;
  if (b->next)
    b->next->prev = b->prev;
  arena->in_use -= b->size;
  b->prev = b->next = NULL;
  b->arena = NULL;
}

void onnxc_rt_arena_forget(onnxc_rt_arena *arena, const void *ptr) {
  onnxc_rt_block *b = ptr ? find_block(arena, ptr) : NULL;
  if (b) {
    unlink_block(arena, b);
    mark_handed(b);
  }
}

/*===-------------------------- Allocation --------------------------------===*/

/* The arena's lock, taken only while the pool's workers share the arena
 * (threads.c sets `shared` around a region that has workers): a model
 * allocates in its loops, and an atomic exchange per allocation cost a
 * Scan of 1000 steps 16 us over its 9. Returns whether it locked. */
static int arena_lock(onnxc_rt_arena *arena) {
  if (!__atomic_load_n(&arena->shared, __ATOMIC_RELAXED))
    return 0;
  spin_lock(&arena->lock);
  return 1;
}

static void arena_unlock(onnxc_rt_arena *arena, int locked) {
  if (locked)
    spin_unlock(&arena->lock);
}

/* The failure of an allocation of `size` bytes: in a call, the call fails
 * (onnxc_rt_fail does not return); outside one, NULL. */
static void *out_of_memory(onnxc_rt_arena *arena, const char *site,
                           size_t size, size_t in_use, int over_limit) {
  char msg[512];
  if (!arena)
    return NULL;
  if (over_limit)
    snprintf(msg, sizeof msg,
             "%s%sout of memory: a buffer of %llu bytes would exceed the "
             "memory limit of %llu bytes (%llu in use by this call)",
             site ? site : "", site ? ": " : "", (unsigned long long)size,
             (unsigned long long)arena->limit, (unsigned long long)in_use);
  else
    snprintf(msg, sizeof msg,
             "%s%sout of memory: a buffer of %llu bytes (%llu in use by this "
             "call)",
             site ? site : "", site ? ": " : "", (unsigned long long)size,
             (unsigned long long)in_use);
  onnxc_rt_fail(ONNXC_ERROR_OUT_OF_MEMORY, msg);
  return NULL;
}

/* Small blocks are sized in steps of 64 bytes, so that a freed one fits
 * the next request of its step: a call keeps up to ONNXC_SPARES of them
 * (still in its arena, not counted as in use) for its next allocations. A
 * model allocating in a loop (a Scan step's buffers) then calls malloc and
 * free once, not once per step. */
#define ONNXC_SPARE_MAX ((size_t)4096)

static size_t block_size(size_t size) {
  if (!ONNXC_RT_REUSE)
    return size;
  return size <= ONNXC_SPARE_MAX ? (size + 63) & ~(size_t)63 : size;
}

/* A spare block of `size` bytes (a step of 64) of `arena`, or NULL. */
static onnxc_rt_block *take_spare(onnxc_rt_arena *arena, size_t size) {
  int i;
  for (i = 0; i < arena->num_spares; ++i)
    if (arena->spares[i]->size == size) {
      onnxc_rt_block *b = arena->spares[i];
      arena->spares[i] = arena->spares[--arena->num_spares];
      return b;
    }
  return NULL;
}

void *onnxc_rt_alloc(size_t request, const char *site) {
  onnxc_rt_arena *arena = current;
  onnxc_rt_block *b = NULL;
  size_t in_use = 0, size;
  if (request > SIZE_MAX - HEADER - 63)
    return out_of_memory(arena, site, request, arena ? arena->in_use : 0, 0);
  size = block_size(request);
  if (arena) {
    /* Reserve the bytes first: the pool's workers may share the arena. */
    int locked = arena_lock(arena);
    in_use = arena->in_use;
    if (arena->limit && size > arena->limit - (in_use < arena->limit
                                                   ? in_use
                                                   : arena->limit)) {
      arena_unlock(arena, locked);
      return out_of_memory(arena, site, request, in_use, 1);
    }
    arena->in_use += size;
    if (arena->in_use > arena->peak)
      arena->peak = arena->in_use;
    if (ONNXC_RT_REUSE && !locked && size <= ONNXC_SPARE_MAX)
      b = take_spare(arena, size);
    arena_unlock(arena, locked);
    if (b)
      return (char *)b + HEADER;
  }
  b = (onnxc_rt_block *)raw_alloc(size + HEADER);
  if (!b) {
    if (arena) {
      int locked = arena_lock(arena);
      arena->in_use -= size;
      arena_unlock(arena, locked);
    }
    return out_of_memory(arena, site, request, in_use, 0);
  }
  b->size = size;
  b->arena = arena;
  b->prev = NULL;
  b->next = NULL;
  if (arena) {
    int locked = arena_lock(arena);
    b->next = arena->head;
    if (b->next)
      b->next->prev = b;
    arena->head = b;
    arena_unlock(arena, locked);
  }
  return (char *)b + HEADER;
}

void *_mlir_memref_to_llvm_alloc(size_t size) {
  return onnxc_rt_alloc(size, NULL);
}

void _mlir_memref_to_llvm_free(void *ptr) {
  onnxc_rt_block *b;
  onnxc_rt_arena *arena;
  if (!ptr)
    return;
  b = (onnxc_rt_block *)((char *)ptr - HEADER);
  arena = b->arena;
  if (arena) {
    int locked = arena_lock(arena);
    if (ONNXC_RT_REUSE && !locked && b->size <= ONNXC_SPARE_MAX &&
        arena->num_spares < ONNXC_SPARES) {
      /* Kept for the call's next allocation of its size. */
      arena->in_use -= b->size;
      arena->spares[arena->num_spares++] = b;
      return;
    }
    unlink_block(arena, b);
    arena_unlock(arena, locked);
  }
  raw_free(b);
}
