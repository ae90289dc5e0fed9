/* Trains a small MLP classifier on two spirals with the train step that
 * onnxc compiled into the model library (train_mlp.so, through its
 * generated header train_mlp.h), then saves the training state, loads it
 * into a fresh state and checks that inference with the reloaded
 * parameters gives the same predictions. Exits non-zero on any failure.
 *
 *   python3 examples/train_mlp/make_model.py DIR/spiral_mlp.onnx
 *   build/bin/onnxc-make-trainable DIR/spiral_mlp.onnx -o DIR/train_mlp.onnx \
 *      --output logits --optimizer adam --lr 0.01
 *   build/bin/onnxc DIR/train_mlp.onnx -o DIR/train_mlp.so  (writes train_mlp.h)
 *   cc -std=c99 -Wall -Wextra -Werror main.c -IDIR DIR/train_mlp.so \
 *      -Wl,-rpath,DIR -lm -o main
 *   ./main DIR/train_mlp.state
 *
 * .ci/bootstrap does exactly this in build/examples/train_mlp/.
 */
#include "train_mlp.h"

#include "../common/train_example.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define POINTS_PER_CLASS 200
#define NUM_POINTS (2 * POINTS_PER_CLASS)
#define NUM_STEPS 600
#define HIDDEN_MAX 256

static const double kPi = 3.14159265358979323846;

/* Two interleaved spirals of two turns, class c rotated by c * pi, with a
 * little uniform noise: points[i] = (x, y), labels[i] = c. */
static void make_spirals(uint64_t seed, float *points, int64_t *labels) {
  uint64_t s = seed;
  int c, i;
  for (c = 0; c < 2; ++c)
    for (i = 0; i < POINTS_PER_CLASS; ++i) {
      int k = c * POINTS_PER_CLASS + i;
      double t = (i + uniform(&s)) / POINTS_PER_CLASS; /* 0..1 */
      double r = 0.1 + 0.9 * t;
      double a = 4.0 * kPi * t + c * kPi;
      points[2 * k] = (float)(r * cos(a) + 0.08 * (uniform(&s) - 0.5));
      points[2 * k + 1] = (float)(r * sin(a) + 0.08 * (uniform(&s) - 0.5));
      labels[k] = c;
    }
}

/* The model's forward (Gemm, Relu, Gemm, Relu, Gemm) in plain C on the
 * state's parameters; returns the number of logits further than 1e-4
 * (relative) from `logits`, or -1 when a parameter is missing. */
static int check_forward(onnxc_train_state *st, const float *points,
                         const float *logits) {
  static const char *const kW[3] = {"W1", "W2", "W3"};
  static const char *const kB[3] = {"B1", "B2", "B3"};
  const float *w[3], *b[3];
  int64_t rows[3], cols[3], r, c;
  int i, l, bad = 0;
  for (l = 0; l < 3; ++l) {
    w[l] = param(st, kW[l], 2, &rows[l], &cols[l]);
    b[l] = param(st, kB[l], 1, &r, &c);
    if (!w[l] || !b[l] || r != cols[l] || cols[l] > HIDDEN_MAX)
      return -1;
  }
  for (i = 0; i < NUM_POINTS; ++i) {
    double in[HIDDEN_MAX], out[HIDDEN_MAX];
    int64_t n = 2;
    in[0] = points[2 * i];
    in[1] = points[2 * i + 1];
    for (l = 0; l < 3; ++l) {
      if (rows[l] != n)
        return -1;
      for (c = 0; c < cols[l]; ++c) {
        double acc = b[l][c];
        for (r = 0; r < n; ++r)
          acc += in[r] * w[l][r * cols[l] + c];
        out[c] = l < 2 && acc < 0 ? 0 : acc;
      }
      n = cols[l];
      memcpy(in, out, (size_t)n * sizeof in[0]);
    }
    for (c = 0; c < 2; ++c) {
      double diff = fabs(in[c] - logits[2 * i + c]);
      if (!(diff <= 1e-4 * (1.0 + fabs(in[c])))) /* also catches NaN */
        ++bad;
    }
  }
  return bad;
}

