/* The C API attacked (the fourth attack, 2026-11-26; api.test): null
 * pointers, bad counts, ranks, dims, dtypes and kinds, preset outputs that
 * do not fit, unaligned and aliased buffers, sequences, strings and maps
 * that break the contract of runtime.h. Each case runs in a child process
 * and prints its status and message, or the signal that killed it. Cases
 * where the caller lies about memory it passes (float data labelled as
 * strings, counts past the end of its arrays) are not here: no C API can
 * check a pointer (test/e2e/sanitize catches them under ASan). */

#include "add_bcast.h"
#include "sequenceat_pos.h"
#include "words.h"
#include "maps.h"
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static onnxc_tensor ten(void *data, int32_t dtype, int32_t rank, int64_t d0, int64_t d1) {
  onnxc_tensor t; memset(&t, 0, sizeof t);
  t.data = data; t.dtype = dtype; t.rank = rank; t.shape[0] = d0; t.shape[1] = d1;
  return t;
}
static float fa[4] = {1, 2, 3, 4}, fb[4] = {5, 6, 7, 8};
static int64_t zero64 = 0;

#define CASE(name, ...) do { fflush(stdout); pid_t p = fork(); if (p == 0) { onnxc_status s; __VA_ARGS__; \
  printf("%-34s status %d: %s\n", name, (int)s, s ? onnxc_last_error() : "ok"); fflush(stdout); _exit(0);} \
  int st; waitpid(p, &st, 0); if (WIFSIGNALED(st)) printf("%-34s KILLED by signal %d\n", name, WTERMSIG(st)); } while (0)

static onnxc_status add(onnxc_tensor a, onnxc_tensor b, onnxc_tensor *o) {
  onnxc_tensor in[2]; in[0] = a; in[1] = b; memset(o, 0, sizeof *o);
  return add_bcast_run(in, 2, o, 1);
}

