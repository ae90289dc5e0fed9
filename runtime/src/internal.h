/*===- internal.h - Functions shared between the runtime's sources --------===*
 *
 * Not part of any API: hidden symbols, so that a model library exports only
 * what runtime.h and runtime_abi.h declare, except onnxc_rt_try and
 * onnxc_rt_error (ONNXC_SHARED_STATE below). (A program that links the
 * runtime archive statically, such as the unit tests, may still call them.)
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_INTERNAL_H
#define ONNXC_RUNTIME_INTERNAL_H

#include "onnxc/runtime_abi.h"

#include <stdlib.h>

#if defined(__GNUC__) || defined(__clang__)
#define ONNXC_HIDDEN __attribute__((visibility("hidden")))
#else
#define ONNXC_HIDDEN
#endif

/* Dynamic TLS, so that any number of model libraries can be dlopen'ed (the
   static TLS space glibc keeps for dlopen'ed libraries, 512 bytes, held
   only three of them with initial-exec). runtime/CMakeLists.txt compiles
   with TLS descriptors (-mtls-dialect=gnu2 on x86-64; aarch64's default),
   which the dynamic loader resolves itself: a model library needs no
   __tls_get_addr, its only NEEDED entries stay libc and libm. */
#if defined(__GNUC__) || defined(__clang__)
#define ONNXC_THREAD_LOCAL __thread
#else
#define ONNXC_THREAD_LOCAL _Thread_local
#endif

/* Functions that touch errors.c's per-thread state (the last error, the
 * target of onnxc_rt_fail) stay exported like onnxc_rt_fail and
 * onnxc_last_error: when several model libraries in one process each carry
 * the runtime, every call then binds to the same copy (runtime_abi.h,
 * "Linking"). Hidden, the train.c of a second library would write its
 * errors where the onnxc_last_error() of the first does not read them. */
#define ONNXC_SHARED_STATE

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors.c: the per-thread error state ----------------------------- */

/* Calls fn(arg) with onnxc_rt_fail caught: returns 0 when fn returned, else
 * the failure's code (never 0: ONNXC_ERROR_RUNTIME stands for a code 0),
 * with its message copied into msg[cap] (cap 0: msg unused; the message
 * stays this thread's onnxc_last_error()). For a model's code, and for
 * threads that run parts of a kernel: a failure must come back to the
 * caller of the parallel region, not unwind it. */
ONNXC_SHARED_STATE int32_t onnxc_rt_try(void (*fn)(void *), void *arg, char *msg,
                                  size_t cap);

/* Sets this thread's onnxc_last_error() message (printf format) and
 * returns `status`. */
#if defined(__GNUC__) || defined(__clang__)
__attribute__((format(printf, 2, 3)))
#endif
ONNXC_SHARED_STATE onnxc_status onnxc_rt_error(onnxc_status status, const char *fmt,
                                         ...);

/* The capacity of the last-error message (and of the labels that go into
 * it). */
#define ONNXC_RT_ERROR_CAP 512

/* ---- runtime.c, dtype.c: values and their info ------------------------ */

/* Product of `shape[0..rank)`; -1 for a negative dim or an overflow
 * (runtime.c). */
ONNXC_HIDDEN int64_t onnxc_rt_shape_numel(const int64_t *shape, int32_t rank);

/* (dtype.c) The packed 4-bit dtypes (uint4, int4, float4e2m1): two per byte at the
 * API, one int8 per element inside the model (int4 sign-extended). */
ONNXC_HIDDEN int onnxc_rt_dtype_packed(int32_t dtype);
/* n nibbles of `src` (packed) -> n bytes of `dst`. */
ONNXC_HIDDEN void onnxc_rt_unpack4(int8_t *dst, const uint8_t *src, int64_t n,
                                   int32_t dtype);
/* The low nibbles of n bytes of `src` -> (n + 1) / 2 bytes of `dst`. */
ONNXC_HIDDEN void onnxc_rt_pack4(uint8_t *dst, const int8_t *src, int64_t n);

