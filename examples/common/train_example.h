/* What the training examples (train_mlp, train_loop) share: a fixed-seed
 * generator for their data, the predictions and accuracy of two-class
 * logits, a float parameter of the training state, and the report that a
 * state saved and loaded into a fresh one predicts and trains on as the
 * original. Header only, C99; include it after the model's generated
 * header (onnxc/runtime.h's training API). Each main.c includes it by a
 * path relative to itself, so the build commands need nothing more.
 */
#ifndef ONNXC_EXAMPLES_TRAIN_EXAMPLE_H
#define ONNXC_EXAMPLES_TRAIN_EXAMPLE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* splitmix64: a fixed-seed generator, the same data on every machine. */
static inline uint64_t next_u64(uint64_t *s) {
  uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/* Uniform in [0, 1). */
static inline double uniform(uint64_t *s) {
  return (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* The class of each of the `n` rows of `logits` (argmax of two). */
static inline void predict(const float *logits, int n, int64_t *pred) {
  int i;
  for (i = 0; i < n; ++i)
    pred[i] = logits[2 * i + 1] > logits[2 * i] ? 1 : 0;
}

/* The percentage of the `n` predictions equal to their labels. */
static inline double accuracy(const int64_t *pred, const int64_t *labels,
                              int n) {
  int i, right = 0;
  for (i = 0; i < n; ++i)
    right += pred[i] == labels[i];
  return 100.0 * right / n;
}

/* A float parameter of the state (a view) with `rank` dims (1 or 2), or
 * NULL after printing why; `cols` is 1 for a rank of 1. */
static inline const float *param(onnxc_train_state *st, const char *name,
                                 int rank, int64_t *rows, int64_t *cols) {
  onnxc_tensor t;
  memset(&t, 0, sizeof t);
  if (onnxc_train_get_param(st, name, &t) != ONNXC_OK ||
      t.dtype != ONNXC_DTYPE_FLOAT || t.rank != rank) {
    printf("parameter '%s': %s\n", name, onnxc_last_error());
    return NULL;
  }
  *rows = t.shape[0];
  *cols = rank == 2 ? t.shape[1] : 1;
  return (const float *)t.data;
}

/* Prints how many of the `n` rows of the reloaded state's logits (and
 * predictions) equal the original's, bit for bit; 1 when all do. */
static inline int report_reloaded(const float *logits, const float *reloaded,
                                  int n) {
  int i, mismatches = 0;
  for (i = 0; i < n; ++i) {
    int64_t p[2];
    predict(&logits[2 * i], 1, &p[0]);
    predict(&reloaded[2 * i], 1, &p[1]);
    mismatches += p[0] != p[1] ||
                  memcmp(&logits[2 * i], &reloaded[2 * i], 2 * sizeof(float)) != 0;
  }
  printf("reloaded state: %d of %d predictions identical%s\n", n - mismatches,
         n, mismatches == 0 ? ", logits bit-identical" : "");
  return mismatches == 0;
}

/* Prints the losses of one more step from the original and the reloaded
 * state; 1 when they are equal. */
static inline int report_next_step(float original, float reloaded) {
  printf("next step: loss %.5f original, %.5f reloaded%s\n", original,
         reloaded, original == reloaded ? " (equal)" : " (DIFFERENT)");
  return original == reloaded;
}

#endif /* ONNXC_EXAMPLES_TRAIN_EXAMPLE_H */
