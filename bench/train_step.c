/* bench/train_step.c - times the train step of an onnxc model library
 * (docs/training.md), for bench/train.
 *
 *   cc -std=c99 -O2 bench/train_step.c -Iruntime/include -ldl -o train_step
 *   train_step LIB.so NAME --steps N --warmup W --losses K \
 *              --input DTYPE:D0xD1x...:FILE ...
 *
 * dlopens LIB.so, reads each input (raw little-endian data; DTYPE f32 or
 * i64, the dims separated by 'x', "" for a scalar) in the order the step
 * takes them, creates a training state NAME_train_info() describes, then
 * runs W + N steps on the same inputs from the initial parameters and
 * prints
 *   loss K: <the step's first output>       for the first K steps
 *   step: N runs (W warm-up): median X ms, min Y ms; cpu median C ms, min D ms
 *   memory: B KB before the state, peak P KB
 * where each step is timed alone (CLOCK_MONOTONIC around one
 * onnxc_train_step, and CLOCK_PROCESS_CPUTIME_ID: the CPU time of all the
 * process's threads, steadier on a loaded machine) and the memory figures are the resident set just
 * before onnxc_train_create (after dlopen and reading the inputs, with the
 * high-water mark reset to it through /proc/self/clear_refs) and the
 * high-water mark (VmHWM) after the last step: their difference is the
 * training's peak resident growth (parameters, optimizer state, the
 * step's buffers). Exit status 1 on any error, with a one-line message on
 * stderr.
 */
#define _POSIX_C_SOURCE 200809L
#include "onnxc/runtime.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MAX_INPUTS 16

/* The runtime's functions, taken from the model library (each library
 * carries its own runtime). */
static onnxc_status (*p_create)(const onnxc_train_info *, onnxc_train_state **);
static void (*p_destroy)(onnxc_train_state *);
static onnxc_status (*p_step)(onnxc_train_state *, const onnxc_tensor *,
                              int32_t, onnxc_tensor *, int32_t);
static const onnxc_model_info *(*p_step_info)(const onnxc_train_state *);
static void (*p_release)(onnxc_tensor *);
static const char *(*p_last_error)(void);

static void die(const char *what, const char *detail) {
  fprintf(stderr, "train_step: error: %s%s%s\n", what, detail ? ": " : "",
          detail ? detail : "");
  exit(1);
}

/* The resident set ("VmRSS") or its high-water mark ("VmHWM") of this
 * process, KB, from /proc/self/status; -1 if unknown. */
static long status_kb(const char *key) {
  char line[256];
  long v = -1;
  size_t n = strlen(key);
  FILE *f = fopen("/proc/self/status", "r");
  if (!f)
    return -1;
  while (fgets(line, sizeof line, f))
    if (strncmp(line, key, n) == 0 && line[n] == ':') {
      v = atol(line + n + 1);
      break;
    }
  fclose(f);
  return v;
}

/* Resets the high-water mark to the current resident set (Linux 4.0+;
 * ignored where it fails: the mark then includes what came before). */
static void reset_hwm(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (f) {
    fputs("5", f);
    fclose(f);
  }
}

static double now_ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec * 1e3 + ts.tv_nsec * 1e-6;
}