int main(void) {
  onnxc_tensor o, in[2], out[5];
  onnxc_tensor A = ten(fa, ONNXC_DTYPE_FLOAT, 1, 2, 0), Bt = ten(fb, ONNXC_DTYPE_FLOAT, 1, 2, 0);
  CASE("good", s = add(A, Bt, &o));
  CASE("inputs NULL", memset(&o,0,sizeof o); s = add_bcast_run(NULL, 2, &o, 1));
  CASE("num_inputs -1", in[0]=A; in[1]=Bt; memset(&o,0,sizeof o); s = add_bcast_run(in, -1, &o, 1));
  CASE("num_inputs INT32_MAX", in[0]=A; in[1]=Bt; memset(&o,0,sizeof o); s = add_bcast_run(in, 0x7fffffff, &o, 1));
  CASE("outputs NULL", in[0]=A; in[1]=Bt; s = add_bcast_run(in, 2, NULL, 1));
  CASE("num_outputs 0", in[0]=A; in[1]=Bt; s = add_bcast_run(in, 2, &o, 0));
  CASE("num_outputs -7", in[0]=A; in[1]=Bt; s = add_bcast_run(in, 2, &o, -7));
  CASE("data NULL", s = add(ten(NULL, 1, 1, 2, 0), Bt, &o));
  CASE("data NULL empty", s = add(ten(NULL, 1, 1, 0, 0), ten(NULL, 1, 1, 0, 0), &o));
  CASE("rank -1", s = add(ten(fa, 1, -1, 2, 0), Bt, &o));
  CASE("rank 17", s = add(ten(fa, 1, 17, 2, 0), Bt, &o));
  CASE("rank 2", s = add(ten(fa, 1, 2, 2, 1), Bt, &o));
  CASE("rank 0", s = add(ten(fa, 1, 0, 0, 0), Bt, &o));
  CASE("dim -2", s = add(ten(fa, 1, 1, -2, 0), Bt, &o));
  CASE("dim 2^62", s = add(ten(fa, 1, 1, (int64_t)1 << 62, 0), ten(fb, 1, 1, (int64_t)1 << 62, 0), &o));
  CASE("dim INT64_MIN", s = add(ten(fa, 1, 1, INT64_MIN, 0), Bt, &o));
  CASE("dtype int64", s = add(ten(fa, ONNXC_DTYPE_INT64, 1, 2, 0), Bt, &o));
  CASE("dtype 999", s = add(ten(fa, 999, 1, 2, 0), Bt, &o));
  CASE("dtype -5", s = add(ten(fa, -5, 1, 2, 0), Bt, &o));
  CASE("dtype string", s = add(ten(fa, ONNXC_DTYPE_STRING, 1, 2, 0), Bt, &o));
  CASE("kind 99", { onnxc_tensor a = A; a.kind = 99; s = add(a, Bt, &o); });
  CASE("kind -1", { onnxc_tensor a = A; a.kind = -1; s = add(a, Bt, &o); });
  CASE("kind sequence for tensor", { onnxc_tensor a = A; a.kind = ONNXC_VALUE_SEQUENCE; a.num_items = 1; a.items = &Bt; s = add(a, Bt, &o); });
  CASE("kind map for tensor", { onnxc_tensor a = A; a.kind = ONNXC_VALUE_MAP; a.num_items = 2; s = add(a, Bt, &o); });
  CASE("unaligned data", { char *buf = malloc(64); float *u = (float *)(buf + 1); memcpy(u, fa, 8); s = add(ten(u, 1, 1, 2, 0), ten(u, 1, 1, 2, 0), &o); if (!s) printf("  unaligned result %g %g\n", ((float*)o.data)[0], ((float*)o.data)[1]); });
  CASE("unaligned big", { size_t n = 1000; char *buf = malloc(4*n+8); float *u = (float *)(buf + 3); for (size_t i=0;i<n;++i) u[i]=1; s = add(ten(u, 1, 1, n, 0), ten(u, 1, 1, n, 0), &o); if (!s) printf("  unaligned big %g\n", ((float*)o.data)[999]); });
  CASE("preset out wrong shape", { float r[3]; in[0]=A; in[1]=Bt; o = ten(r, 1, 1, 3, 0); s = add_bcast_run(in, 2, &o, 1); });
  CASE("preset out wrong dtype", { float r[2]; in[0]=A; in[1]=Bt; o = ten(r, ONNXC_DTYPE_INT32, 1, 2, 0); s = add_bcast_run(in, 2, &o, 1); });
  CASE("preset out rank 17", { float r[2]; in[0]=A; in[1]=Bt; o = ten(r, 1, 17, 2, 0); s = add_bcast_run(in, 2, &o, 1); });
  CASE("preset out dim huge", { float r[2]; in[0]=A; in[1]=Bt; o = ten(r, 1, 1, (int64_t)1<<62, 0); s = add_bcast_run(in, 2, &o, 1); });
  CASE("preset out aliases input", { float r[2] = {1, 2}; in[0]=ten(r,1,1,2,0); in[1]=Bt; o = ten(r, 1, 1, 2, 0); s = add_bcast_run(in, 2, &o, 1); if (!s) printf("  alias result %g %g\n", r[0], r[1]); });
  CASE("preset out kind seq", { float r[2]; in[0]=A; in[1]=Bt; o = ten(r, 1, 1, 2, 0); o.kind = ONNXC_VALUE_SEQUENCE; s = add_bcast_run(in, 2, &o, 1); });
  CASE("preset out owner garbage", { float r[2]; in[0]=A; in[1]=Bt; o = ten(r, 1, 1, 2, 0); o.owner = (void*)0x1234; s = add_bcast_run(in, 2, &o, 1); });
  CASE("same struct in and out", { in[0]=A; in[1]=Bt; s = add_bcast_run(in, 2, &in[0], 1); });
  CASE("release NULL", { onnxc_tensor_release(NULL); s = 0; });
  CASE("release zeroed twice", { memset(&o,0,sizeof o); onnxc_tensor_release(&o); onnxc_tensor_release(&o); s = 0; });
  CASE("release output twice", { s = add(A, Bt, &o); onnxc_tensor_release(&o); onnxc_tensor_release(&o); });
  CASE("numel NULL", { s = onnxc_tensor_numel(NULL) == -1 ? 0 : 1; });
  CASE("threads INT32_MIN", s = onnxc_set_num_threads(INT32_MIN));
  CASE("threads INT32_MAX", { s = onnxc_set_num_threads(INT32_MAX); if (!s) s = add(A, Bt, &o); });
  CASE("memlimit INT64_MAX", { s = onnxc_set_memory_limit(INT64_MAX); if (!s) s = add(A, Bt, &o); });
  CASE("memlimit 1", { s = onnxc_set_memory_limit(1); if (!s) s = add(A, Bt, &o); });
  CASE("memlimit 0", { s = onnxc_set_memory_limit(0); if (!s) s = add(A, Bt, &o); });
  CASE("status_string 99", { printf("  '%s' '%s'\n", onnxc_status_string(99), onnxc_status_string(-1)); s = 0; });
  CASE("dtype_name 999", { printf("  '%s' '%s' %zu %zu\n", onnxc_dtype_name(999), onnxc_dtype_name(-3), onnxc_dtype_size(-3), onnxc_dtype_bytes(1, -5)); s = 0; });
  CASE("dtype_bytes overflow", { printf("  %zu %zu\n", onnxc_dtype_bytes(ONNXC_DTYPE_DOUBLE, INT64_MAX), onnxc_dtype_bytes(ONNXC_DTYPE_INT4, INT64_MAX)); s = 0; });
  /* Sequences. */
  {
    onnxc_tensor items[3], pos = ten(&zero64, ONNXC_DTYPE_INT64, 0, 0, 0);
    items[0] = A; items[1] = Bt; items[2] = A;
#define SEQRUN(seqv) (in[0] = (seqv), in[1] = pos, memset(&o, 0, sizeof o), sequenceat_pos_run(in, 2, &o, 1))
    CASE("seq good", s = SEQRUN(onnxc_make_sequence(items, 2)));
    CASE("seq num_items -1", s = SEQRUN(onnxc_make_sequence(items, -1)));
    CASE("seq items NULL", s = SEQRUN(onnxc_make_sequence(NULL, 2)));
    CASE("seq empty items NULL", s = SEQRUN(onnxc_make_sequence(NULL, 0)));
    CASE("seq item dtype", { onnxc_tensor it[2]; it[0] = A; it[1] = ten(fa, ONNXC_DTYPE_INT32, 1, 2, 0); s = SEQRUN(onnxc_make_sequence(it, 2)); });
    CASE("seq item rank", { onnxc_tensor it[2]; it[0] = A; it[1] = ten(fa, 1, 2, 1, 2); s = SEQRUN(onnxc_make_sequence(it, 2)); });
    CASE("seq item rank 17", { onnxc_tensor it[2]; it[0] = A; it[1] = ten(fa, 1, 17, 1, 2); s = SEQRUN(onnxc_make_sequence(it, 2)); });
    CASE("seq item data NULL", { onnxc_tensor it[2]; it[0] = ten(NULL, 1, 1, 2, 0); it[1] = Bt; s = SEQRUN(onnxc_make_sequence(it, 2)); });
    CASE("seq item dim neg", { onnxc_tensor it[2]; it[0] = ten(fa, 1, 1, -2, 0); it[1] = Bt; s = SEQRUN(onnxc_make_sequence(it, 2)); });
    CASE("seq item dim 2^62", { onnxc_tensor it[2]; it[0] = ten(fa, 1, 1, (int64_t)1<<62, 0); it[1] = Bt; s = SEQRUN(onnxc_make_sequence(it, 2)); });
    CASE("seq item is seq", { onnxc_tensor inner = onnxc_make_sequence(items, 2); onnxc_tensor it[1]; it[0] = inner; s = SEQRUN(onnxc_make_sequence(it, 1)); });
    CASE("seq item is map", { onnxc_tensor it[1]; it[0] = A; it[0].kind = ONNXC_VALUE_MAP; s = SEQRUN(onnxc_make_sequence(it, 1)); });
    CASE("seq item kind 77", { onnxc_tensor it[1]; it[0] = A; it[0].kind = 77; s = SEQRUN(onnxc_make_sequence(it, 1)); });
    CASE("seq self-referential", { onnxc_tensor it[1]; it[0] = onnxc_make_sequence(it, 1); s = SEQRUN(it[0]); });
    CASE("seq as tensor", s = SEQRUN(A));
    CASE("seq as optional", { onnxc_tensor inner = onnxc_make_sequence(items, 2); s = SEQRUN(onnxc_make_optional(&inner)); });
    CASE("pos as seq", { in[0] = onnxc_make_sequence(items, 2); in[1] = onnxc_make_sequence(items, 1); memset(&o,0,sizeof o); s = sequenceat_pos_run(in, 2, &o, 1); });
    CASE("pos rank 1", { in[0] = onnxc_make_sequence(items, 2); in[1] = ten(&zero64, ONNXC_DTYPE_INT64, 1, 1, 0); memset(&o,0,sizeof o); s = sequenceat_pos_run(in, 2, &o, 1); });
    CASE("seq out preset data", { in[0] = onnxc_make_sequence(items, 2); in[1] = pos; float r[1]; o = ten(r, 1, 1, 1, 0); s = sequenceat_pos_run(in, 2, &o, 1); });
  }
  /* Strings: words(string[N] s, float[N] x). */
  {
    const char *good[3] = {"one", "two", "x"};
    const char *withnull[3] = {"one", NULL, "x"};
    const char *bad8[3] = {"\xff\xfe", "\xc0\x80", "\xed\xa0\x80"};
    float x[3] = {1, 2, 3};
#define WRUN(sdata, sdtype, n) (in[0] = ten((void*)(sdata), sdtype, 1, n, 0), in[1] = ten(x, 1, 1, n, 0), memset(out, 0, sizeof out), words_run(in, 2, out, 5))
    CASE("words good", s = WRUN(good, ONNXC_DTYPE_STRING, 3));
    CASE("words NULL string", s = WRUN(withnull, ONNXC_DTYPE_STRING, 3));
    CASE("words data NULL", s = WRUN(NULL, ONNXC_DTYPE_STRING, 3));
    CASE("words bad utf8", { s = WRUN(bad8, ONNXC_DTYPE_STRING, 3); if (!s) printf("  upper[0] %zu bytes\n", strlen(((char**)out[3].data)[0])); });
    CASE("words strings as int64", s = WRUN(good, ONNXC_DTYPE_INT64, 3));
    CASE("words N mismatch", { in[0] = ten((void*)good, ONNXC_DTYPE_STRING, 1, 3, 0); in[1] = ten(x, 1, 1, 2, 0); memset(out,0,sizeof out); s = words_run(in, 2, out, 5); });
    CASE("words preset string out", { const char *r[3]; in[0] = ten((void*)good, ONNXC_DTYPE_STRING, 1, 3, 0); in[1] = ten(x, 1, 1, 3, 0); memset(out,0,sizeof out); out[0] = ten(r, ONNXC_DTYPE_STRING, 1, 3, 0); s = words_run(in, 2, out, 5); });
    CASE("words preset string out short", { const char *r[2]; in[0] = ten((void*)good, ONNXC_DTYPE_STRING, 1, 3, 0); in[1] = ten(x, 1, 1, 3, 0); memset(out,0,sizeof out); out[0] = ten(r, ONNXC_DTYPE_STRING, 1, 2, 0); s = words_run(in, 2, out, 5); });
    CASE("words nan to string", { float xn[3] = {0.0f/0.0f, 1.0f/0.0f, -1e38f}; in[0] = ten((void*)good, ONNXC_DTYPE_STRING, 1, 3, 0); in[1] = ten(xn, 1, 1, 3, 0); memset(out,0,sizeof out); s = words_run(in, 2, out, 5); if (!s) printf("  joined %s %s %s\n", ((char**)out[0].data)[0], ((char**)out[0].data)[1], ((char**)out[0].data)[2]); });
  }
  /* Maps: maps(float[N,2] x, map<string,float> m). */
  {
    float x[4] = {3, 0, 0, 3};
    const char *keys[3] = {"a", "b", "c"};
    const char *dupkeys[3] = {"a", "a", "c"};
    const char *nullkeys[3] = {"a", NULL, "c"};
    float vals[3] = {1, 2, 3};
    int64_t ikeys[3] = {1, 2, 3};
    onnxc_tensor mi[2], K = ten(keys, ONNXC_DTYPE_STRING, 1, 3, 0), V = ten(vals, 1, 1, 3, 0);
#define MRUN(mv) (in[0] = ten(x, 1, 2, 2, 2), in[1] = (mv), memset(out, 0, sizeof out), maps_run(in, 2, out, 3))
    CASE("map good", s = MRUN(onnxc_make_map(mi, &K, &V)));
    CASE("map dup keys", { onnxc_tensor k = ten(dupkeys, ONNXC_DTYPE_STRING, 1, 3, 0); s = MRUN(onnxc_make_map(mi, &k, &V)); });
    CASE("map NULL key", { onnxc_tensor k = ten(nullkeys, ONNXC_DTYPE_STRING, 1, 3, 0); s = MRUN(onnxc_make_map(mi, &k, &V)); });
    CASE("map int keys", { onnxc_tensor k = ten(ikeys, ONNXC_DTYPE_INT64, 1, 3, 0); s = MRUN(onnxc_make_map(mi, &k, &V)); });
    CASE("map float keys", { onnxc_tensor k = ten(vals, ONNXC_DTYPE_FLOAT, 1, 3, 0); s = MRUN(onnxc_make_map(mi, &k, &V)); });
    CASE("map lengths differ", { onnxc_tensor v = ten(vals, 1, 1, 2, 0); s = MRUN(onnxc_make_map(mi, &K, &v)); });
    CASE("map values int", { onnxc_tensor v = ten(ikeys, ONNXC_DTYPE_INT64, 1, 3, 0); s = MRUN(onnxc_make_map(mi, &K, &v)); });
    CASE("map values rank 2", { onnxc_tensor v = ten(vals, 1, 2, 3, 1); s = MRUN(onnxc_make_map(mi, &K, &v)); });
    CASE("map num_items 3", { onnxc_tensor m = onnxc_make_map(mi, &K, &V); m.num_items = 3; s = MRUN(m); });
    CASE("map num_items 1", { onnxc_tensor m = onnxc_make_map(mi, &K, &V); m.num_items = 1; s = MRUN(m); });
    CASE("map items NULL", { onnxc_tensor m = onnxc_make_map(mi, &K, &V); m.items = NULL; s = MRUN(m); });
    CASE("map keys data NULL", { onnxc_tensor k = ten(NULL, ONNXC_DTYPE_STRING, 1, 3, 0); s = MRUN(onnxc_make_map(mi, &k, &V)); });
    CASE("map keys dim neg", { onnxc_tensor k = ten(keys, ONNXC_DTYPE_STRING, 1, -3, 0), v = ten(vals, 1, 1, -3, 0); s = MRUN(onnxc_make_map(mi, &k, &v)); });
    CASE("map keys dim huge", { onnxc_tensor k = ten(keys, ONNXC_DTYPE_STRING, 1, (int64_t)1<<61, 0), v = ten(vals, 1, 1, (int64_t)1<<61, 0); s = MRUN(onnxc_make_map(mi, &k, &v)); });
    CASE("map item is map", { onnxc_tensor inner = onnxc_make_map(mi, &K, &V); onnxc_tensor m2[2]; onnxc_tensor m = onnxc_make_map(m2, &inner, &V); s = MRUN(m); });
    CASE("map as seq", { onnxc_tensor m = onnxc_make_map(mi, &K, &V); m.kind = ONNXC_VALUE_SEQUENCE; s = MRUN(m); });
    CASE("map as tensor", s = MRUN(V));
    CASE("map empty", { onnxc_tensor k = ten(keys, ONNXC_DTYPE_STRING, 1, 0, 0), v = ten(vals, 1, 1, 0, 0); s = MRUN(onnxc_make_map(mi, &k, &v)); });
  }
  return 0;
}
