/*===- profile.c - Per-node timing of libraries built with onnxc --profile -===*
 *
 * Generated code (passes/Transforms/ProfileNodes.cpp) wraps the ops of each
 * ONNX node, or of the nodes fused into one kernel, with
 * onnxc_rt_prof_begin(site) / onnxc_rt_prof_end(site); `site` is a constant
 * of the model library: a kind byte ('N' a node, 'I' one iteration of a
 * Loop/Scan body), the node names ("conv1+relu1"), a NUL, the op types
 * ("Conv+Relu"), a NUL. This file is its own archive member: only
 * libraries compiled with --profile reference it, so the others carry
 * none of it (docs/profiling.md).
 *
 * Recording: a per-thread stack of open events (begin time, iteration) and
 * a per-thread list of finished ones (grown with realloc, at most
 * ONNXC_PROF_MAX_EVENTS each; beyond, events are counted as dropped) plus
 * per-thread totals per site (an open-addressing table), so the summary is
 * complete even when events are dropped. begin/end cost a clock_gettime
 * and a few stores when recording, a load and a branch when not.
 *
 * Thread safety: model code runs on its caller's thread, so the hot path
 * touches only thread-local state; a mutex guards the list of threads'
 * records (taken once per thread) and the writer. Write the trace when no
 * profiled run is in progress.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define ONNXC_PROF_MAX_DEPTH 64
#define ONNXC_PROF_MAX_EVENTS (1 << 21)

typedef struct prof_event {
  const char *site;
  int64_t t0, t1;  /* ns since the profile started */
  int64_t iteration; /* -1: not inside a loop iteration */
} prof_event;

typedef struct prof_total {
  const char *site; /* NULL: empty slot */
  int64_t calls, total_ns, max_ns;
} prof_total;

typedef struct prof_open {
  const char *site;
  int64_t t0;
  int64_t iteration; /* this event's iteration (-1 none) */
  int64_t children;  /* iteration events begun inside this one */
} prof_open;

typedef struct prof_thread {
  struct prof_thread *next;
  int32_t tid;
  uint32_t generation; /* the profile this record belongs to */
  prof_event *events;
  int64_t num_events, cap_events, dropped;
  prof_total *totals;
  int64_t num_totals, cap_totals; /* cap: a power of two */
  int32_t depth;
  prof_open stack[ONNXC_PROF_MAX_DEPTH];
} prof_thread;

/* 0: not decided (ONNXC_PROFILE not read yet), 1: off, 2: recording. */
static int prof_state;
static uint32_t prof_generation;
static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static prof_thread *prof_threads;
static int32_t prof_next_tid = 1;
static int64_t prof_origin;       /* CLOCK_MONOTONIC ns at the start */
static char *prof_path;           /* written at exit / onnxc_profile_stop */
static int prof_atexit_registered;
static ONNXC_THREAD_LOCAL prof_thread *prof_self;

static int64_t now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Whether `path` can be written: created (or truncated) once. */
static onnxc_status check_writable(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "cannot write the profile '%s': %s", path,
                          strerror(errno));
  fclose(f);
  return ONNXC_OK;
}

static void write_at_exit(void);

/* Starts a profile (the lock held): clears what earlier ones recorded. */
static onnxc_status start_locked(const char *path) {
  char *copy = NULL;
  if (path) {
    onnxc_status s = check_writable(path);
    if (s != ONNXC_OK)
      return s;
    copy = (char *)malloc(strlen(path) + 1);
    if (!copy)
      return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    strcpy(copy, path);
  }
  free(prof_path);
  prof_path = copy;
  ++prof_generation;
  prof_origin = now_ns();
  if (!prof_atexit_registered) {
    /* In a shared library atexit registers with the library's handle: it
       runs at dlclose too, while the sites are still mapped. */
    atexit(write_at_exit);
    prof_atexit_registered = 1;
  }
  __atomic_store_n(&prof_state, 2, __ATOMIC_RELEASE);
  return ONNXC_OK;
}

/* The first begin decides from ONNXC_PROFILE. */
static int decide(void) {
  int state;
  pthread_mutex_lock(&prof_lock);
  state = __atomic_load_n(&prof_state, __ATOMIC_ACQUIRE);
  if (state == 0) {
    const char *path = getenv("ONNXC_PROFILE");
    state = 1;
    if (path && *path) {
      if (start_locked(path) == ONNXC_OK)
        state = 2;
      else
        fprintf(stderr, "onnxc: profile: %s; not profiling\n",
                onnxc_last_error());
    }
    __atomic_store_n(&prof_state, state, __ATOMIC_RELEASE);
  }
  pthread_mutex_unlock(&prof_lock);
  return state;
}