/* A value's name in messages. */
static inline const char *onnxc_rt_value_name(const onnxc_value_info *vi) {
  return vi->name ? vi->name : "?";
}

/* The symbol of dim `d` of `vi` (-1: none). Only tensors bind symbols:
 * the items of a sequence may differ in their dynamic dims. */
static inline int32_t onnxc_rt_value_symbol(const onnxc_value_info *vi,
                                            int32_t d) {
  return vi->symbols && vi->kind == ONNXC_VALUE_TENSOR ? vi->symbols[d] : -1;
}

static inline const char *onnxc_rt_symbol_name(const onnxc_model_info *info,
                                               int32_t s) {
  return info->symbol_names && info->symbol_names[s] ? info->symbol_names[s]
                                                     : "?";
}

/* The kind of an info value's contents: the value's own kind, or for an
 * optional the kind of what it holds. */
static inline int32_t onnxc_rt_content_kind(const onnxc_value_info *vi) {
  return vi->kind == ONNXC_VALUE_OPTIONAL ? vi->payload_kind : vi->kind;
}

/* The width of a row of a sequence's shapes memref when its items have no
 * declared rank: the item's rank, its dims and zeros (onnxc_rt_value_layout
 * below). */
#define ONNXC_RT_SEQ_ROW_WIDTH (1 + ONNXC_MAX_RANK)

/* Non-null, never dereferenced: the data of zero-element inputs
 * (runtime.c). */
ONNXC_HIDDEN extern char onnxc_rt_empty_buffer[1];

/* ---- check.c: the caller's values against the signature --------------- */

/* Where a symbol was first bound. */
typedef struct onnxc_rt_binding {
  int64_t value;
  int32_t input; /* -1 while unbound */
  int32_t dim;
} onnxc_rt_binding;

/* The model's own description (its inputs or outputs, `kind` naming which
 * in messages) must be usable before anything else. */
ONNXC_HIDDEN onnxc_status onnxc_rt_check_info_values(
    const onnxc_model_info *info, const onnxc_value_info *values, int32_t n,
    const char *kind);
/* Checks every input against the signature and binds the symbols
 * (bindings[info->num_symbols]). */
ONNXC_HIDDEN onnxc_status onnxc_rt_check_inputs(const onnxc_model_info *info,
                                                const onnxc_tensor *inputs,
                                                onnxc_rt_binding *bindings);
/* Caller-provided outputs (tensors only): what can be checked before the
 * run. */
ONNXC_HIDDEN onnxc_status
onnxc_rt_check_preset_outputs(const onnxc_model_info *info,
                              const onnxc_tensor *outputs);
/* The element count of the concatenated items of sequence `seq` (checked
 * items; NULL: no items); -1 when it overflows. */
ONNXC_HIDDEN int64_t onnxc_rt_sequence_numel(const onnxc_tensor *seq);

/* ---- maps.c: maps and sequences of maps -------------------------------- */

/* A map or a sequence of maps (ONNXC_VALUE_MAP). */
static inline int onnxc_rt_is_map_value(const onnxc_value_info *vi) {
  return vi->kind == ONNXC_VALUE_MAP ||
         (vi->kind == ONNXC_VALUE_SEQUENCE &&
          vi->payload_kind == ONNXC_VALUE_MAP);
}

/* A rank-1 memref descriptor (runtime_abi.h). */
typedef struct onnxc_rt_memref1 {
  void *allocated, *aligned;
  int64_t offset, size, stride;
} onnxc_rt_memref1;

/* Checks input `t` (a map or a sequence of maps, as vi says): kinds, the
 * key and value dtypes, sizes, distinct keys. */
ONNXC_HIDDEN onnxc_status onnxc_rt_check_map_value(const onnxc_value_info *vi,
                                                   const onnxc_tensor *t,
                                                   const char *label);
/* The buffers of checked input `t` and their sizes: keys and values (the
 * caller's for a map), and for a sequence the concatenated keys, values
 * and per-map sizes (fresh buffers, appended to temps). */
