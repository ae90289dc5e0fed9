/*===- random.c - Keys and call indices of the random ops ----------------===*
 *
 * The random ops (RandomUniform, RandomNormal, their *Like forms,
 * Bernoulli, Multinomial, Dropout in training mode) compute their values in
 * generated code: element i of the k-th call of a node is a function of
 * Philox4x32-10 applied to the counter (i, k) under the node's key
 * (docs/codegen.md#random-numbers). The runtime only hands out the two
 * scalars: the key (onnxc_rt_random_key) and the call index k
 * (onnxc_rt_random_call), from the process-wide state below.
 *
 * State: the process seed (onnxc_set_random_seed, else ONNXC_RANDOM_SEED,
 * else drawn from the clock, the process id and an address) and an epoch
 * that every onnxc_set_random_seed advances. Each random node of a model
 * library owns two 64-bit words (an internal global of the library, zero at
 * load): the epoch of its last call and its call count. A call from an
 * older epoch restarts the count at 0. One mutex guards it all: a node call
 * costs one lock, not one per element.
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t random_mu = PTHREAD_MUTEX_INITIALIZER;
static uint64_t random_seed;
static int random_seed_known; /* guarded by random_mu */
/* Starts at 1 so that a node's zeroed state is from an older epoch (the
 * restart then sets its count to 0, which it already is). */
static uint64_t random_epoch = 1;

/* SplitMix64's output function (Steele, Lea, Flood 2014): a bijection of
 * 64-bit words that mixes every input bit into every output bit. */
static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* The process seed, with random_mu held: ONNXC_RANDOM_SEED (strtoull,
 * base 0: decimal, 0x hex or 0 octal), else a different seed per process. */
static uint64_t seed_locked(void) {
  if (!random_seed_known) {
    const char *env = getenv("ONNXC_RANDOM_SEED");
    char *end = NULL;
    int ok = 0;
    if (env && env[0]) {
      unsigned long long v = strtoull(env, &end, 0);
      if (*end == '\0' && env[0] != '-') {
        random_seed = (uint64_t)v;
        ok = 1;
      } else {
        fprintf(stderr,
                "onnxc: ignoring ONNXC_RANDOM_SEED='%s' (not an unsigned "
                "integer)\n",
                env);
      }
    }
    if (!ok) {
      struct timespec ts;
      int local;
      clock_gettime(CLOCK_REALTIME, &ts);
      random_seed = mix64((uint64_t)ts.tv_sec * 1000000000ull +
                          (uint64_t)ts.tv_nsec) ^
                    mix64((uint64_t)getpid()) ^
                    mix64((uint64_t)(uintptr_t)&local);
    }
    random_seed_known = 1;
  }
  return random_seed;
}

void onnxc_set_random_seed(uint64_t seed) {
  pthread_mutex_lock(&random_mu);
  random_seed = seed;
  random_seed_known = 1;
  ++random_epoch;
  pthread_mutex_unlock(&random_mu);
}

uint64_t onnxc_get_random_seed(void) {
  uint64_t s;
  pthread_mutex_lock(&random_mu);
  s = seed_locked();
  pthread_mutex_unlock(&random_mu);
  return s;
}

uint64_t onnxc_rt_random_key(uint64_t node_id, int32_t has_seed,
                             uint64_t seed) {
  uint64_t s;
  if (has_seed)
    return mix64(seed ^ 0x6F6E6E78635F7364ull); /* "onnxc_sd" */
  pthread_mutex_lock(&random_mu);
  s = seed_locked();
  pthread_mutex_unlock(&random_mu);
  return mix64(s ^ mix64(node_id));
}

uint64_t onnxc_rt_random_call(uint64_t *state) {
  uint64_t k;
  pthread_mutex_lock(&random_mu);
  if (state[0] != random_epoch) {
    state[0] = random_epoch;
    state[1] = 0;
  }
  k = state[1]++;
  pthread_mutex_unlock(&random_mu);
  return k;
}
