/*===- threads.c - The runtime's thread pool ------------------------------===*
 *
 * A few persistent workers that run parts of one kernel call next to the
 * calling thread (onnxc_rt_parallel_for, internal.h); parallel.c decides
 * how a call splits. The kernels use it (matrix products and convolutions,
 * pools, resizes, the compiler's large copies: onnxc_rt_copy); the other
 * generated code stays on the caller's thread.
 *
 * The pool is created lazily, by the first region that wants more threads
 * than it has, and grows up to the thread count (onnxc_get_num_threads);
 * until then a model starts no thread at all. One region runs at a time: a
 * caller that finds the pool busy (another thread's region, or a region
 * nested in a chunk) runs its chunks alone, which is always correct.
 *
 * A region: the caller publishes the task, hands each worker it wants the
 * region's number through the worker's own `go` slot and runs chunks
 * itself; every thread takes the next chunk with an atomic increment. When
 * no chunk is left the caller closes the region and waits only for the
 * workers that joined it before: a worker that is slow to wake (the
 * machine is shared, or it was blocked) finds the region closed and does
 * nothing, instead of holding the caller up. Both sides wait by spinning
 * for a while (ONNXC_SPIN_NS), since a model calls its kernels in quick
 * succession, yielding the core after the first ONNXC_PAUSE_NS (on a busy
 * machine a spinning worker would take the time of the caller or of other
 * processes), then block on a condition variable, so that an idle pool
 * costs no CPU.
 *
 * pthreads live in libc on glibc 2.34 and later: a model library still
 * needs only libc and libm. Workers are joined when the library is
 * unloaded (or the process exits) and forgotten in the child of a fork.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L
#include "internal.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define ONNXC_MAX_WORKERS 63 /* 64 threads with the caller */
/* How long a waiting thread spins before it blocks: long enough to span
 * the model code between two kernel calls, short enough not to keep a
 * core busy for an idle model; the first ONNXC_PAUSE_NS of it without
 * giving the core away (spin_step). */
#define ONNXC_SPIN_NS 200000
#define ONNXC_PAUSE_NS 20000
/* Default of ONNXC_PARALLEL_MIN_FLOP: below this, a kernel call runs on
 * one thread. With a spinning worker a region costs well under a
 * microsecond: on the 2-core AMD EPYC (Zen 5) VM of docs/performance.md,
 * `onnxc-parallel-test bench` ran a 64 x 64 x 64 product (0.5 MFLOP, 2.4
 * us) 1.5 times as fast on 2 threads and a 64 x 128 x 128 one (2.1 MFLOP)
 * 1.9 times. But a worker that slept must be woken (a system call, then
 * it is late), a shared machine may run something else on the other core,
 * and every region risks waiting for a worker descheduled inside it:
 * small calls are not worth it. */
#define ONNXC_DEFAULT_MIN_FLOP 1000000

#define CLOSED ((uint64_t)1 << 31)
#define IN_REGION(state) ((state) & (CLOSED - 1))

typedef struct worker {
  pthread_t thread;
  unsigned go;    /* the region this worker is to join (atomic) */
  unsigned seen;  /* the region it last joined, before it starts */
  char pad[64 - sizeof(pthread_t) - 2 * sizeof(unsigned)];
} worker;

static struct {
  pthread_mutex_t mu;
  pthread_cond_t wake; /* workers blocked for a region */
  pthread_cond_t done; /* the caller blocked for the workers */
  int sleeping;        /* workers blocked on `wake` (atomic) */
  int quit;            /* workers exit (written under mu; atomic) */
  int started;         /* workers created (under `busy`) */
  unsigned region;     /* regions so far (under `busy`) */
  /* The current region, written before its workers are told. */
  onnxc_rt_task_fn task;
  void *arg;
  int64_t chunks;
  /* The calling thread's allocator arena (alloc.c): what the workers
   * allocate belongs to the call whose parts they run. */
  onnxc_rt_arena *arena;
  int64_t next; /* the next chunk to take (atomic) */
  /* The region's number (high 32 bits), whether it is closed (CLOSED) and
   * how many workers are in it (low bits): one word, so that a worker
   * joins only an open region, atomically (atomic). */
  uint64_t state;
  /* The region's first failure (under mu). */
  int32_t fail_code;
  char fail_msg[512];
  /* onnxc_rt_pool_stats (atomic). */
  int64_t stat_regions, stat_worker_chunks;
} pool = {.mu = PTHREAD_MUTEX_INITIALIZER,
          .wake = PTHREAD_COND_INITIALIZER,
          .done = PTHREAD_COND_INITIALIZER};

