/* Trains a recurrent classifier written as an ONNX Loop with the train step
 * that onnxc compiled into the model library (train_loop.so, through its
 * generated header train_loop.h): the gradient flows back through every
 * iteration of the Loop. The task is to tell two kinds of noisy waves apart
 * by their period; the sequence length T and the batch N are symbolic.
 * Then it checks the trained model against the same recurrence in plain C,
 * on sequences longer than those it trained on, and saves the training
 * state, loads it into a fresh state and checks that inference with the
 * reloaded parameters gives the same predictions. Exits non-zero on any
 * failure.
 *
 *   python3 examples/train_loop/make_model.py DIR/rnn_classifier.onnx
 *   build/bin/onnxc-make-trainable DIR/rnn_classifier.onnx \
 *      -o DIR/train_loop.onnx --output logits --optimizer adam --lr 0.02
 *   build/bin/onnxc DIR/train_loop.onnx -o DIR/train_loop.so  (writes train_loop.h)
 *   cc -std=c99 -Wall -Wextra -Werror main.c -IDIR DIR/train_loop.so \
 *      -Wl,-rpath,DIR -lm -o main
 *   ./main DIR/train_loop.state
 *
 * .ci/bootstrap does exactly this in build/examples/train_loop/.
 */
#include "train_loop.h"

#include "../common/train_example.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NUM_SEQS 256 /* sequences per step (half of each class) */
#define TRAIN_LEN 20 /* time steps of the training sequences */
#define LONG_LEN 32  /* and of the longer ones it is also tested on */
#define MAX_LEN 32
#define NUM_STEPS 300
#define HIDDEN_MAX 64

static const double kPi = 3.14159265358979323846;
/* The periods (in time steps) of the two classes. */
static const double kPeriod[2] = {8.0, 6.0};

/* NUM_SEQS waves of `len` steps, layout [T, N, 1] (time major, as the
 * Loop reads them): sequence k is class k % 2, a sine of that class's
 * period with a random amplitude in [0.5, 1.5], a random phase and
 * uniform noise of +-0.2. */
static void make_waves(uint64_t seed, int len, float *seq, int64_t *labels) {
  uint64_t s = seed;
  int k, t;
  for (k = 0; k < NUM_SEQS; ++k) {
    int c = k % 2;
    double amp = 0.5 + uniform(&s), phase = 2.0 * kPi * uniform(&s);
    labels[k] = c;
    for (t = 0; t < len; ++t)
      seq[t * NUM_SEQS + k] =
          (float)(amp * sin(2.0 * kPi * t / kPeriod[c] + phase) +
                  0.4 * (uniform(&s) - 0.5));
  }
}

/* The model's forward in plain C on the state's parameters: the recurrence
 * h_t = tanh(x_t W + h_{t-1} R + b) from h_0 = 0 over `len` steps, then
 * logits = h_len W_out + b_out. Returns the number of logits further than
 * 1e-4 (relative) from `logits`, or -1 when a parameter is missing. */
static int check_forward(onnxc_train_state *st, int len, const float *seq,
                         const float *logits) {
  const float *w, *r, *b, *wo, *bo;
  int64_t h, rows, cols;
  int k, t, i, j, bad = 0;
  w = param(st, "W", 2, &rows, &h);
  if (!w || rows != 1 || h > HIDDEN_MAX)
    return -1;
  r = param(st, "R", 2, &rows, &cols);
  if (!r || rows != h || cols != h)
    return -1;
  b = param(st, "b", 1, &rows, &cols);
  if (!b || rows != h)
    return -1;
  wo = param(st, "W_out", 2, &rows, &cols);
  if (!wo || rows != h || cols != 2)
    return -1;
  bo = param(st, "b_out", 1, &rows, &cols);
  if (!bo || rows != 2)
    return -1;
  for (k = 0; k < NUM_SEQS; ++k) {
    double state[HIDDEN_MAX] = {0}, next[HIDDEN_MAX];
    for (t = 0; t < len; ++t) {
      for (j = 0; j < h; ++j) {
        double acc = seq[t * NUM_SEQS + k] * w[j] + b[j];
        for (i = 0; i < h; ++i)
          acc += state[i] * r[i * h + j];
        next[j] = tanh(acc);
      }
      memcpy(state, next, (size_t)h * sizeof state[0]);
    }
    for (j = 0; j < 2; ++j) {
      double out = bo[j], diff;
      for (i = 0; i < h; ++i)
        out += state[i] * wo[i * 2 + j];
      diff = fabs(out - logits[2 * k + j]);
      if (!(diff <= 1e-4 * (1.0 + fabs(out)))) /* also catches NaN */
        ++bad;
    }
  }
  return bad;
}