static prof_thread *self(void) {
  prof_thread *t = prof_self;
  if (t) {
    if (t->generation != prof_generation) {
      t->generation = prof_generation;
      t->num_events = t->dropped = 0;
      if (t->totals)
        memset(t->totals, 0, (size_t)t->cap_totals * sizeof(prof_total));
      t->num_totals = 0;
      t->depth = 0;
    }
    return t;
  }
  t = (prof_thread *)calloc(1, sizeof *t);
  if (!t)
    return NULL;
  pthread_mutex_lock(&prof_lock);
  t->tid = prof_next_tid++;
  t->generation = prof_generation;
  t->next = prof_threads;
  prof_threads = t;
  pthread_mutex_unlock(&prof_lock);
  prof_self = t;
  return t;
}

static prof_total *total_slot(prof_thread *t, const char *site) {
  uint64_t h;
  int64_t i, mask;
  if (2 * (t->num_totals + 1) > t->cap_totals) {
    int64_t cap = t->cap_totals ? 2 * t->cap_totals : 256, j;
    prof_total *grown = (prof_total *)calloc((size_t)cap, sizeof *grown);
    if (!grown)
      return NULL;
    for (j = 0; j < t->cap_totals; ++j) {
      prof_total *o = &t->totals[j];
      if (!o->site)
        continue;
      h = ((uint64_t)(uintptr_t)o->site >> 3) * 0x9E3779B97F4A7C15ull;
      for (i = (int64_t)(h >> 40) & (cap - 1); grown[i].site; i = (i + 1) & (cap - 1))
        ;
      grown[i] = *o;
    }
    free(t->totals);
    t->totals = grown;
    t->cap_totals = cap;
  }
  mask = t->cap_totals - 1;
  h = ((uint64_t)(uintptr_t)site >> 3) * 0x9E3779B97F4A7C15ull;
  for (i = (int64_t)(h >> 40) & mask; t->totals[i].site; i = (i + 1) & mask)
    if (t->totals[i].site == site)
      return &t->totals[i];
  t->totals[i].site = site;
  ++t->num_totals;
  return &t->totals[i];
}

void onnxc_rt_prof_begin(const char *site) {
  int state = __atomic_load_n(&prof_state, __ATOMIC_ACQUIRE);
  prof_thread *t;
  prof_open *o;
  if (state == 0)
    state = decide();
  if (state != 2 || !(t = self()))
    return;
  if (t->depth >= ONNXC_PROF_MAX_DEPTH) {
    ++t->depth; /* matched by its end; not recorded */
    return;
  }
  o = &t->stack[t->depth];
  o->site = site;
  o->children = 0;
  o->iteration = -1;
  if (t->depth > 0) {
    prof_open *parent = &t->stack[t->depth - 1];
    if (site[0] == 'I')
      o->iteration = parent->children++;
    else
      o->iteration = parent->iteration;
  }
  ++t->depth;
  o->t0 = now_ns() - prof_origin;
}

void onnxc_rt_prof_end(const char *site) {
  int64_t t1;
  prof_thread *t;
  prof_open *o;
  prof_total *total;
  if (__atomic_load_n(&prof_state, __ATOMIC_ACQUIRE) != 2 || !(t = self()))
    return;
  t1 = now_ns() - prof_origin;
  if (t->depth > ONNXC_PROF_MAX_DEPTH) {
    --t->depth;
    return;
  }
  /* A failed run (onnxc_rt_fail) leaves its events open: close them. */
  while (t->depth > 0 && t->stack[t->depth - 1].site != site)
    --t->depth;
  if (t->depth == 0)
    return;
  o = &t->stack[--t->depth];
  total = total_slot(t, site);
  if (total) {
    int64_t d = t1 - o->t0;
    ++total->calls;
    total->total_ns += d;
    if (d > total->max_ns)
      total->max_ns = d;
  }
  if (t->num_events == t->cap_events) {
    int64_t cap = t->cap_events ? 2 * t->cap_events : 4096;
    prof_event *grown;
    if (cap > ONNXC_PROF_MAX_EVENTS ||
        !(grown = (prof_event *)realloc(t->events, (size_t)cap * sizeof *grown))) {
      ++t->dropped;
      return;
    }
    t->events = grown;
    t->cap_events = cap;
  }
  t->events[t->num_events].site = site;
  t->events[t->num_events].t0 = o->t0;
  t->events[t->num_events].t1 = t1;
  t->events[t->num_events].iteration = o->iteration;
  ++t->num_events;
}