ONNXC_HIDDEN onnxc_status onnxc_rt_map_input(const onnxc_value_info *vi,
                                             const onnxc_tensor *t,
                                             void **temps, int32_t *num_temps,
                                             void *bufs[3], int64_t sizes[3],
                                             const char *label);
/* Output `out` (a map, or with `sd` a sequence of maps) copied out of the
 * model's keys, values and sizes memrefs. On failure `out` is unchanged. */
ONNXC_HIDDEN onnxc_status onnxc_rt_fill_map(const onnxc_value_info *vi,
                                            const char *label,
                                            const onnxc_rt_memref1 *kd,
                                            const onnxc_rt_memref1 *vd,
                                            const onnxc_rt_memref1 *sd,
                                            onnxc_tensor *out);

/* ---- alloc.c: the allocator's arenas ---------------------------------- */

/* The blocks one call of onnxc_run_model allocated and has not freed
 * (a doubly linked list through each block's header), their bytes, and
 * the memory limit the call started with (0: none). The workers of the
 * thread pool allocate into the arena of the call whose parts they run,
 * hence the lock. */
typedef struct onnxc_rt_block onnxc_rt_block;
#define ONNXC_SPARES 8
typedef struct onnxc_rt_arena {
  onnxc_rt_block *head;
  size_t in_use, peak, limit;
  int lock;
  int shared; /* workers may use it (a region runs): take `lock` (atomic) */
  /* Freed small blocks kept for the call's next allocations (alloc.c). */
  int num_spares;
  onnxc_rt_block *spares[ONNXC_SPARES];
} onnxc_rt_arena;

/* Starts `arena` (the memory limit now in effect) as this thread's
 * current one; returns the previous one (runs may nest). */
ONNXC_HIDDEN onnxc_rt_arena *onnxc_rt_arena_enter(onnxc_rt_arena *arena);
/* Frees every block still in `arena` and makes `previous` current again. */
ONNXC_HIDDEN void onnxc_rt_arena_leave(onnxc_rt_arena *arena,
                                       onnxc_rt_arena *previous);
/* This thread's arena (NULL outside a call), and setting it (the pool's
 * workers, for the parts of a call they run; the region's caller sets the
 * arena's `shared` while they may). */
ONNXC_HIDDEN onnxc_rt_arena *onnxc_rt_arena_current(void);
ONNXC_HIDDEN void onnxc_rt_arena_set_current(onnxc_rt_arena *arena);
/* The malloc block (for free()) holding `ptr` when `ptr` is a live block
 * of `arena` as the allocator returned it; NULL otherwise. Not
 * thread-safe: once the call's model code has returned. */
ONNXC_HIDDEN void *onnxc_rt_arena_owner(onnxc_rt_arena *arena,
                                        const void *ptr);
/* Takes the block of `ptr` out of `arena` (its owner frees it with free()
 * on the pointer onnxc_rt_arena_owner gave); no-op for other pointers. */
ONNXC_HIDDEN void onnxc_rt_arena_forget(onnxc_rt_arena *arena,
                                        const void *ptr);

/* Frees the owner of an output handed to the caller (the malloc block
 * behind its header), or keeps it for reuse as freed blocks of the models
 * are (the training state's tensors, replaced every step). */
ONNXC_HIDDEN void onnxc_rt_free_owner(void *owner);
/* Releases an output's owner (onnxc_tensor_release): a block this copy of
 * the runtime handed over goes back into its cache, as onnxc_rt_free_owner
 * does (a caller that runs and releases in a loop gets the same pages back
 * instead of faulting them in again, a whole 2 MiB page for a large
 * output); any other owner to free(). */
ONNXC_HIDDEN void onnxc_rt_release_owner(void *owner);
/* Whether the allocator's cache holds the raw block `block` (runtime_test). */
ONNXC_HIDDEN int onnxc_rt_cache_holds(const void *block);

/* ---- A run's memrefs (runtime.c builds the inputs', outputs.c reads the
 * results') ------------------------------------------------------------- */

