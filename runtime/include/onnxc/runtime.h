/*===- onnxc/runtime.h - The C runtime of onnxc-compiled models ----------===*
 *
 * Every model library that onnxc produces links this runtime (statically)
 * and depends on nothing but libc and libm. This header is the contract
 * between the generated code, the generated model header, tools such as
 * onnxc-run, and users. C99; usable from C++.
 *
 * A model library exports, for a model named M (sanitized):
 *   const onnxc_model_info *M_info(void);           metadata (below)
 *   onnxc_status M_run(const onnxc_tensor *inputs, int32_t num_inputs,
 *                      onnxc_tensor *outputs, int32_t num_outputs);
 * M.h adds typed, named entry points on top (static inline, no extra
 * symbols). Every graph input and output is one onnxc_tensor: a tensor, a
 * sequence of tensors, an optional, a map or a sequence of maps (see
 * onnxc_value_kind).
 *
 * Thread safety: M_run may be called from several threads at once; each
 * call uses only its own memory. onnxc_last_error() is per thread.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_H
#define ONNXC_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Status codes returned by every entry point. */
typedef enum onnxc_status {
  ONNXC_OK = 0,
  ONNXC_ERROR_INVALID_ARGUMENT = 1, /* null pointer, bad count */
  ONNXC_ERROR_DTYPE = 2,            /* an input's dtype differs from the model's */
  ONNXC_ERROR_SHAPE = 3,            /* a rank, static dim or symbolic dim mismatch */
  ONNXC_ERROR_OUT_OF_MEMORY = 4,
  ONNXC_ERROR_RUNTIME = 5 /* a check inside the model failed (index out of
                             range, incompatible reshape, ...) */
} onnxc_status;

/** Element types, numbered as ONNX's TensorProto.DataType. */
typedef enum onnxc_dtype {
  ONNXC_DTYPE_UNDEFINED = 0,
  ONNXC_DTYPE_FLOAT = 1,
  ONNXC_DTYPE_UINT8 = 2,
  ONNXC_DTYPE_INT8 = 3,
  ONNXC_DTYPE_UINT16 = 4,
  ONNXC_DTYPE_INT16 = 5,
  ONNXC_DTYPE_INT32 = 6,
  ONNXC_DTYPE_INT64 = 7,
  ONNXC_DTYPE_STRING = 8,
  ONNXC_DTYPE_BOOL = 9, /* one byte per element, 0 or 1 */
  ONNXC_DTYPE_FLOAT16 = 10,
  ONNXC_DTYPE_DOUBLE = 11,
  ONNXC_DTYPE_UINT32 = 12,
  ONNXC_DTYPE_UINT64 = 13,
  ONNXC_DTYPE_COMPLEX64 = 14,
  ONNXC_DTYPE_COMPLEX128 = 15,
  ONNXC_DTYPE_BFLOAT16 = 16,
  /* float8: one byte per element, its bit pattern (ONNX's formats: e4m3fn
   * and e4m3fnuz have no infinity, the fnuz ones no -0 and one NaN, 0x80) */
  ONNXC_DTYPE_FLOAT8E4M3FN = 17,
  ONNXC_DTYPE_FLOAT8E4M3FNUZ = 18,
  ONNXC_DTYPE_FLOAT8E5M2 = 19,
  ONNXC_DTYPE_FLOAT8E5M2FNUZ = 20,
  /* 4-bit types, packed as ONNX's TensorProto raw_data: element 2k in the
   * low nibble of byte k, element 2k + 1 in its high nibble; a tensor of n
   * elements is (n + 1) / 2 bytes (onnxc_dtype_bytes), the last high nibble
   * of an odd count unused (0 in outputs). int4 is two's complement. */
  ONNXC_DTYPE_UINT4 = 21,
  ONNXC_DTYPE_INT4 = 22,
  ONNXC_DTYPE_FLOAT4E2M1 = 23 /* float4 e2m1: the code in a nibble */
} onnxc_dtype;

/** Largest rank a tensor crossing the API may have. */
#define ONNXC_MAX_RANK 16

/** What an onnxc_tensor (or an onnxc_value_info) holds. */
typedef enum onnxc_value_kind {
  ONNXC_VALUE_TENSOR = 0,   /* a dense tensor: data, shape, rank, dtype */
  ONNXC_VALUE_SEQUENCE = 1, /* ONNX sequence: num_items tensors in items */
  ONNXC_VALUE_OPTIONAL = 2, /* ONNX optional: 0 (absent) or 1 item, itself a
                               tensor or a sequence */
  ONNXC_VALUE_MAP = 3       /* ONNX map (ai.onnx.ml): 2 items, the keys and
                               the values (ABI version 2) */
} onnxc_value_kind;