int main(int argc, char **argv) {
  const char *state_path = argc > 1 ? argv[1] : "train_loop.state";
  static float train_x[TRAIN_LEN * NUM_SEQS], test_x[TRAIN_LEN * NUM_SEQS];
  static float long_x[LONG_LEN * NUM_SEQS];
  static int64_t train_y[NUM_SEQS], test_y[NUM_SEQS], long_y[NUM_SEQS];
  static float logits[2 * NUM_SEQS], logits2[2 * NUM_SEQS];
  static int64_t pred[NUM_SEQS];
  onnxc_train_state *st = NULL, *st2 = NULL;
  double train_acc, test_acc, long_acc;
  float loss = 0.0f;
  int step, mismatches, ok = 1;

  make_waves(1, TRAIN_LEN, train_x, train_y);
  make_waves(2, TRAIN_LEN, test_x, test_y);
  make_waves(3, LONG_LEN, long_x, long_y);
  if (train_loop_train_create(&st) != ONNXC_OK) {
    printf("train_create: %s\n", onnxc_last_error());
    return 1;
  }
  printf("model 'train_loop': %d state tensors, %d sequences of %d steps per "
         "train step\n",
         (int)onnxc_train_num_params(st), NUM_SEQS, TRAIN_LEN);

  /* The loss curve: one full-batch Adam step per iteration, each a forward
   * Loop over the sequence and a backward Loop over it in reverse. */
  for (step = 1; step <= NUM_STEPS; ++step) {
    if (train_loop_train_step_typed(st, TRAIN_LEN, NUM_SEQS, train_x, train_y,
                                    &loss) != ONNXC_OK) {
      printf("step %d: %s\n", step, onnxc_last_error());
      return 1;
    }
    if (step == 1 || step % 25 == 0)
      printf("step %4d: loss %.5f\n", step, loss);
  }

  /* Accuracy of the trained parameters: on the training sequences, on
   * sequences drawn with another seed, and on longer ones (the same
   * library: T is symbolic, the Loop runs LONG_LEN iterations). */
  if (train_loop_train_infer_typed(st, TRAIN_LEN, NUM_SEQS, train_x, logits) !=
      ONNXC_OK) {
    printf("train_infer: %s\n", onnxc_last_error());
    return 1;
  }
  predict(logits, NUM_SEQS, pred);
  train_acc = accuracy(pred, train_y, NUM_SEQS);
  if (train_loop_train_infer_typed(st, LONG_LEN, NUM_SEQS, long_x, logits) !=
      ONNXC_OK) {
    printf("train_infer: %s\n", onnxc_last_error());
    return 1;
  }
  predict(logits, NUM_SEQS, pred);
  long_acc = accuracy(pred, long_y, NUM_SEQS);
  mismatches = check_forward(st, LONG_LEN, long_x, logits);
  printf("inference vs the C recurrence on the state's parameters (T=%d): %s\n",
         LONG_LEN, mismatches == 0 ? "match" : "MISMATCH");
  ok &= mismatches == 0;
  if (train_loop_train_infer_typed(st, TRAIN_LEN, NUM_SEQS, test_x, logits) !=
      ONNXC_OK) {
    printf("train_infer: %s\n", onnxc_last_error());
    return 1;
  }
  predict(logits, NUM_SEQS, pred);
  test_acc = accuracy(pred, test_y, NUM_SEQS);
  printf("accuracy: train %.1f%%, test %.1f%% (%s 95%%), test at T=%d %.1f%%\n",
         train_acc, test_acc,
         train_acc > 95.0 && test_acc > 95.0 ? "above" : "NOT above", LONG_LEN,
         long_acc);
  ok &= train_acc > 95.0 && test_acc > 95.0;

  /* The gradient reached the Loop body: the recurrent weights R (read only
   * inside the body) moved away from their initial values, which a fresh
   * state holds. */
  if (train_loop_train_create(&st2) != ONNXC_OK) {
    printf("train_create: %s\n", onnxc_last_error());
    return 1;
  }
  {
    int64_t rows, cols, rows0, cols0, moved = 0, k;
    const float *r = param(st, "R", 2, &rows, &cols);
    const float *r0 = param(st2, "R", 2, &rows0, &cols0);
    if (!r || !r0 || rows != rows0 || cols != cols0)
      return 1;
    for (k = 0; k < rows * cols; ++k)
      moved += r[k] != r0[k];
    printf("recurrent weights R: %d of %d changed by training\n", (int)moved,
           (int)(rows * cols));
    ok &= moved == rows * cols;
  }

  /* Save, load into the fresh state, and predict again: the same logits,
   * bit for bit. */
  if (onnxc_train_save(st, state_path) != ONNXC_OK ||
      onnxc_train_load(st2, state_path) != ONNXC_OK ||
      train_loop_train_infer_typed(st2, TRAIN_LEN, NUM_SEQS, test_x, logits2) !=
          ONNXC_OK) {
    printf("save/load: %s\n", onnxc_last_error());
    return 1;
  }
  ok &= report_reloaded(logits, logits2, NUM_SEQS);

  /* The reloaded state trains on as the original does. */
  {
    float loss1 = 0.0f, loss2 = 0.0f;
    if (train_loop_train_step_typed(st, TRAIN_LEN, NUM_SEQS, train_x, train_y,
                                    &loss1) != ONNXC_OK ||
        train_loop_train_step_typed(st2, TRAIN_LEN, NUM_SEQS, train_x, train_y,
                                    &loss2) != ONNXC_OK) {
      printf("step after reload: %s\n", onnxc_last_error());
      return 1;
    }
    ok &= report_next_step(loss1, loss2);
  }

  onnxc_train_destroy(st);
  onnxc_train_destroy(st2);
  printf("%s\n", ok ? "OK" : "FAILED");
  return ok ? 0 : 1;
}