/* ---- The trace --------------------------------------------------------- */

/* `s` (n bytes) as the inside of a JSON string: quotes, backslashes and
 * control bytes escaped, invalid UTF-8 bytes as U+FFFD. */
static void json_text(FILE *f, const char *s, size_t n) {
  size_t i = 0;
  while (i < n) {
    unsigned char c = (unsigned char)s[i];
    size_t len = 0, k;
    if (c == '"' || c == '\\') {
      fputc('\\', f);
      fputc(c, f);
      ++i;
      continue;
    }
    if (c < 0x20 || c == 0x7f) {
      fprintf(f, "\\u%04x", c);
      ++i;
      continue;
    }
    if (c < 0x80) {
      fputc(c, f);
      ++i;
      continue;
    }
    if (c >= 0xc2 && c <= 0xdf)
      len = 2;
    else if (c >= 0xe0 && c <= 0xef)
      len = 3;
    else if (c >= 0xf0 && c <= 0xf4)
      len = 4;
    for (k = 1; len && k < len; ++k)
      if (i + k >= n || ((unsigned char)s[i + k] & 0xc0) != 0x80)
        len = 0;
    if (!len) {
      fputs("\\ufffd", f);
      ++i;
      continue;
    }
    fwrite(s + i, 1, len, f);
    i += len;
  }
}

/* The site's parts: names, op types, whether it is an iteration. */
static const char *site_names(const char *site) { return site + 1; }
static const char *site_ops(const char *site) {
  return site + 1 + strlen(site + 1) + 1;
}

/* "conv1+relu1 (Conv+Relu)", "loop1 (Loop) iteration". */
static void json_label(FILE *f, const char *site) {
  json_text(f, site_names(site), strlen(site_names(site)));
  fputs(" (", f);
  json_text(f, site_ops(site), strlen(site_ops(site)));
  fputs(site[0] == 'I' ? ") iteration" : ")", f);
}

static int compare_totals(const void *a, const void *b) {
  const onnxc_profile_entry *x = (const onnxc_profile_entry *)a;
  const onnxc_profile_entry *y = (const onnxc_profile_entry *)b;
  if (x->total_ns != y->total_ns)
    return x->total_ns > y->total_ns ? -1 : 1;
  return strcmp(x->name, y->name);
}

/* The totals of every thread merged per site, by total time (the lock
 * held); *count entries in a malloc'ed array (NULL when none). */
static onnxc_profile_entry *merge_totals(int64_t *count) {
  int64_t n = 0, j, k;
  prof_thread *t;
  onnxc_profile_entry *out;
  for (t = prof_threads; t; t = t->next)
    if (t->generation == prof_generation)
      n += t->num_totals;
  *count = 0;
  if (n == 0)
    return NULL;
  out = (onnxc_profile_entry *)calloc((size_t)n, sizeof *out);
  if (!out)
    return NULL;
  for (t = prof_threads; t; t = t->next) {
    if (t->generation != prof_generation)
      continue;
    for (j = 0; j < t->cap_totals; ++j) {
      prof_total *p = &t->totals[j];
      if (!p->site)
        continue;
      for (k = 0; k < *count; ++k)
        if (out[k].site == p->site)
          break;
      if (k == *count) {
        out[k].site = p->site;
        out[k].name = site_names(p->site);
        out[k].op = site_ops(p->site);
        out[k].iteration = p->site[0] == 'I';
        ++*count;
      }
      out[k].calls += p->calls;
      out[k].total_ns += p->total_ns;
      if (p->max_ns > out[k].max_ns)
        out[k].max_ns = p->max_ns;
    }
  }
  qsort(out, (size_t)*count, sizeof *out, compare_totals);
  return out;
}