static worker workers[ONNXC_MAX_WORKERS];
/* 1 while a region runs: its caller owns the pool's region fields. */
static int busy;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/* One step of a wait that spins: a pause for the first ONNXC_PAUSE_NS,
 * then sched_yield, which costs nothing more on an idle machine but on a
 * busy one lets the other processes (or the thread waited for, when it
 * shares this core) run instead of the spinning; 0 once the wait has
 * lasted ONNXC_SPIN_NS: time to block. `start` is 0 on the first step. */
static int spin_step(unsigned i, int64_t *start) {
  int64_t t;
  if (i < 64) {
    cpu_relax();
    return 1;
  }
  t = now_ns();
  if (!*start)
    *start = t;
  if (t - *start > ONNXC_SPIN_NS)
    return 0;
  if (t - *start > ONNXC_PAUSE_NS)
    sched_yield();
  else
    cpu_relax();
  return 1;
}

/* Spins until *p != old (acquire) or the pool quits, for at most
 * ONNXC_SPIN_NS; returns whether either happened. */
static int spin_until_changed(const unsigned *p, unsigned old) {
  int64_t start = 0;
  unsigned i;
  for (i = 0;; ++i) {
    if (__atomic_load_n(p, __ATOMIC_ACQUIRE) != old ||
        __atomic_load_n(&pool.quit, __ATOMIC_RELAXED))
      return 1;
    if (!spin_step(i, &start))
      return 0;
  }
}

/* Spins until no worker is in the region, for at most ONNXC_SPIN_NS;
 * returns whether none is. */
static int spin_until_left(void) {
  int64_t start = 0;
  unsigned i;
  for (i = 0;; ++i) {
    if (IN_REGION(__atomic_load_n(&pool.state, __ATOMIC_ACQUIRE)) == 0)
      return 1;
    if (!spin_step(i, &start))
      return 0;
  }
}

/* Takes chunks until none is left (onnxc_rt_try's callback). */
static void run_chunks(void *counter) {
  int64_t *count = counter;
  for (;;) {
    int64_t i = __atomic_fetch_add(&pool.next, 1, __ATOMIC_RELAXED);
    if (i >= pool.chunks)
      return;
    pool.task(pool.arg, i);
    ++*count;
  }
}

/* run_chunks; a failure is recorded (the first one wins) and ends the
 * region: no chunk starts after it. Returns the chunks it ran. */
static int64_t run_chunks_protected(void) {
  char msg[sizeof pool.fail_msg];
  int64_t count = 0;
  int32_t code = onnxc_rt_try(run_chunks, &count, msg, sizeof msg);
  if (code) {
    __atomic_store_n(&pool.next, pool.chunks, __ATOMIC_RELAXED);
    pthread_mutex_lock(&pool.mu);
    if (!pool.fail_code) {
      pool.fail_code = code;
      memcpy(pool.fail_msg, msg, sizeof msg);
    }
    pthread_mutex_unlock(&pool.mu);
  }
  return count;
}

/* Enters region `region` if it is still open; returns whether it did. */
static int join(unsigned region) {
  uint64_t state = __atomic_load_n(&pool.state, __ATOMIC_ACQUIRE);
  for (;;) {
    if ((unsigned)(state >> 32) != region || (state & CLOSED))
      return 0;
    if (__atomic_compare_exchange_n(&pool.state, &state, state + 1, 1,
                                    __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE))
      return 1;
  }
}