int main(int argc, char **argv) {
  const char *state_path = argc > 1 ? argv[1] : "train_mlp.state";
  static float train_x[2 * NUM_POINTS], test_x[2 * NUM_POINTS];
  static int64_t train_y[NUM_POINTS], test_y[NUM_POINTS];
  static float logits[2 * NUM_POINTS], logits2[2 * NUM_POINTS];
  static int64_t pred[NUM_POINTS];
  onnxc_train_state *st = NULL, *st2 = NULL;
  double train_acc, test_acc;
  float loss = 0.0f;
  int step, mismatches, ok = 1;

  make_spirals(1, train_x, train_y);
  make_spirals(2, test_x, test_y);
  if (train_mlp_train_create(&st) != ONNXC_OK) {
    printf("train_create: %s\n", onnxc_last_error());
    return 1;
  }
  printf("model 'train_mlp': %d state tensors, %d points per step\n",
         (int)onnxc_train_num_params(st), NUM_POINTS);

  /* The loss curve: one full-batch Adam step per iteration. */
  for (step = 1; step <= NUM_STEPS; ++step) {
    if (train_mlp_train_step_typed(st, NUM_POINTS, train_x, train_y, &loss) !=
        ONNXC_OK) {
      printf("step %d: %s\n", step, onnxc_last_error());
      return 1;
    }
    if (step == 1 || step % 50 == 0)
      printf("step %4d: loss %.5f\n", step, loss);
  }

  /* Accuracy of the trained parameters, on the training points and on
   * points drawn with another seed. */
  if (train_mlp_train_infer_typed(st, NUM_POINTS, train_x, logits) != ONNXC_OK) {
    printf("train_infer: %s\n", onnxc_last_error());
    return 1;
  }
  predict(logits, NUM_POINTS, pred);
  train_acc = accuracy(pred, train_y, NUM_POINTS);
  if (train_mlp_train_infer_typed(st, NUM_POINTS, test_x, logits) != ONNXC_OK) {
    printf("train_infer: %s\n", onnxc_last_error());
    return 1;
  }
  predict(logits, NUM_POINTS, pred);
  test_acc = accuracy(pred, test_y, NUM_POINTS);
  printf("accuracy: train %.1f%%, test %.1f%% (%s 95%%)\n", train_acc, test_acc,
         train_acc > 95.0 && test_acc > 95.0 ? "above" : "NOT above");
  ok &= train_acc > 95.0 && test_acc > 95.0;

  /* The step's parameters against the same forward in plain C. */
  mismatches = check_forward(st, test_x, logits);
  printf("inference vs the C forward on the state's parameters: %s\n",
         mismatches == 0 ? "match" : "MISMATCH");
  ok &= mismatches == 0;

  /* Save, load into a fresh state (initialized from the model's initial
   * values), and predict again: the same logits, bit for bit. */
  if (onnxc_train_save(st, state_path) != ONNXC_OK ||
      train_mlp_train_create(&st2) != ONNXC_OK ||
      onnxc_train_load(st2, state_path) != ONNXC_OK ||
      train_mlp_train_infer_typed(st2, NUM_POINTS, test_x, logits2) != ONNXC_OK) {
    printf("save/load: %s\n", onnxc_last_error());
    return 1;
  }
  ok &= report_reloaded(logits, logits2, NUM_POINTS);

  /* The reloaded state trains on as the original does. */
  {
    float loss1 = 0.0f, loss2 = 0.0f;
    if (train_mlp_train_step_typed(st, NUM_POINTS, train_x, train_y, &loss1) !=
            ONNXC_OK ||
        train_mlp_train_step_typed(st2, NUM_POINTS, train_x, train_y, &loss2) !=
            ONNXC_OK) {
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