static onnxc_status write_locked(const char *path) {
  FILE *f;
  prof_thread *t;
  int first = 1;
  int64_t i, count = 0, dropped = 0;
  onnxc_profile_entry *totals;
  long pid = (long)getpid();
  if (!path)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "no profile path (onnxc_profile_start(NULL) and "
                          "onnxc_profile_write(NULL))");
  f = fopen(path, "w");
  if (!f)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "cannot write the profile '%s': %s", path,
                          strerror(errno));
  fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n", f);
  for (t = prof_threads; t; t = t->next) {
    if (t->generation != prof_generation)
      continue;
    dropped += t->dropped;
    fprintf(f, "%s{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%ld,"
               "\"tid\":%d,\"args\":{\"name\":\"onnxc thread %d\"}}",
            first ? "" : ",\n", pid, (int)t->tid, (int)t->tid);
    first = 0;
    for (i = 0; i < t->num_events; ++i) {
      const prof_event *e = &t->events[i];
      fputs(",\n{\"name\":\"", f);
      json_label(f, e->site);
      fputs("\",\"cat\":\"", f);
      fputs(e->site[0] == 'I' ? "iteration" : "node", f);
      fprintf(f, "\",\"ph\":\"X\",\"pid\":%ld,\"tid\":%d,\"ts\":%lld.%03lld,"
                 "\"dur\":%lld.%03lld,\"args\":{\"node\":\"",
              pid, (int)t->tid, (long long)(e->t0 / 1000),
              (long long)(e->t0 % 1000), (long long)((e->t1 - e->t0) / 1000),
              (long long)((e->t1 - e->t0) % 1000));
      json_text(f, site_names(e->site), strlen(site_names(e->site)));
      fputs("\",\"op\":\"", f);
      json_text(f, site_ops(e->site), strlen(site_ops(e->site)));
      fputc('"', f);
      if (e->iteration >= 0)
        fprintf(f, ",\"iteration\":%lld", (long long)e->iteration);
      fputs("}}", f);
    }
  }
  fputs("\n],\n\"onnxcSummary\":{\"droppedEvents\":", f);
  fprintf(f, "%lld,\"nodes\":[", (long long)dropped);
  totals = merge_totals(&count);
  for (i = 0; i < count; ++i) {
    fputs(i ? ",\n{\"name\":\"" : "\n{\"name\":\"", f);
    json_label(f, totals[i].site);
    fputs("\",\"node\":\"", f);
    json_text(f, totals[i].name, strlen(totals[i].name));
    fputs("\",\"op\":\"", f);
    json_text(f, totals[i].op, strlen(totals[i].op));
    fprintf(f, "\",\"kind\":\"%s\",\"calls\":%lld,\"total_us\":%.3f,"
               "\"max_us\":%.3f}",
            totals[i].iteration ? "iteration" : "node",
            (long long)totals[i].calls, totals[i].total_ns / 1e3,
            totals[i].max_ns / 1e3);
  }
  free(totals);
  fputs("]}}\n", f);
  if (ferror(f) | fclose(f))
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "cannot write the profile '%s': %s", path,
                          strerror(errno));
  return ONNXC_OK;
}

static void write_at_exit(void) {
  pthread_mutex_lock(&prof_lock);
  if (__atomic_load_n(&prof_state, __ATOMIC_ACQUIRE) == 2 && prof_path &&
      write_locked(prof_path) != ONNXC_OK)
    fprintf(stderr, "onnxc: profile: %s\n", onnxc_last_error());
  __atomic_store_n(&prof_state, 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&prof_lock);
}

/* ---- The API (runtime.h) ------------------------------------------------ */

onnxc_status onnxc_profile_start(const char *path) {
  onnxc_status s;
  pthread_mutex_lock(&prof_lock);
  s = start_locked(path);
  pthread_mutex_unlock(&prof_lock);
  return s;
}

onnxc_status onnxc_profile_write(const char *path) {
  onnxc_status s;
  pthread_mutex_lock(&prof_lock);
  s = write_locked(path ? path : prof_path);
  pthread_mutex_unlock(&prof_lock);
  return s;
}

onnxc_status onnxc_profile_stop(void) {
  onnxc_status s = ONNXC_OK;
  pthread_mutex_lock(&prof_lock);
  if (__atomic_load_n(&prof_state, __ATOMIC_ACQUIRE) == 2 && prof_path)
    s = write_locked(prof_path);
  __atomic_store_n(&prof_state, 1, __ATOMIC_RELEASE);
  pthread_mutex_unlock(&prof_lock);
  return s;
}

int32_t onnxc_profile_summary(onnxc_profile_entry *entries, int32_t capacity) {
  int64_t count = 0, i;
  onnxc_profile_entry *totals;
  pthread_mutex_lock(&prof_lock);
  totals = merge_totals(&count);
  for (i = 0; entries && i < count && i < capacity; ++i)
    entries[i] = totals[i];
  pthread_mutex_unlock(&prof_lock);
  free(totals);
  return (int32_t)count;
}
