/*===- random_test.c - Unit test of runtime/src/random.c -----------------===*
 *
 * The scalars the random ops get from the runtime: a node's call index
 * (counted per state from 0, restarted by onnxc_set_random_seed, distinct
 * across threads) and its key (from the seed attribute alone, or from the
 * process seed and the node id). The key values are pinned: they are the
 * stream's definition (docs/codegen.md#random-numbers; test/numeric/numpy/random's
 * reference computes the same).
 *
 *   onnxc-random-test          the checks; "N checks, 0 failed"
 *   onnxc-random-test seed     prints the process seed in effect
 *===----------------------------------------------------------------------===*/

#include "onnxc/runtime_abi.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int checks, failures;

#define CHECK(cond, ...)                                                       \
  do {                                                                         \
    ++checks;                                                                  \
    if (!(cond)) {                                                             \
      ++failures;                                                              \
      printf("FAIL line %d: ", __LINE__);                                      \
      printf(__VA_ARGS__);                                                     \
      printf("\n");                                                            \
    }                                                                          \
  } while (0)

static uint64_t double_bits(double d) {
  uint64_t u;
  memcpy(&u, &d, sizeof u);
  return u;
}

#define THREADS 8
#define CALLS 20000

static uint64_t shared_state[2];
static unsigned char seen[THREADS * CALLS];

static void *caller(void *arg) {
  int i;
  (void)arg;
  for (i = 0; i < CALLS; ++i) {
    uint64_t k = onnxc_rt_random_call(shared_state);
    if (k < THREADS * CALLS)
      __atomic_fetch_add(&seen[k], 1, __ATOMIC_RELAXED);
  }
  return NULL;
}

int main(int argc, char **argv) {
  uint64_t a[2] = {0, 0}, b[2] = {0, 0};
  uint64_t k0, k1, u0, u1, u2;
  pthread_t t[THREADS];
  int i, once = 1;

  if (argc > 1 && strcmp(argv[1], "seed") == 0) {
    printf("seed: %llu\n", (unsigned long long)onnxc_get_random_seed());
    return 0;
  }

  /* Call indices: per state, from 0. */
  CHECK(onnxc_rt_random_call(a) == 0, "first call of a");
  CHECK(onnxc_rt_random_call(a) == 1, "second call of a");
  CHECK(onnxc_rt_random_call(b) == 0, "first call of b");
  CHECK(onnxc_rt_random_call(a) == 2, "third call of a");

  /* A seeded key depends on the seed alone: pinned values (a float seed
   * 3.0 by its double bits, Dropout's int seed 42 as is). */
  k0 = onnxc_rt_random_key(1, 1, double_bits(3.0));
  CHECK(k0 == 0x70ad42955cdcb900ull, "seeded key of 3.0: %#llx",
        (unsigned long long)k0);
  CHECK(onnxc_rt_random_key(2, 1, double_bits(3.0)) == k0,
        "seeded key independent of the node");
  k1 = onnxc_rt_random_key(1, 1, 42);
  CHECK(k1 == 0x15afcfba9e47c2fcull, "seeded key of 42: %#llx",
        (unsigned long long)k1);

  /* set_random_seed: the seed in effect, every count restarted. */
  onnxc_set_random_seed(7);
  CHECK(onnxc_get_random_seed() == 7, "get after set");
  CHECK(onnxc_rt_random_call(a) == 0, "a restarted");
  CHECK(onnxc_rt_random_call(a) == 1, "a counts again");
  CHECK(onnxc_rt_random_call(b) == 0, "b restarted");
  CHECK(onnxc_rt_random_key(1, 1, double_bits(3.0)) == k0,
        "seeded key unchanged by the process seed");

  /* An unseeded key: from the process seed and the node id (pinned). */
  u0 = onnxc_rt_random_key(99, 0, 0);
  CHECK(u0 == 0x635e12c6f0c637d9ull, "unseeded key, seed 7, node 99: %#llx",
        (unsigned long long)u0);
  CHECK(onnxc_rt_random_key(99, 0, 12345) == u0,
        "an unseeded node ignores the seed argument");
  u1 = onnxc_rt_random_key(100, 0, 0);
  CHECK(u1 != u0, "another node, another key");
  onnxc_set_random_seed(8);
  u2 = onnxc_rt_random_key(99, 0, 0);
  CHECK(u2 != u0, "another seed, another key");
  onnxc_set_random_seed(7);
  CHECK(onnxc_rt_random_key(99, 0, 0) == u0, "seed 7 again, the same key");

  /* Threads: every call index of one state handed out exactly once. */
  for (i = 0; i < THREADS; ++i)
    pthread_create(&t[i], NULL, caller, NULL);
  for (i = 0; i < THREADS; ++i)
    pthread_join(t[i], NULL);
  for (i = 0; i < THREADS * CALLS; ++i)
    if (seen[i] != 1 && once) {
      once = 0;
      CHECK(0, "call index %d handed out %d times", i, seen[i]);
    }
  CHECK(once, "%d threads x %d calls: indices 0..%d once each", THREADS,
        CALLS, THREADS * CALLS - 1);
  CHECK(onnxc_rt_random_call(shared_state) == THREADS * CALLS,
        "the next index");

  printf("%d checks, %d failed\n", checks, failures);
  return failures != 0;
}