/* A memref descriptor is a sequence of 8-byte slots (runtime_abi.h). */
typedef char onnxc_check_pointer_size_[sizeof(void *) == 8 ? 1 : -1];

typedef union onnxc_rt_slot {
  void *ptr;
  int64_t i64;
} onnxc_rt_slot;

/* The memrefs one graph value flattens into (runtime_abi.h): at most an
 * optional's flag, then a tensor's memref or a sequence's data (1-D, the
 * items' elements one item after the other) and shapes: n x r for items of
 * a declared rank r, else (rank -1) n rows of ONNXC_RT_SEQ_ROW_WIDTH, 1-D,
 * each holding an item's rank, its dims and zeros. */
#define ONNXC_RT_MAX_MEMREFS 3
typedef struct onnxc_rt_layout {
  int32_t count;
  int32_t ranks[ONNXC_RT_MAX_MEMREFS];
} onnxc_rt_layout;

static inline onnxc_rt_layout
onnxc_rt_value_layout(const onnxc_value_info *vi) {
  onnxc_rt_layout l = {0, {0, 0, 0}};
  if (vi->kind == ONNXC_VALUE_OPTIONAL)
    l.ranks[l.count++] = 0;
  if (onnxc_rt_is_map_value(vi)) {
    /* keys, values (and a sequence's sizes), all 1-D. */
    l.ranks[l.count++] = 1;
    l.ranks[l.count++] = 1;
    if (vi->kind == ONNXC_VALUE_SEQUENCE)
      l.ranks[l.count++] = 1;
  } else if (onnxc_rt_content_kind(vi) == ONNXC_VALUE_SEQUENCE) {
    l.ranks[l.count++] = 1;
    l.ranks[l.count++] = vi->rank < 0 ? 1 : 2;
  } else {
    l.ranks[l.count++] = vi->rank;
  }
  return l;
}

static inline int64_t onnxc_rt_descriptor_slots(int32_t rank) {
  return 3 + 2 * (int64_t)rank;
}

static inline int64_t onnxc_rt_layout_slots(onnxc_rt_layout l) {
  int64_t n = 0;
  int32_t j;
  for (j = 0; j < l.count; ++j)
    n += onnxc_rt_descriptor_slots(l.ranks[j]);
  return n;
}

/* ---- outputs.c: the results handed over as the caller's outputs ------- */

/* What became of one result buffer (one memref of the results struct). */
typedef struct onnxc_rt_result_state {
  const onnxc_rt_slot *desc;
  void *allocated;
  int fresh;   /* a heap buffer of this run */
  void *owner; /* its malloc block when the call's arena holds it (alloc.c),
                  else NULL: a plain malloc block, or not fresh */
  int first;   /* no earlier memref returned the same buffer */
  int preset;  /* the caller provided the output's buffer */
  int handed;  /* its ownership went to `handed_to` */
  onnxc_tensor *handed_to;
} onnxc_rt_result_state;

/* Makes the outputs the model allocates empty before the run, so that
 * releasing them is always safe: sequences and optionals (always
 * model-allocated), tensors without a caller's buffer, string tensors. */
ONNXC_HIDDEN void onnxc_rt_reset_outputs(const onnxc_model_info *info,
                                         onnxc_tensor *outputs);

/* Hands the results of a run that returned (the results struct at
 * `results`; `states`, zero-filled, one per result memref) over to
 * `outputs`: buffers of the run the caller may keep are handed over (taken
 * out of `arena`), the others copied, checked against the signature and
 * the symbols bound to the inputs. `input_data[num_data]` are the inputs'
 * buffers (never handed over). The fresh buffers no output kept are freed.
 * On failure, the outputs are as onnxc_rt_reset_outputs left them. */
ONNXC_HIDDEN onnxc_status onnxc_rt_take_outputs(
    const onnxc_model_info *info, const onnxc_rt_slot *results,
    onnxc_rt_result_state *states, void *const *input_data, int32_t num_data,
    onnxc_rt_arena *arena, onnxc_tensor *outputs,
    const onnxc_rt_binding *bindings);