static void *worker_main(void *p) {
  worker *w = p;
  unsigned seen = w->seen;
  for (;;) {
    unsigned go;
    uint64_t state;
    if (!spin_until_changed(&w->go, seen)) {
      pthread_mutex_lock(&pool.mu);
      /* seq_cst pairs with the caller's store of `go` and load of
       * `sleeping`: either it sees this worker sleeping, or this worker
       * sees its `go`. */
      __atomic_fetch_add(&pool.sleeping, 1, __ATOMIC_SEQ_CST);
      while (__atomic_load_n(&w->go, __ATOMIC_SEQ_CST) == seen && !pool.quit)
        pthread_cond_wait(&pool.wake, &pool.mu);
      __atomic_fetch_sub(&pool.sleeping, 1, __ATOMIC_SEQ_CST);
      if (pool.quit) {
        pthread_mutex_unlock(&pool.mu);
        return NULL;
      }
      pthread_mutex_unlock(&pool.mu);
    }
    if (__atomic_load_n(&pool.quit, __ATOMIC_RELAXED))
      return NULL;
    go = __atomic_load_n(&w->go, __ATOMIC_ACQUIRE);
    if (go == seen)
      continue;
    seen = go;
    if (!join(go))
      continue; /* closed already: the caller did the work */
    onnxc_rt_arena_set_current(pool.arena);
    __atomic_fetch_add(&pool.stat_worker_chunks, run_chunks_protected(),
                       __ATOMIC_RELAXED);
    onnxc_rt_arena_set_current(NULL);
    state = __atomic_sub_fetch(&pool.state, 1, __ATOMIC_ACQ_REL);
    if ((state & CLOSED) && IN_REGION(state) == 0) {
      /* Under mu: the caller checks the state under it before it blocks,
       * so the signal cannot fall between the two. */
      pthread_mutex_lock(&pool.mu);
      pthread_cond_signal(&pool.done);
      pthread_mutex_unlock(&pool.mu);
    }
  }
}

/* In the child of a fork only the forking thread exists: start afresh
 * (the pool was not busy unless the fork came from inside a chunk). */
static void forget_workers(void) {
  pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
  pool.mu = mu;
  pool.wake = cond;
  pool.done = cond;
  pool.sleeping = 0;
  pool.started = 0;
  busy = 0;
}

/* Starts workers until there are `want` (under `busy`); returns how many
 * there are (fewer when the system refuses a thread). Workers block every
 * signal: signals go to the application's threads. */
static int start_workers(int want) {
  static int atfork_done;
  sigset_t all, old;
  if (want > ONNXC_MAX_WORKERS)
    want = ONNXC_MAX_WORKERS;
  if (pool.started >= want)
    return pool.started;
  if (!atfork_done) {
    pthread_atfork(NULL, NULL, forget_workers);
    atfork_done = 1;
  }
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  while (pool.started < want) {
    worker *w = &workers[pool.started];
    w->seen = w->go = pool.region;
    if (pthread_create(&w->thread, NULL, worker_main, w) != 0)
      break;
    ++pool.started;
  }
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  return pool.started;
}

#if defined(__GNUC__) || defined(__clang__)
/* When the library is unloaded (dlclose, or exit), its workers must not
 * outlive its code. */
__attribute__((destructor)) static void stop_workers(void) {
  int i, n;
  if (__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE))
    return; /* a region still running at exit: leave the workers be */
  n = pool.started;
  if (n == 0)
    return;
  pthread_mutex_lock(&pool.mu);
  __atomic_store_n(&pool.quit, 1, __ATOMIC_RELAXED);
  pthread_cond_broadcast(&pool.wake);
  pthread_mutex_unlock(&pool.mu);
  for (i = 0; i < n; ++i)
    pthread_join(workers[i].thread, NULL);
  pool.started = 0;
}
#endif