/**
 * A value crossing the API: a dense, row-major tensor (kind
 * ONNXC_VALUE_TENSOR, 0, what a zeroed struct is), a sequence or an optional.
 *
 * Tensors. Inputs: the caller fills data, rank, shape and dtype; the model
 * only reads. Outputs: the model fills everything. When `owner` is non-null
 * the model allocated `data`: release it with onnxc_tensor_release. When the
 * caller sets `data` (and shape, rank, dtype) on an output before the call,
 * the model writes the result there instead, if the shapes match exactly
 * (else ONNXC_ERROR_SHAPE). An output whose `data` is NULL before the call
 * is model-allocated: zero the outputs array (or set data = NULL) first.
 * After a failed call, model-allocated outputs have data = owner = NULL.
 * Zero-element tensors may have any `data` pointer; it is never read.
 *
 * Sequences (kind ONNXC_VALUE_SEQUENCE): `items` points to `num_items`
 * tensors, each with its own shape (all of the dtype and rank the model
 * declares); `data`, `shape` and `rank` are not used. Optionals (kind
 * ONNXC_VALUE_OPTIONAL): num_items is 0 (absent) or 1, and items[0] is the
 * value, a tensor or a sequence. On inputs, everything is the caller's and
 * is only read (onnxc_make_sequence and onnxc_make_optional build them).
 * Sequence and optional outputs are always allocated by the model, whatever
 * the struct held before: `owner` is then `items` (NULL for no items), every
 * item owns its data, dtype is the items' dtype and rank 0;
 * onnxc_tensor_release frees it all.
 *
 * Maps (kind ONNXC_VALUE_MAP, ai.onnx.ml's ZipMap, DictVectorizer,
 * CastMap; docs/embedding.md): num_items is 2, items[0] the keys (a 1-D
 * tensor of n int64 or string elements, all distinct) and items[1] the
 * values (1-D, n elements of the map's value dtype; value i belongs to key
 * i); dtype is the values' dtype, data, shape and rank are not used. A
 * sequence of maps is an ONNXC_VALUE_SEQUENCE whose items are maps. Map
 * inputs are the caller's and only read (onnxc_make_map builds one). Map
 * outputs, like sequences, are always allocated by the model: a map's
 * `owner` is one block holding its two items and their data (the items'
 * own `owner` is NULL), in the order the model produced the entries;
 * onnxc_tensor_release frees it, and a sequence of maps with its maps.
 */
typedef struct onnxc_tensor {
  void *data;
  int64_t shape[ONNXC_MAX_RANK];
  int32_t rank;
  int32_t dtype; /* onnxc_dtype */
  void *owner;   /* allocation to free, or NULL when the caller owns `data` */
  int32_t kind;  /* onnxc_value_kind */
  int64_t num_items;          /* sequences and optionals */
  struct onnxc_tensor *items; /* sequences and optionals */
} onnxc_tensor;

/** One graph input or output. For a sequence (or an optional), dtype, rank,
 * dims and symbols describe its items (or its value, and its items when the
 * value is a sequence). Only tensors bind symbols: the items of a sequence
 * may differ in their dynamic dims, and those of a sequence or optional
 * have the symbol -1. */
typedef struct onnxc_value_info {
  const char *name;       /* the ONNX name */
  int32_t dtype;          /* onnxc_dtype */
  int32_t rank;           /* -1: a sequence's items of any rank, each its
                             own */
  const int64_t *dims;    /* rank entries; -1 for a dynamic dim */
  const int32_t *symbols; /* rank entries; index into symbol_names, or -1 */
  int32_t kind;           /* onnxc_value_kind */
  int32_t payload_kind;   /* optionals: the value's kind (tensor or
                             sequence); sequences: their items' kind
                             (ONNXC_VALUE_MAP for a sequence of maps);
                             ONNXC_VALUE_TENSOR otherwise */
  int32_t key_dtype;      /* maps and sequences of maps: the keys' dtype
                             (ONNXC_DTYPE_INT64 or ONNXC_DTYPE_STRING; dtype
                             is then the values' and rank 1); 0 otherwise.
                             Since ABI version 2 (onnxc_abi_version). */
} onnxc_value_info;