/* ---- memref.c: strided copies ------------------------------------------ */

/* One row of `n` elements of `size` bytes, strides in elements. */
ONNXC_HIDDEN void onnxc_rt_copy_row(char *d, int64_t ds, const char *s,
                                    int64_t ss, int64_t n, int64_t size);
/* Copies `sizes` elements (rank `rank`, each of `size` bytes) from `src`
 * (element strides `src_strides`) to `dst` (element strides
 * `dst_strides`); strides may be 0 or negative. */
ONNXC_HIDDEN void onnxc_rt_copy_view(char *dst, const int64_t *dst_strides,
                                     const char *src,
                                     const int64_t *src_strides,
                                     const int64_t *sizes, int64_t rank,
                                     int64_t size);

/* Row-major strides of `sizes`. */
ONNXC_HIDDEN void onnxc_rt_dense_strides(const int64_t *sizes, int32_t rank,
                                         int64_t *strides);
/* Copies a strided view (`base` points at element offset 0 of the view) to
 * the contiguous `dst`. */
ONNXC_HIDDEN void onnxc_rt_copy_strided(char *dst, const char *base,
                                        const int64_t *sizes,
                                        const int64_t *strides, int32_t rank,
                                        size_t esize);
/* True when `strides` are the row-major strides of `sizes` (dims of size 1
 * may have any stride; an empty tensor is contiguous). */
ONNXC_HIDDEN int onnxc_rt_is_contiguous(const int64_t *sizes,
                                        const int64_t *strides, int32_t rank);

/* ---- threads.c: the thread pool --------------------------------------- */

/* Runs task(arg, i) for every i in [0, chunks), on up to `threads` threads:
 * the calling thread and workers of the pool, each taking the next chunk
 * until none is left. Chunks must be independent. Returns when all have
 * run. Runs every chunk on the calling thread when threads <= 1, or when
 * the pool is busy (another thread's region, or a region nested in a
 * chunk). A chunk that calls onnxc_rt_fail stops the region: the chunks not
 * yet started are skipped, and the failure is raised again in the calling
 * thread once every thread has left the region. */
typedef void (*onnxc_rt_task_fn)(void *arg, int64_t chunk);
ONNXC_HIDDEN void onnxc_rt_parallel_for(int64_t chunks, int threads,
                                        onnxc_rt_task_fn task, void *arg);

/* How many threads a kernel call of `flop` floating-point operations
 * should use: 1 below ONNXC_PARALLEL_MIN_FLOP (where splitting costs more
 * than it saves), else onnxc_get_num_threads(). */
ONNXC_HIDDEN int onnxc_rt_threads_for(double flop);

/* Runs task(arg, lo, hi) over [0, n) cut into ranges of whole multiples of
 * `unit` elements, about 4 a thread (the last range takes the rest), on up
 * to `threads` threads (onnxc_rt_parallel_for); all of [0, n) at once on
 * the calling thread when threads <= 1. For loops whose iterations are
 * independent and write disjoint memory (copies, pools). */
typedef void (*onnxc_rt_range_fn)(void *arg, int64_t lo, int64_t hi);
ONNXC_HIDDEN void onnxc_rt_parallel_range(int64_t n, int64_t unit, int threads,
                                          onnxc_rt_range_fn task, void *arg);

/* What onnxc_rt_threads_for is given per element for a pass over memory (a
 * copy, a padded copy, a pool): at the default ONNXC_PARALLEL_MIN_FLOP (1
 * MFLOP), passes over 64 Ki elements and more (256 KiB of floats, some 10
 * us) split. */
#define ONNXC_COPY_FLOP_PER_ELEMENT 16.0

/* For tests: the regions handed to workers, and the chunks the
 * workers ran, since the start of the process. */
ONNXC_HIDDEN void onnxc_rt_pool_stats(int64_t *regions, int64_t *worker_chunks);

