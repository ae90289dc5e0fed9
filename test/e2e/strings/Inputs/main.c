/* String tensors across the C API (docs/codegen.md, "String tensors"):
 * string inputs borrowed from the caller, string outputs allocated by the
 * model and freed by onnxc_tensor_release, the errors of bad string inputs.
 * Run under ASan with leak detection: every output block is released. */
#include "words.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void expect_str(const char *what, const char *got, const char *want) {
  if (strcmp(got, want) != 0) {
    printf("FAIL %s: got '%s', expected '%s'\n", what, got, want);
    ++failures;
  }
}

static void expect_status(const char *what, onnxc_status got,
                          onnxc_status want, const char *message) {
  if (got != want) {
    printf("FAIL %s: status %d, expected %d (%s)\n", what, (int)got, (int)want,
           onnxc_last_error());
    ++failures;
    return;
  }
  if (message && !strstr(onnxc_last_error(), message)) {
    printf("FAIL %s: message '%s' lacks '%s'\n", what, onnxc_last_error(),
           message);
    ++failures;
  }
  printf("%s: %s\n", what, got == ONNXC_OK ? "ok" : onnxc_last_error());
}

int main(void) {
  const char *s[3] = {"one", "two", "\xc3\xa9t\xc3\xa9"}; /* "été" */
  float x[3] = {0.5f, -2.0f, 1e10f};
  uint8_t is_one[3];
  float parsed[3];
  int64_t code[3];
  onnxc_tensor joined, upper;
  int round;

  /* Twice: the second call must not see the first one's strings. */
  for (round = 0; round < 2; ++round) {
    memset(&joined, 0, sizeof joined);
    memset(&upper, 0, sizeof upper);
    expect_status("run", words_run_typed(3, s, x, &joined, is_one, parsed,
                                         &upper, code),
                  ONNXC_OK, NULL);
    if (joined.dtype != ONNXC_DTYPE_STRING || joined.rank != 1 ||
        joined.shape[0] != 3 || !joined.owner) {
      printf("FAIL joined: dtype %d rank %d\n", joined.dtype, joined.rank);
      return 1;
    }
    {
      const char *const *j = (const char *const *)joined.data;
      const char *const *u = (const char *const *)upper.data;
      expect_str("joined[0]", j[0], "one:0.5");
      expect_str("joined[1]", j[1], "two:-2.0");
      expect_str("joined[2]", j[2], "\xc3\xa9t\xc3\xa9:10000000000.0");
      expect_str("upper[0]", u[0], "ONE");
      expect_str("upper[2]", u[2], "\xc3\xa9T\xc3\xa9"); /* C locale: ASCII */
      /* The output's strings are copies, not the caller's. */
      if (j[0] == s[0] || u[1] == s[1]) {
        printf("FAIL: an output string aliases an input\n");
        ++failures;
      }
    }
    if (is_one[0] != 1 || is_one[1] != 0 || is_one[2] != 0) {
      printf("FAIL is_one\n");
      ++failures;
    }
    if (parsed[0] != 0.5f || parsed[1] != -2.0f || parsed[2] != 1e10f) {
      printf("FAIL parsed %g %g %g\n", parsed[0], parsed[1], parsed[2]);
      ++failures;
    }
    if (code[0] != 1 || code[1] != 2 || code[2] != -1) {
      printf("FAIL code\n");
      ++failures;
    }
    onnxc_tensor_release(&joined);
    onnxc_tensor_release(&upper);
    if (joined.data || joined.owner) {
      printf("FAIL: release left data\n");
      ++failures;
    }
  }

  /* Bad inputs, through the generic entry point. */
  {
    onnxc_tensor in[2], out[5];
    const char *bad[3] = {"one", NULL, "x"};
    memset(in, 0, sizeof in);
    memset(out, 0, sizeof out);
    in[0].data = (void *)s;
    in[0].dtype = ONNXC_DTYPE_FLOAT; /* a string input passed as float */
    in[0].rank = 1;
    in[0].shape[0] = 3;
    in[1].data = x;
    in[1].dtype = ONNXC_DTYPE_FLOAT;
    in[1].rank = 1;
    in[1].shape[0] = 3;
    expect_status("float for string", words_run(in, 2, out, 5),
                  ONNXC_ERROR_DTYPE, "input 's': expected dtype string, got float");
    in[0].dtype = ONNXC_DTYPE_STRING;
    in[0].data = (void *)bad;
    expect_status("null string", words_run(in, 2, out, 5),
                  ONNXC_ERROR_INVALID_ARGUMENT,
                  "input 's': string 1 is a null pointer");
    /* A caller's buffer on a string output is ignored: the model
     * allocates it. */
    in[0].data = (void *)s;
    out[0].data = (void *)bad;
    out[0].dtype = ONNXC_DTYPE_STRING;
    out[0].rank = 1;
    out[0].shape[0] = 3;
    expect_status("preset string output", words_run(in, 2, out, 5), ONNXC_OK,
                  NULL);
    if (out[0].data == (void *)bad || !out[0].owner) {
      printf("FAIL: the string output was not model-allocated\n");
      ++failures;
    }
    {
      int k;
      for (k = 0; k < 5; ++k)
        onnxc_tensor_release(&out[k]);
    }
  }
  printf(failures ? "FAILED\n" : "PASSED\n");
  return failures != 0;
}