/** What a model library says about itself (M_info()). */
typedef struct onnxc_model_info {
  const char *name;
  int32_t num_inputs;
  int32_t num_outputs;
  const onnxc_value_info *inputs;
  const onnxc_value_info *outputs;
  int32_t num_symbols;
  const char *const *symbol_names; /* the ONNX dim_params ("N", "seq") */
} onnxc_model_info;

/** Size in bytes of one element of `dtype`; 0 for unknown ones. A string
 * tensor's `data` is an array of `const char *` (each pointing to a
 * NUL-terminated UTF-8 string): its element size is sizeof(const char *).
 * The packed 4-bit types (uint4, int4, float4e2m1) give 1, the byte that
 * holds two of them: use onnxc_dtype_bytes for a tensor's size. */
size_t onnxc_dtype_size(int32_t dtype);

/** Size in bytes of the data of `numel` elements of `dtype`: numel *
 * onnxc_dtype_size(dtype), or (numel + 1) / 2 for the packed 4-bit types;
 * 0 for unknown dtypes or a negative numel (the caller checks overflow). */
size_t onnxc_dtype_bytes(int32_t dtype, int64_t numel);

/** "float", "int64", ...: a static string naming `dtype` ("unknown" if none). */
const char *onnxc_dtype_name(int32_t dtype);

/** A static string naming `status`. */
const char *onnxc_status_string(onnxc_status status);

/** The version of the runtime's ABI (ONNXC_ABI_VERSION in
 * onnxc/runtime_abi.h) the library was built with: tools that load a model
 * library read its onnxc_model_info only when it matches theirs. */
int32_t onnxc_abi_version(void);

/** The message of the last failed call on this thread ("" if none); a
 * successful call leaves it as it was. Valid until the thread's next
 * failed call. */
const char *onnxc_last_error(void);

/** Frees an output the model allocated, with the items of a sequence or
 * optional; no-op for caller-owned data (owner NULL). Afterwards data,
 * owner and items are NULL and num_items 0 where something was freed. */
void onnxc_tensor_release(onnxc_tensor *tensor);

/** Number of elements of `tensor` (product of its shape); -1 if `tensor` is
 * null, its rank is outside [0, ONNXC_MAX_RANK], a dim is negative or the
 * product overflows (0 when a dim is 0, whatever the others). */
int64_t onnxc_tensor_numel(const onnxc_tensor *tensor);

/** Threads: a model runs on the calling thread, except that its large
 * matrix products and convolutions may be split over up to `num_threads`
 * threads: the caller's and workers of a pool that the runtime starts on
 * first need (the model code in between stays on the caller's thread). The
 * setting is for the whole process, every model and every caller (a call
 * that finds the pool busy with another's runs on its own thread). 0 means
 * one thread per online CPU; at most 64. Without a call, the environment
 * variable ONNXC_NUM_THREADS (read once; same meaning) sets it, else it is
 * 1. Returns ONNXC_ERROR_INVALID_ARGUMENT for a negative count. Results do
 * not depend on the thread count. */
onnxc_status onnxc_set_num_threads(int32_t num_threads);

/** The thread count in effect (>= 1): what onnxc_set_num_threads or
 * ONNXC_NUM_THREADS set, 0 resolved to the online CPUs. */
int32_t onnxc_get_num_threads(void);

/** Random numbers (RandomUniform, RandomNormal, their *Like forms,
 * Bernoulli, Multinomial, Dropout in training mode; docs/codegen.md): a
 * node with a `seed` attribute draws from a stream fixed by that seed (its
 * k-th call gives the same values in every process); a node without one
 * draws from a stream fixed by the process seed and the node. Successive
 * calls of a node continue its stream. onnxc_set_random_seed sets the
 * process seed and restarts the stream of every random node of every
 * model (a seeded node then repeats its values from its first call).
 * Without a call, the environment variable ONNXC_RANDOM_SEED (an unsigned
 * integer, read on first use) sets it, else each process draws its own.
 * Thread-safe; calls of one node from several threads get distinct call
 * indices (which thread gets which depends on their order). */
void onnxc_set_random_seed(uint64_t seed);

/** The process seed in effect (what onnxc_set_random_seed or
 * ONNXC_RANDOM_SEED set, or the one the process drew): pass it to
 * onnxc_set_random_seed to replay the unseeded random ops' values. */
uint64_t onnxc_get_random_seed(void);

/*
 * Training (models with a TrainingInfoProto; docs/training.md). Such a
 * library also exports
 *   const onnxc_train_info *M_train_info(void);
 * and M.h wraps the functions below as M_train_create(&state), ... . A
 * state holds the model's mutable tensors (the update_binding and
 * initialization_binding keys: parameters, optimizer moments, step
 * counters), in the order onnxc_train_param_name gives. States are
 * independent: several may live in one process, each used by one thread at
 * a time.
 */