/* ---- gemm.c: the kernels on the calling thread ------------------------ */

/* onnxc_rt_sgemm_ep, onnxc_rt_sgemm_batched_ep and onnxc_rt_sconv2d
 * (runtime_abi.h) on one thread; parallel.c's entry points split a call
 * into parts and run these on each. */
ONNXC_HIDDEN void onnxc_rt_sgemm_ep_serial(
    int64_t m, int64_t n, int64_t k, const float *a, int64_t rsa, int64_t csa,
    const float *b, int64_t rsb, int64_t csb, float *c, int64_t rsc,
    int64_t csc, int32_t flags, const float *bias, float lo, float hi);
ONNXC_HIDDEN void onnxc_rt_sgemm_batched_ep_serial(
    int64_t batch, int64_t m, int64_t n, int64_t k, const float *a,
    int64_t sba, int64_t rsa, int64_t csa, const float *b, int64_t sbb,
    int64_t rsb, int64_t csb, float *c, int64_t sbc, int64_t rsc, int64_t csc,
    int32_t flags, const float *bias, float lo, float hi);
/* The runtime's own flag (the compiler never sets it): x is the copy in
 * channel blocks that ONNXC_CONV_W_CBLOCK weights read,
 * [batch][in_channels / 16][h][w][16], each block x_strides[2] floats from
 * the last: channel c of column w of row h at (c / 16) * x_strides[2] +
 * h * x_strides[3] + w * x_strides[4] + c % 16 (x_strides[4] = 16). */
#define ONNXC_CONV_X_CBLOCK ((int64_t)1 << 40)
/* The runtime's own flag: the depthwise driver takes the per-channel
 * kernel, not the tier's dw_block, whose choice depends on the rows (a
 * band of rows of a call whose whole rows it does not take: conv_chain.c;
 * the two sum in other orders). */
#define ONNXC_CONV_DW_NO_BLOCK ((int64_t)1 << 41)
/* The runtime's own flag: x is a padded copy of a stride-2 call whose rows
 * have their columns split by parity, column 2 j at j and column 2 j + 1
 * at in_w + j of the row (in_w: the count of even columns; rows
 * x_strides[3] apart as in a plain copy, x_strides[4] = 1), and stride_w
 * is 1: a stride-2 output row's windows are one element apart, as the
 * tiles with positions in lanes read them (conv_pad.c, conv_igemm.c's tap
 * offsets). */
#define ONNXC_CONV_X_SPLIT ((int64_t)1 << 42)
ONNXC_HIDDEN void onnxc_rt_sconv2d_serial(const onnxc_conv2d_params *params,
                                          const float *x, const float *w,
                                          float *y);
/* q over output rows [lo, lo + count) only: *part its parameters, *x and
 * *y moved to the band. A padded input (the copy, or one with its padding
 * in place) starts lo * stride_h rows on; an unpadded one
 * (ONNXC_CONV_PADDED) stays put and has that many fewer rows of padding
 * before the band (a negative count starts inside it). */
ONNXC_HIDDEN void onnxc_rt_sconv2d_rows(const onnxc_conv2d_params *q,
                                        int64_t lo, int64_t count,
                                        onnxc_conv2d_params *part,
                                        const float **x, float **y);

/* Whether onnxc_rt_sconv2d_serial pads the input of this call into a copy
 * (ONNXC_CONV_PADDED on the GEMM paths); the copy (in channel blocks for
 * ONNXC_CONV_W_CBLOCK weights that the indirect GEMM reads), with *padded
 * the parameters for it (unpadded: ONNXC_CONV_PADDED and
 * ONNXC_CONV_IN_PLACE cleared; ONNXC_CONV_X_CBLOCK set for a copy in
 * channel blocks), written on up to `threads` threads (by rows); its
 * release. parallel.c pads once before it splits. */
ONNXC_HIDDEN int onnxc_rt_sconv2d_pads_input(const onnxc_conv2d_params *q);
ONNXC_HIDDEN const float *
onnxc_rt_sconv2d_pad_input(const onnxc_conv2d_params *q, const float *x,
                           onnxc_conv2d_params *padded, void **raw,
                           int threads);
