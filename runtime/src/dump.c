/*===- dump.c - Intermediate tensors of libraries built with --debug-dump -===*
 *
 * Generated code (passes/Conversion/Instrument/DebugDump.cpp) calls
 * onnxc_rt_dump_begin at the start of a run, onnxc_rt_dump_tensor after
 * every node with each of its tensor outputs (or onnxc_rt_dump_skip for an
 * output that no .npy holds: a sequence, an optional, strings, bfloat16),
 * and onnxc_rt_dump_end when the run returns. Each tensor goes to
 * DIR/NNNNN_<node>_<output>.npy (NNNNN: the order of the run's dumps) and
 * DIR/manifest.json lists them: node, op type, output index, call (how
 * often the node ran before in this run: Loop/Scan bodies), file, dtype,
 * shape (the run's actual one). DIR comes from onnxc_debug_dump_dir or the
 * environment variable ONNXC_DUMP_DIR; each run replaces the previous
 * run's manifest. Its own archive member: only --debug-dump libraries
 * reference it (docs/profiling.md).
 *
 * Thread safety: one mutex; dump one run at a time (concurrent runs would
 * interleave their files in one manifest).
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200809L

#include "internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct dump_entry {
  const char *site; /* node name, NUL, op type, NUL */
  int64_t output, call;
  const char *skipped; /* NULL: dumped */
  char file[160];
  int32_t dtype, rank;
  int64_t shape[ONNXC_MAX_RANK];
} dump_entry;

static pthread_mutex_t dump_lock = PTHREAD_MUTEX_INITIALIZER;
static int dump_decided; /* ONNXC_DUMP_DIR read or the API called */
static char *dump_dir;   /* NULL: not dumping */
static const char *dump_model;
static dump_entry *dump_entries;
static int64_t dump_count, dump_cap, dump_runs;
static int dump_failed; /* a write failed this run: reported once */

/* Makes `dir` (one level) if missing; whether it is a writable directory. */
static onnxc_status prepare_dir(const char *dir) {
  struct stat st;
  char probe[4096];
  FILE *f;
  if (stat(dir, &st) != 0 && mkdir(dir, 0777) != 0)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "cannot create the dump directory '%s': %s", dir,
                          strerror(errno));
  if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "the dump directory '%s' is not a directory", dir);
  snprintf(probe, sizeof probe, "%s/manifest.json", dir);
  f = fopen(probe, "w");
  if (!f)
    return onnxc_rt_error(ONNXC_ERROR_INVALID_ARGUMENT,
                          "cannot write in the dump directory '%s': %s", dir,
                          strerror(errno));
  fputs("{\"complete\":false,\"entries\":[]}\n", f);
  fclose(f);
  return ONNXC_OK;
}

static onnxc_status set_dir_locked(const char *dir) {
  char *copy = NULL;
  if (dir) {
    onnxc_status s = prepare_dir(dir);
    if (s != ONNXC_OK)
      return s;
    copy = (char *)malloc(strlen(dir) + 1);
    if (!copy)
      return onnxc_rt_error(ONNXC_ERROR_OUT_OF_MEMORY, "out of memory");
    strcpy(copy, dir);
  }
  free(dump_dir);
  dump_dir = copy;
  dump_decided = 1;
  return ONNXC_OK;
}

onnxc_status onnxc_debug_dump_dir(const char *dir) {
  onnxc_status s;
  pthread_mutex_lock(&dump_lock);
  s = set_dir_locked(dir);
  pthread_mutex_unlock(&dump_lock);
  return s;
}

void onnxc_rt_dump_begin(const char *model) {
  pthread_mutex_lock(&dump_lock);
  if (!dump_decided) {
    const char *dir = getenv("ONNXC_DUMP_DIR");
    dump_decided = 1;
    if (!dir || !*dir)
      fprintf(stderr, "onnxc: debug dump: set ONNXC_DUMP_DIR (or call "
                      "onnxc_debug_dump_dir); nothing is written\n");
    else if (set_dir_locked(dir) != ONNXC_OK)
      fprintf(stderr, "onnxc: debug dump: %s; nothing is written\n",
              onnxc_last_error());
  }
  dump_model = model;
  dump_count = 0;
  dump_failed = 0;
  ++dump_runs;
  pthread_mutex_unlock(&dump_lock);
}