typedef struct onnxc_train_info onnxc_train_info;
typedef struct onnxc_train_state onnxc_train_state;

/** A new state, initialized from the initializers and the
 * `initialization` graph. */
onnxc_status onnxc_train_create(const onnxc_train_info *info,
                                onnxc_train_state **state);

/** Frees `state` and its tensors (no-op for NULL). */
void onnxc_train_destroy(onnxc_train_state *state);

/** One training step: runs the algorithm on `inputs` (the main graph's
 * inputs in graph order, then the algorithm's) and applies update_binding.
 * `outputs` receive the algorithm's outputs that no key is updated from
 * (the loss, say), as M_run's outputs do. All or nothing: after an error
 * the state is unchanged. */
onnxc_status onnxc_train_step(onnxc_train_state *state,
                              const onnxc_tensor *inputs, int32_t num_inputs,
                              onnxc_tensor *outputs, int32_t num_outputs);

/** Inference with the state's current parameters (the main graph's inputs
 * and outputs, as M_run). */
onnxc_status onnxc_train_infer(const onnxc_train_state *state,
                               const onnxc_tensor *inputs, int32_t num_inputs,
                               onnxc_tensor *outputs, int32_t num_outputs);

/** The signatures of the step and of inference (inputs and outputs as the
 * caller passes them, without the state). */
const onnxc_model_info *onnxc_train_step_info(const onnxc_train_state *state);
const onnxc_model_info *onnxc_train_infer_info(const onnxc_train_state *state);

/** The state's tensors: count, names (the initializers' names). */
int32_t onnxc_train_num_params(const onnxc_train_state *state);
const char *onnxc_train_param_name(const onnxc_train_state *state,
                                   int32_t index);

/** `*out` views the tensor `name` of the state (data owned by the state,
 * valid until the next step, set or load; owner NULL). */
onnxc_status onnxc_train_get_param(const onnxc_train_state *state,
                                   const char *name, onnxc_tensor *out);

/** Copies `value` into the tensor `name` (same dtype and shape, else
 * ONNXC_ERROR_DTYPE / ONNXC_ERROR_SHAPE and nothing changes). */
onnxc_status onnxc_train_set_param(onnxc_train_state *state, const char *name,
                                   const onnxc_tensor *value);

/** The state as bytes (format in docs/training.md), in a malloc'ed buffer
 * the caller frees with free(); and the same read back (all tensors of the
 * model, same names, dtypes and shapes, else an error and nothing
 * changes). */
onnxc_status onnxc_train_save_buffer(const onnxc_train_state *state,
                                     void **data, size_t *size);
onnxc_status onnxc_train_load_buffer(onnxc_train_state *state,
                                     const void *data, size_t size);
/** The same through a file. */
onnxc_status onnxc_train_save(const onnxc_train_state *state,
                              const char *path);
onnxc_status onnxc_train_load(onnxc_train_state *state, const char *path);

/** The tensor `name` as a serialized ONNX TensorProto (name, dims,
 * data_type, raw_data), in a malloc'ed buffer the caller frees. */
onnxc_status onnxc_train_export_param(const onnxc_train_state *state,
                                      const char *name, void **data,
                                      size_t *size);

/** Memory: a call holds at most `bytes` of buffers the model allocates
 * (its intermediates, the outputs it allocates, the kernels' scratch; not
 * the caller's inputs and outputs, nor the runtime's copies of sequence
 * items) at any one time; an allocation past it fails the call with
 * ONNXC_ERROR_OUT_OF_MEMORY, as one that malloc refuses does, and every
 * buffer of the call is released. 0 means no limit (the default). The
 * setting is for the whole process; each call counts its own bytes
 * (calls on several threads do not add up) and keeps the limit in effect
 * when it started. Without a call, the environment variable
 * ONNXC_MEMORY_LIMIT (read once: bytes, or with a K, M or G suffix for
 * KiB, MiB, GiB) sets it. Returns ONNXC_ERROR_INVALID_ARGUMENT for a
 * negative limit. */
onnxc_status onnxc_set_memory_limit(int64_t bytes);

/** The memory limit in effect (bytes; 0: none). */
int64_t onnxc_get_memory_limit(void);