ONNXC_HIDDEN void onnxc_rt_sconv2d_free_input(void *raw);

/* A strided, unpadded 1 x 1 convolution's input reduced to the positions
 * it reads (in_channels planes of out_h x out_w, contiguous), with *sub
 * the stride-1 parameters for it (ONNXC_CONV_IN_PLACE cleared); released
 * with onnxc_rt_free_scratch(*raw). */
ONNXC_HIDDEN const float *
onnxc_rt_sconv2d_subsample(const onnxc_conv2d_params *q, const float *x,
                           onnxc_conv2d_params *sub, void **raw);

/* Whether onnxc_rt_sconv2d_serial packs the weights of this call (not
 * packed by the compiler: a training step's weights, a weight gradient's
 * output-gradient "kernel") for the indirect GEMM; the packed copy, with
 * *packed the parameters for it (ONNXC_CONV_W_PACKED set); its release
 * (onnxc_rt_free_scratch). parallel.c packs once before it splits, so
 * that the parts of a call all take the path the whole call takes. */
ONNXC_HIDDEN int onnxc_rt_sconv2d_packs_weights(const onnxc_conv2d_params *q);
ONNXC_HIDDEN const float *
onnxc_rt_sconv2d_pack_weights(const onnxc_conv2d_params *q, const float *w,
                              onnxc_conv2d_params *packed, void **raw);

/* winograd.c's use of conv.c: the padded copy in channel blocks (for a
 * call with ONNXC_CONV_PADDED and in_channels a multiple of 16, whatever
 * its weights' order; *padded as onnxc_rt_sconv2d_pad_input sets it). */
ONNXC_HIDDEN const float *
onnxc_rt_sconv2d_pad_cblock(const onnxc_conv2d_params *q, const float *x,
                            onnxc_conv2d_params *padded, void **raw,
                            int threads);
/* Rows [r0, r1) of that copy of image n's channel blocks, into dst: block
 * b's row r at dst + b * bs + (r - r0) * wp * 16 (wp: the copy's columns);
 * rows past the copy's are zeros. */
ONNXC_HIDDEN void onnxc_rt_sconv2d_pad_cblock_rows(
    const onnxc_conv2d_params *q, const float *x, int64_t n, int64_t r0,
    int64_t r1, float *dst, int64_t bs);

/* ---- winograd.c: 3 x 3 convolutions as Winograd F(4x4, 3x3) ---------- */

/* The call through Winograd products, on up to onnxc_get_num_threads()
 * threads, when it is one that path takes (winograd.c says which) and
 * there is memory for the transformed weights; else returns 0, having
 * done nothing. */
ONNXC_HIDDEN int onnxc_rt_winograd(const onnxc_conv2d_params *q,
                                   const float *x, const float *w, float *y);
/* Whether onnxc_rt_winograd takes the call q (conv_chain.c runs no such
 * call in bands: its tiles would start at each band's first row). */
ONNXC_HIDDEN int onnxc_rt_winograd_takes(const onnxc_conv2d_params *q);
/* For tests: the calls onnxc_rt_winograd has done with tiles of `tile`
 * (4: F(4x4, 3x3), 2: F(2x2, 3x3)), since the start of the process. */
ONNXC_HIDDEN long onnxc_rt_winograd_calls(int tile);

/* A convolution's scratch: 64-byte aligned, from the models' allocator
 * (alloc.c); released with onnxc_rt_free_scratch(*raw). Fails with
 * ONNXC_ERROR_OUT_OF_MEMORY (onnxc_rt_fail). */
ONNXC_HIDDEN float *onnxc_rt_alloc_scratch(int64_t floats, void **raw);
/* A block that lives across calls (freed with free()), 64-byte aligned:
 * from 512 KiB on, in transparent huge pages as the allocator's large
 * blocks (alloc.c; ONNXC_HUGE_PAGES=0: not). */