static double median_of(double *xs, long n) {
  return n % 2 ? xs[n / 2] : 0.5 * (xs[n / 2 - 1] + xs[n / 2]);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* "f32:64x784:/path" -> a tensor whose data is the file's bytes. */
static void read_input(char *spec, onnxc_tensor *t) {
  char *dims = strchr(spec, ':'), *path, *p;
  FILE *f;
  long size;
  int64_t numel = 1;
  size_t esize;
  if (!dims || !(path = strchr(dims + 1, ':')))
    die("--input needs DTYPE:DIMS:FILE, got", spec);
  *dims++ = '\0';
  *path++ = '\0';
  memset(t, 0, sizeof *t);
  if (strcmp(spec, "f32") == 0)
    t->dtype = ONNXC_DTYPE_FLOAT;
  else if (strcmp(spec, "i64") == 0)
    t->dtype = ONNXC_DTYPE_INT64;
  else
    die("unknown dtype (f32 or i64)", spec);
  for (p = dims; *p;) {
    char *end;
    long long d = strtoll(p, &end, 10);
    if (end == p || d < 0 || t->rank == ONNXC_MAX_RANK)
      die("bad dims", dims);
    t->shape[t->rank++] = d;
    numel *= d;
    p = *end == 'x' ? end + 1 : end;
    if (*end && *end != 'x')
      die("bad dims", dims);
  }
  esize = t->dtype == ONNXC_DTYPE_FLOAT ? 4 : 8;
  if (!(f = fopen(path, "rb")) || fseek(f, 0, SEEK_END) != 0 ||
      (size = ftell(f)) != (long)(numel * (int64_t)esize))
    die("cannot read the input (or its size differs from its dims)", path);
  rewind(f);
  t->data = malloc(size ? (size_t)size : 1);
  if (!t->data || fread(t->data, 1, (size_t)size, f) != (size_t)size)
    die("cannot read", path);
  fclose(f);
}

int main(int argc, char **argv) {
  onnxc_tensor inputs[MAX_INPUTS];
  int num_inputs = 0, i;
  long steps = 100, warmup = 10, losses = 5, rss_before, rss_after;
  const char *lib_path, *name;
  char sym[256];
  void *lib;
  const onnxc_train_info *(*info)(void);
  onnxc_train_state *state = NULL;
  const onnxc_model_info *si;
  onnxc_tensor out[8];
  float loss_buf[8];
  double *times, *cpu;

  if (argc < 3)
    die("usage: train_step LIB.so NAME [--steps N] [--warmup W] [--losses K] "
        "--input DTYPE:DIMS:FILE ...", NULL);
  lib_path = argv[1];
  name = argv[2];
  for (i = 3; i < argc; ++i) {
    if (i + 1 >= argc)
      die("option needs a value", argv[i]);
    if (strcmp(argv[i], "--steps") == 0)
      steps = atol(argv[++i]);
    else if (strcmp(argv[i], "--warmup") == 0)
      warmup = atol(argv[++i]);
    else if (strcmp(argv[i], "--losses") == 0)
      losses = atol(argv[++i]);
    else if (strcmp(argv[i], "--input") == 0 && num_inputs < MAX_INPUTS)
      read_input(argv[++i], &inputs[num_inputs++]);
    else
      die("unknown option (or too many inputs)", argv[i]);
  }
  if (steps < 1 || warmup < 0 || losses < 0)
    die("--steps must be positive, --warmup and --losses not negative", NULL);

  if (!(lib = dlopen(lib_path, RTLD_NOW | RTLD_LOCAL)))
    die("dlopen", dlerror());
  snprintf(sym, sizeof sym, "%s_train_info", name);
  *(void **)&info = dlsym(lib, sym);
  if (!info)
    die("the library has no training info", sym);
#define SYM(p, n)                                                              \
  if (!(*(void **)&p = dlsym(lib, n)))                                         \
    die("the library lacks", n);
  SYM(p_create, "onnxc_train_create")
  SYM(p_destroy, "onnxc_train_destroy")
  SYM(p_step, "onnxc_train_step")
  SYM(p_step_info, "onnxc_train_step_info")
  SYM(p_release, "onnxc_tensor_release")
  SYM(p_last_error, "onnxc_last_error")
#undef SYM

  reset_hwm();
  rss_before = status_kb("VmRSS");
  if (p_create(info(), &state) != ONNXC_OK)
    die("onnxc_train_create", p_last_error());
  si = p_step_info(state);
  if (si->num_inputs != num_inputs)
    die("the step takes another number of inputs", NULL);
  if (si->num_outputs < 1 || si->num_outputs > 8 ||
      si->outputs[0].dtype != ONNXC_DTYPE_FLOAT || si->outputs[0].rank != 0)
    die("the step's first output is not a float scalar (the loss)", NULL);
  times = malloc(sizeof(double) * (size_t)(steps + warmup));
  cpu = malloc(sizeof(double) * (size_t)(steps + warmup));
  if (!times || !cpu)
    die("out of memory", NULL);

  for (i = 0; i < steps + warmup; ++i) {
    int o;
    double t0, t1, c0, c1;
    onnxc_status s;
    memset(out, 0, sizeof out);
    for (o = 0; o < si->num_outputs; ++o)
      if (si->outputs[o].rank == 0 && si->outputs[o].dtype == ONNXC_DTYPE_FLOAT) {
        out[o].data = &loss_buf[o]; /* caller-owned scalars */
        out[o].dtype = ONNXC_DTYPE_FLOAT;
      }
    c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
    t0 = now_ms(CLOCK_MONOTONIC);
    s = p_step(state, inputs, num_inputs, out, si->num_outputs);
    t1 = now_ms(CLOCK_MONOTONIC);
    c1 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
    if (s != ONNXC_OK)
      die("onnxc_train_step", p_last_error());
    for (o = 0; o < si->num_outputs; ++o)
      p_release(&out[o]);
    times[i] = t1 - t0;
    cpu[i] = c1 - c0;
    if (i < losses)
      printf("loss %d: %.9g\n", i + 1, loss_buf[0]);
  }
  rss_after = status_kb("VmHWM");
  qsort(times + warmup, (size_t)steps, sizeof(double), cmp_double);
  qsort(cpu + warmup, (size_t)steps, sizeof(double), cmp_double);
  printf("step: %ld runs (%ld warm-up): median %.4f ms, min %.4f ms; "
         "cpu median %.4f ms, min %.4f ms\n",
         steps, warmup, median_of(times + warmup, steps), times[warmup],
         median_of(cpu + warmup, steps), cpu[warmup]);
  printf("memory: %ld KB before the state, peak %ld KB\n", rss_before, rss_after);
  p_destroy(state);
  for (i = 0; i < num_inputs; ++i)
    free(inputs[i].data);
  free(times);
  free(cpu);
  return 0;
}
