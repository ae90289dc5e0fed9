/*===- errors.c - The runtime's errors and failed run-time checks ---------===*
 *
 * C99, libc only. The per-thread error state of the runtime: the message
 * onnxc_last_error() returns, and the target onnxc_rt_fail jumps to (set by
 * onnxc_rt_try around a model's code or a part of a kernel).
 *
 * Thread safety: every function may be called from several threads at once;
 * the error message and the jump target are thread-local. The functions are
 * exported (internal.h, ONNXC_SHARED_STATE), so that the model libraries of
 * one process bind to one copy of this state.
 *===----------------------------------------------------------------------===*/

#include "internal.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static ONNXC_THREAD_LOCAL char error_buf[ONNXC_RT_ERROR_CAP];
static ONNXC_THREAD_LOCAL jmp_buf *fail_target;
static ONNXC_THREAD_LOCAL int32_t fail_code;

/* Sets this thread's onnxc_last_error() message and returns `status`
 * (declared in internal.h for the other runtime files). */
onnxc_status onnxc_rt_error(onnxc_status status, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(error_buf, sizeof error_buf, fmt, ap);
  va_end(ap);
  return status;
}

const char *onnxc_last_error(void) { return error_buf; }

int32_t onnxc_abi_version(void) { return ONNXC_ABI_VERSION; }

void onnxc_rt_fail(int32_t code, const char *message) {
  if (!fail_target) {
    fprintf(stderr, "onnxc: run-time check failed outside a model run: %s\n",
            message ? message : "(no message)");
    abort();
  }
  snprintf(error_buf, sizeof error_buf, "%s",
           message ? message : "a run-time check failed");
  fail_code = code;
  longjmp(*fail_target, 1);
}

void onnxc_rt_fail_values(int32_t code, const char *message, int64_t v0,
                          int64_t v1, int64_t v2) {
  char buf[sizeof error_buf];
  const int64_t values[3] = {v0, v1, v2};
  size_t n = 0;
  int next = 0;
  const char *p;
  for (p = message ? message : ""; *p && n + 1 < sizeof buf; ++p) {
    if (*p == '\x01' && next < 3) {
      int w = snprintf(buf + n, sizeof buf - n, "%lld",
                       (long long)values[next++]);
      n = w < 0 ? n : n + (size_t)w < sizeof buf ? n + (size_t)w
                                                   : sizeof buf - 1;
      continue;
    }
    buf[n++] = *p;
  }
  buf[n] = '\0';
  onnxc_rt_fail(code, buf);
}

void onnxc_rt_fail_alloc_size(const char *site, int64_t elem_size,
                              int64_t rank, ...) {
  char buf[sizeof error_buf];
  size_t n = 0;
  int64_t d;
  int negative = 0;
  va_list ap;
  int w = snprintf(buf, sizeof buf, "%s%sa buffer of [", site ? site : "",
                   site ? ": " : "");
  n = w > 0 ? (size_t)w : 0;
  va_start(ap, rank);
  for (d = 0; d < rank; ++d) {
    int64_t dim = va_arg(ap, int64_t);
    negative |= dim < 0;
    if (n >= sizeof buf)
      continue;
    w = snprintf(buf + n, sizeof buf - n, "%s%lld", d ? ", " : "",
                 (long long)dim);
    n += w > 0 ? (size_t)w : 0;
  }
  va_end(ap);
  if (n < sizeof buf)
    snprintf(buf + n, sizeof buf - n, "] elements of %lld bytes %s",
             (long long)elem_size,
             negative ? "has a negative dim"
                      : "holds more than 2^63 - 1 bytes");
  onnxc_rt_fail(ONNXC_ERROR_RUNTIME, buf);
}

/* The previous target is restored so that calls may nest (a model called
 * from a custom kernel of another, a kernel's parallel region). */
int32_t onnxc_rt_try(void (*fn)(void *), void *arg, char *msg, size_t cap) {
  jmp_buf env;
  jmp_buf *volatile previous = fail_target;
  fail_target = &env;
  if (setjmp(env) != 0) {
    fail_target = previous;
    if (cap > 0)
      snprintf(msg, cap, "%s", error_buf);
    return fail_code != 0 ? fail_code : ONNXC_ERROR_RUNTIME;
  }
  fn(arg);
  fail_target = previous;
  return 0;
}