/* .npy's descr of an onnxc_dtype; NULL when .npy has none. */
static const char *npy_descr(int32_t dtype) {
  switch (dtype) {
  case ONNXC_DTYPE_FLOAT: return "<f4";
  case ONNXC_DTYPE_UINT8: return "|u1";
  case ONNXC_DTYPE_INT8: return "|i1";
  case ONNXC_DTYPE_UINT16: return "<u2";
  case ONNXC_DTYPE_INT16: return "<i2";
  case ONNXC_DTYPE_INT32: return "<i4";
  case ONNXC_DTYPE_INT64: return "<i8";
  case ONNXC_DTYPE_BOOL: return "|b1";
  case ONNXC_DTYPE_FLOAT16: return "<f2";
  case ONNXC_DTYPE_DOUBLE: return "<f8";
  case ONNXC_DTYPE_UINT32: return "<u4";
  case ONNXC_DTYPE_UINT64: return "<u8";
  case ONNXC_DTYPE_COMPLEX64: return "<c8";
  case ONNXC_DTYPE_COMPLEX128: return "<c16";
  default: return NULL;
  }
}

static dump_entry *add_entry(const char *site, int64_t output) {
  dump_entry *e;
  int64_t i, call = 0;
  if (dump_count == dump_cap) {
    int64_t cap = dump_cap ? 2 * dump_cap : 256;
    dump_entry *grown =
        (dump_entry *)realloc(dump_entries, (size_t)cap * sizeof *grown);
    if (!grown)
      return NULL;
    dump_entries = grown;
    dump_cap = cap;
  }
  for (i = 0; i < dump_count; ++i)
    if (dump_entries[i].site == site && dump_entries[i].output == output)
      ++call;
  e = &dump_entries[dump_count++];
  memset(e, 0, sizeof *e);
  e->site = site;
  e->output = output;
  e->call = call;
  return e;
}

static void report(const char *what, const char *path) {
  if (!dump_failed)
    fprintf(stderr, "onnxc: debug dump: cannot write %s '%s': %s\n", what,
            path, strerror(errno));
  dump_failed = 1;
}

/* Writes data (numel elements of `size` bytes) as DIR/e->file. */
static void write_npy(dump_entry *e, const char *descr, const void *data,
                      int64_t numel, size_t size) {
  char path[4096], header[512], shape[400];
  size_t len = 0, total;
  int32_t d;
  FILE *f;
  shape[0] = '\0';
  for (d = 0; d < e->rank; ++d)
    len += (size_t)snprintf(shape + len, sizeof shape - len, "%lld%s",
                            (long long)e->shape[d],
                            e->rank == 1 ? "," : d + 1 < e->rank ? ", " : "");
  len = (size_t)snprintf(header, sizeof header,
                         "{'descr': '%s', 'fortran_order': False, 'shape': "
                         "(%s), }",
                         descr, shape);
  /* Magic (6), version (2), length (2), header, padded with spaces and a
     newline to a multiple of 64 bytes. */
  total = (10 + len + 1 + 63) / 64 * 64;
  while (10 + len + 1 < total)
    header[len++] = ' ';
  header[len++] = '\n';
  snprintf(path, sizeof path, "%s/%s", dump_dir, e->file);
  f = fopen(path, "wb");
  if (!f) {
    report("the tensor", path);
    return;
  }
  fwrite("\x93NUMPY\x01\x00", 1, 8, f);
  fputc((int)(len & 0xff), f);
  fputc((int)(len >> 8), f);
  fwrite(header, 1, len, f);
  if (numel > 0)
    fwrite(data, size, (size_t)numel, f);
  if (ferror(f) | fclose(f))
    report("the tensor", path);
}

/* The file name: order, node name (other bytes than [A-Za-z0-9._-] as _,
 * at most 100), output. */