ONNXC_HIDDEN void *onnxc_rt_malloc_large(size_t size);
/* Weights derived from a call's constant packed weights `w` (n floats),
 * made by derive(q, w, arg) on the first call (NULL: no memory) and kept
 * for the library's lifetime, keyed by w, `kind` and q's groups and
 * channels, and checked against a signature of w's values (kept.c).
 * NULL when they cannot be made. */
typedef float *(*onnxc_rt_derive_fn)(const onnxc_conv2d_params *q,
                                     const float *w, const void *arg);
ONNXC_HIDDEN const float *onnxc_rt_kept_weights(const onnxc_conv2d_params *q,
                                                const float *w, int64_t n,
                                                int kind,
                                                onnxc_rt_derive_fn derive,
                                                const void *arg);
/* onnxc_rt_kept_weights' kind for the 1 x 1 path's micro-panels (conv.c;
 * Winograd's kinds are its tiles, 4 and 2). */
#define ONNXC_KEPT_MICRO_PANELS 100
/* ... and for a copy of large packed constant weights in the runtime's own
 * pages (onnxc_rt_kept_copy). */
#define ONNXC_KEPT_COPY 101
/* q's packed constant weights w, copied once into 2 MiB pages and kept when
 * they are large; w itself otherwise (kept.c). */
ONNXC_HIDDEN const float *onnxc_rt_kept_copy(const onnxc_conv2d_params *q,
                                             const float *w);
/* The same for any `bytes` bytes of constant packed weights at w (the int8
 * kernels' packed B and W, with their sums). */
ONNXC_HIDDEN const void *onnxc_rt_kept_bytes(const void *w, size_t bytes);
ONNXC_HIDDEN void onnxc_rt_free_scratch(void *raw);

/* ---- depthwise.c: the depthwise driver -------------------------------- */

/* Grouped convolutions with at most this many input and output channels
 * per group go through the depthwise kernels too: each output plane the
 * sum of one depthwise pass per input channel (the first writes the bias,
 * the others accumulate, the last clamps). A GEMM panel of 16 or 32
 * output channels would hold only that group's few: ResNeXt's 32 groups
 * of 4 at 56x56 run 3.7x faster so, of 8 at stride 2 1.85x; groups of 16
 * (at 14x14, stride 2) were 3x slower than the GEMM, so they stay there. */
#define ONNXC_DW_GROUPED_MAX 8
/* Whether onnxc_rt_depthwise takes this convolution: one input channel
 * per group (or at most ONNXC_DW_GROUPED_MAX in and out, not in place),
 * unit-stride output rows, a tier with a depthwise kernel, and the column
 * offsets of its gathers in int32. */
ONNXC_HIDDEN int onnxc_rt_depthwise_takes(const onnxc_conv2d_params *q);
/* Whether it reads this ONNXC_CONV_PADDED input in place (no plane). */
ONNXC_HIDDEN int
onnxc_rt_depthwise_reads_padding(const onnxc_conv2d_params *q);
/* The depthwise convolution (one input channel per group), Y holding the
 * bias unless ONNXC_CONV_BIAS; its rows have unit stride. */
ONNXC_HIDDEN void onnxc_rt_depthwise(const onnxc_conv2d_params *q,
                                     const float *x, const float *w, float *y);

#ifdef __cplusplus
}
#endif

/* A path an environment variable turns off (A/B measurements:
 * ONNXC_WINOGRAD=0, ONNXC_QCONV_DIRECT=0): 0 when `name` is "0", else 1;
 * read once into *cache (-1 before). */
static inline int onnxc_rt_env_on(const char *name, int *cache) {
  int v = __atomic_load_n(cache, __ATOMIC_RELAXED);
  if (v < 0) {
    const char *env = getenv(name);
    v = !(env && env[0] == '0' && env[1] == '\0');
    __atomic_store_n(cache, v, __ATOMIC_RELAXED);
  }
  return v;
}

#endif /* ONNXC_RUNTIME_INTERNAL_H */