void onnxc_rt_parallel_for(int64_t chunks, int threads, onnxc_rt_task_fn task,
                           void *arg) {
  int64_t i;
  int helpers, w;
  int32_t code;
  char msg[sizeof pool.fail_msg];
  if (threads > 1 && chunks > 1 &&
      !__atomic_exchange_n(&busy, 1, __ATOMIC_ACQUIRE)) {
    helpers = start_workers(threads - 1);
    if (helpers > chunks - 1)
      helpers = (int)(chunks - 1);
    if (helpers > 0) {
      pool.task = task;
      pool.arg = arg;
      pool.chunks = chunks;
      pool.arena = onnxc_rt_arena_current();
      /* The workers allocate into the caller's arena from now on: its
       * lock is taken until they have all left (published to them by the
       * seq_cst stores of `go` below). */
      if (pool.arena)
        __atomic_store_n(&pool.arena->shared, 1, __ATOMIC_RELAXED);
      __atomic_store_n(&pool.next, 0, __ATOMIC_RELAXED);
      pool.fail_code = 0;
      ++pool.region;
      __atomic_store_n(&pool.state, (uint64_t)pool.region << 32,
                       __ATOMIC_RELAXED);
      for (w = 0; w < helpers; ++w)
        __atomic_store_n(&workers[w].go, pool.region, __ATOMIC_SEQ_CST);
      if (__atomic_load_n(&pool.sleeping, __ATOMIC_SEQ_CST)) {
        pthread_mutex_lock(&pool.mu);
        pthread_cond_broadcast(&pool.wake);
        pthread_mutex_unlock(&pool.mu);
      }
      run_chunks_protected();
      /* No chunk left to start: close, then wait for the workers inside. */
      if (IN_REGION(__atomic_fetch_or(&pool.state, CLOSED, __ATOMIC_ACQ_REL)) &&
          !spin_until_left()) {
        pthread_mutex_lock(&pool.mu);
        while (IN_REGION(__atomic_load_n(&pool.state, __ATOMIC_ACQUIRE)) != 0)
          pthread_cond_wait(&pool.done, &pool.mu);
        pthread_mutex_unlock(&pool.mu);
      }
      __atomic_fetch_add(&pool.stat_regions, 1, __ATOMIC_RELAXED);
      /* Every worker has left the region (acquired above). */
      if (pool.arena)
        __atomic_store_n(&pool.arena->shared, 0, __ATOMIC_RELAXED);
      code = pool.fail_code;
      if (code)
        memcpy(msg, pool.fail_msg, sizeof msg);
      __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
      if (code)
        onnxc_rt_fail(code, msg);
      return;
    }
    __atomic_store_n(&busy, 0, __ATOMIC_RELEASE);
  }
  for (i = 0; i < chunks; ++i)
    task(arg, i);
}

/* ONNXC_PARALLEL_MIN_FLOP, read once; -1 before. */
static int64_t min_flop = -1;

int onnxc_rt_threads_for(double flop) {
  int32_t n = onnxc_get_num_threads();
  int64_t min = __atomic_load_n(&min_flop, __ATOMIC_RELAXED);
  if (n <= 1)
    return 1;
  if (min < 0) {
    /* Threads racing here compute the same value. */
    const char *env = getenv("ONNXC_PARALLEL_MIN_FLOP");
    min = ONNXC_DEFAULT_MIN_FLOP;
    if (env && env[0]) {
      char *end = NULL;
      double e = strtod(env, &end);
      if (*end == '\0' && e >= 0.0 && e < 1e18)
        min = (int64_t)e;
      else
        fprintf(stderr,
                "onnxc: ignoring ONNXC_PARALLEL_MIN_FLOP='%s' (not a number "
                ">= 0)\n",
                env);
    }
    __atomic_store_n(&min_flop, min, __ATOMIC_RELAXED);
  }
  return flop < (double)min ? 1 : (int)n;
}

void onnxc_rt_pool_stats(int64_t *regions, int64_t *worker_chunks) {
  *regions = __atomic_load_n(&pool.stat_regions, __ATOMIC_RELAXED);
  *worker_chunks = __atomic_load_n(&pool.stat_worker_chunks, __ATOMIC_RELAXED);
}

typedef struct range_job {
  onnxc_rt_range_fn task;
  void *arg;
  int64_t n, step, chunks;
} range_job;

static void range_chunk(void *p, int64_t chunk) {
  const range_job *j = p;
  int64_t lo = chunk * j->step;
  j->task(j->arg, lo, chunk == j->chunks - 1 ? j->n : lo + j->step);
}

void onnxc_rt_parallel_range(int64_t n, int64_t unit, int threads,
                             onnxc_rt_range_fn task, void *arg) {
  range_job j;
  int64_t units;
  if (n <= 0)
    return;
  if (unit < 1)
    unit = 1;
  units = (n + unit - 1) / unit;
  if (threads <= 1 || units < 2) {
    task(arg, 0, n);
    return;
  }
  j.task = task;
  j.arg = arg;
  j.n = n;
  j.chunks = units < 4 * (int64_t)threads ? units : 4 * (int64_t)threads;
  j.step = (units + j.chunks - 1) / j.chunks * unit;
  j.chunks = (n + j.step - 1) / j.step;
  onnxc_rt_parallel_for(j.chunks, threads, range_chunk, &j);
}