static void name_file(dump_entry *e) {
  char node[101];
  const char *n = e->site;
  size_t i;
  for (i = 0; n[i] && i < 100; ++i) {
    char c = n[i];
    node[i] = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                      (c >= '0' && c <= '9') || c == '.' || c == '-' ||
                      c == '_'
                  ? c
                  : '_';
  }
  node[i] = '\0';
  snprintf(e->file, sizeof e->file, "%05lld_%s_%lld.npy",
           (long long)dump_count, node, (long long)e->output);
}

/* block: data address, dtype, rank, output index, then the rank dims. */
void onnxc_rt_dump_tensor(const char *site, const int64_t *block) {
  dump_entry *e;
  const char *descr;
  int64_t numel = 1;
  int32_t d;
  pthread_mutex_lock(&dump_lock);
  if (!dump_dir || !(e = add_entry(site, block[3]))) {
    pthread_mutex_unlock(&dump_lock);
    return;
  }
  e->dtype = (int32_t)block[1];
  descr = npy_descr(e->dtype);
  if (block[2] < 0 || block[2] > ONNXC_MAX_RANK) {
    e->skipped = "its rank exceeds ONNXC_MAX_RANK";
  } else if (!descr) {
    e->skipped = e->dtype == ONNXC_DTYPE_BFLOAT16
                     ? "bfloat16 has no .npy dtype"
                     : "its element type has no .npy dtype";
  } else {
    e->rank = (int32_t)block[2];
    for (d = 0; d < e->rank; ++d) {
      e->shape[d] = block[4 + d];
      numel *= e->shape[d];
    }
    name_file(e);
    write_npy(e, descr, (const void *)(uintptr_t)block[0], numel,
              onnxc_dtype_size(e->dtype));
  }
  pthread_mutex_unlock(&dump_lock);
}

void onnxc_rt_dump_skip(const char *site, int64_t output, const char *reason) {
  dump_entry *e;
  pthread_mutex_lock(&dump_lock);
  if (dump_dir && (e = add_entry(site, output)))
    e->skipped = reason;
  pthread_mutex_unlock(&dump_lock);
}

static void json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20 || c == 0x7f)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

void onnxc_rt_dump_end(void) {
  char path[4096];
  FILE *f;
  int64_t i;
  int32_t d;
  pthread_mutex_lock(&dump_lock);
  if (!dump_dir) {
    pthread_mutex_unlock(&dump_lock);
    return;
  }
  snprintf(path, sizeof path, "%s/manifest.json", dump_dir);
  f = fopen(path, "w");
  if (!f) {
    report("the manifest", path);
    pthread_mutex_unlock(&dump_lock);
    return;
  }
  fputs("{\"model\":", f);
  json_string(f, dump_model ? dump_model : "");
  fprintf(f, ",\"run\":%lld,\"complete\":true,\"entries\":[",
          (long long)dump_runs);
  for (i = 0; i < dump_count; ++i) {
    const dump_entry *e = &dump_entries[i];
    const char *op = e->site + strlen(e->site) + 1;
    fputs(i ? ",\n{\"node\":" : "\n{\"node\":", f);
    json_string(f, e->site);
    fputs(",\"op\":", f);
    json_string(f, op);
    fprintf(f, ",\"output\":%lld,\"call\":%lld,", (long long)e->output,
            (long long)e->call);
    if (e->skipped) {
      fputs("\"skipped\":", f);
      json_string(f, e->skipped);
    } else {
      fputs("\"file\":", f);
      json_string(f, e->file);
      fprintf(f, ",\"dtype\":\"%s\",\"shape\":[", onnxc_dtype_name(e->dtype));
      for (d = 0; d < e->rank; ++d)
        fprintf(f, "%s%lld", d ? "," : "", (long long)e->shape[d]);
      fputc(']', f);
    }
    fputc('}', f);
  }
  fputs("\n]}\n", f);
  if (ferror(f) | fclose(f))
    report("the manifest", path);
  pthread_mutex_unlock(&dump_lock);
}