/*
 * Profiling (libraries compiled with `onnxc --profile`; docs/profiling.md).
 * Such a library times every ONNX node it runs (the nodes fused into one
 * kernel as one: "conv1+relu1", "Conv+Relu"), and every iteration of a
 * Loop/Scan body; other libraries do not define these functions. Recording
 * starts with onnxc_profile_start, or on the first profiled run when the
 * environment variable ONNXC_PROFILE names a file (an unwritable path is
 * reported once on stderr and nothing is recorded); the trace (Chrome Trace
 * Event JSON, which Perfetto and chrome://tracing open) is written by
 * onnxc_profile_stop, onnxc_profile_write, and at exit (or when the library
 * is unloaded) to the path recording started with. The settings and the
 * record are for the whole library; write them while no run is in progress.
 */
typedef struct onnxc_profile_entry {
  const char *site;  /* the generated code's site (opaque) */
  const char *name;  /* the node names, "+"-joined for fused nodes */
  const char *op;    /* their op types, "+"-joined */
  int32_t iteration; /* 1: iterations of the Loop/Scan `name` */
  int64_t calls;     /* how often it ran */
  int64_t total_ns, max_ns;
} onnxc_profile_entry;

/** Starts recording, dropping what was recorded before; `path` (or NULL)
 * is where onnxc_profile_stop and the exit write the trace. An unwritable
 * `path` fails with ONNXC_ERROR_INVALID_ARGUMENT (onnxc_last_error says
 * why) and nothing changes. */
onnxc_status onnxc_profile_start(const char *path);

/** Stops recording and writes the trace to the path recording started
 * with (none: nothing is written). */
onnxc_status onnxc_profile_stop(void);

/** Writes the trace recorded so far to `path` (NULL: the start's path). */
onnxc_status onnxc_profile_write(const char *path);

/** The recorded nodes, by total time (largest first): fills up to
 * `capacity` entries (their strings live as long as the library) and
 * returns how many there are. */
int32_t onnxc_profile_summary(onnxc_profile_entry *entries, int32_t capacity);

/*
 * Intermediate dumps (libraries compiled with `onnxc --debug-dump`;
 * docs/profiling.md). Every run writes each node's tensor outputs as
 * DIR/NNNNN_<node>_<output>.npy and, when it returns, DIR/manifest.json
 * listing them (node, op, output index, call, file, dtype, the run's
 * shape; outputs no .npy holds, such as sequences, as "skipped" with the
 * reason). DIR is set by onnxc_debug_dump_dir, else by the environment
 * variable ONNXC_DUMP_DIR (read at the first run); without either nothing
 * is written (one line on stderr says so). Other libraries do not define
 * this function.
 */
/** Sets the dump directory (created if missing; NULL: stop dumping). A
 * directory that cannot be written fails with ONNXC_ERROR_INVALID_ARGUMENT
 * (onnxc_last_error says why). */
onnxc_status onnxc_debug_dump_dir(const char *dir);

/** An input sequence of `num_items` tensors (the caller keeps `items`). */
static inline onnxc_tensor onnxc_make_sequence(const onnxc_tensor *items,
                                               int64_t num_items) {
  onnxc_tensor t;
  int32_t d;
  t.data = 0;
  for (d = 0; d < ONNXC_MAX_RANK; ++d)
    t.shape[d] = 0;
  t.rank = 0;
  t.dtype = items && num_items > 0 ? items[0].dtype : 0;
  t.owner = 0;
  t.kind = ONNXC_VALUE_SEQUENCE;
  t.num_items = num_items;
  t.items = (onnxc_tensor *)(uintptr_t)items;
  return t;
}

/** An input map of the `keys` and `values` tensors (1-D, as many of
 * each; the caller keeps them). `items` must point to two onnxc_tensor,
 * which receive copies of keys and values and which the caller keeps too. */
static inline onnxc_tensor onnxc_make_map(onnxc_tensor *items,
                                          const onnxc_tensor *keys,
                                          const onnxc_tensor *values) {
  onnxc_tensor t;
  items[0] = *keys;
  items[1] = *values;
  t = onnxc_make_sequence(items, 2);
  t.dtype = values->dtype;
  t.kind = ONNXC_VALUE_MAP;
  return t;
}

/** An input optional holding `*value` (a tensor or a sequence, kept by the
 * caller), or absent when `value` is NULL. */
static inline onnxc_tensor onnxc_make_optional(const onnxc_tensor *value) {
  onnxc_tensor t = onnxc_make_sequence(value, value ? 1 : 0);
  t.kind = ONNXC_VALUE_OPTIONAL;
  return t;
}

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_RUNTIME_H */
