/*===- onnxc/runtime_abi.h - What generated code calls in the runtime -----===*
 *
 * Internal to onnxc: the functions the compiler's generated code calls, and
 * the calling convention between the runtime and the lowered model. Users
 * need only onnxc/runtime.h.
 *
 * The lowered model is an MLIR function with the C interface
 *   void _mlir_ciface_main_graph(R *results, D_0 *d_0, ..., D_m *d_m)
 * where D_0..D_m are the memref descriptors of the inputs and R a struct of
 * the memref descriptors of the outputs (absent when the model has no
 * output). A memref descriptor of rank r is, with 8-byte fields and no
 * padding:
 *   { void *allocated; void *aligned; int64_t offset;
 *     int64_t sizes[r]; int64_t strides[r]; }
 * Every graph input and output flattens, in graph order, into:
 *   - tensor T[d1..dr]: one memref<d1 x .. x dr x T>;
 *   - sequence of n items of type T[..] and rank r: `data`, a memref<? x T>
 *     holding the items' elements one item after the other, each
 *     row-major (item i starts after the elements of items 0..i-1), then
 *     `shapes`, a memref<n x r x i64> whose row i is item i's dims
 *     (passes/Conversion/ONNXToLinalg/Sequence.cpp); when the items have
 *     no declared rank (rank -1), each has its own and `shapes` is a
 *     memref<(n * (1 + ONNXC_MAX_RANK)) x i64>: row i holds item i's rank,
 *     its dims, then zeros;
 *   - map of n entries: `keys`, a memref<n x K> (K: i64, or for string keys
 *     the addresses of NUL-terminated strings as i64), then `values`, a
 *     memref<n x V>;
 *   - sequence of m maps: `keys` and `values` of all maps one after the
 *     other, then `sizes`, a memref<m x i64> holding each map's entry count;
 *   - optional: a memref<i1> presence flag (one byte, 1 = present), then
 *     the memrefs of its value as above. When absent, the value's memrefs
 *     are valid but unspecified: the runtime passes zero-filled buffers with
 *     the static dims and 0 for the dynamic ones (a sequence of 0 items).
 * The compiler also emits, for a model M,
 *   void M_invoke(void **args);
 * which calls the function above with args[0] = results (when there are
 * outputs) followed by the input descriptors, one per memref, and
 *   onnxc_status M_run(...)  { return onnxc_run_model(&info, M_invoke, ...); }
 *
 * Output buffers come back as the model allocated them (onnxc_rt_alloc,
 * below; plain malloc blocks are accepted too); an output
 * may also alias an input, another output or a constant (whose `allocated`
 * pointer is the 0xdeadbeef sentinel MLIR uses for globals), and may have
 * non-contiguous strides. onnxc_run_model copies wherever it cannot hand a
 * buffer over as is: the items of a sequence are always copied out of its
 * data into buffers of their own.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_ABI_H
#define ONNXC_RUNTIME_ABI_H

#include "onnxc/runtime.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The version of the layout of onnxc_model_info and onnxc_value_info and
 * of the calling convention above. 1: tensors, sequences, optionals. 2:
 * maps (ONNXC_VALUE_MAP) and sequences of maps; onnxc_value_info gains
 * key_dtype. onnxc_abi_version() returns it.
 */
#define ONNXC_ABI_VERSION 2

typedef void (*onnxc_invoke_fn)(void **args);

/**
 * Checks the inputs against `info` (count, kind, dtype, rank, static dims,
 * symbolic dims equal wherever the same symbol appears, for every item of a
 * sequence or optional) before touching any data, builds the memref
 * descriptors (copying the items of a sequence into one buffer), calls
 * `invoke` and fills `outputs`.
 * A check that fails inside the model (onnxc_rt_fail) returns
 * `code` when it is an error status (1..5), else ONNXC_ERROR_RUNTIME, with
 * the message; every buffer the call allocated through the allocator
 * below is freed then (and any the model left after a successful call).
 * Checks of the model's results: an output dim that differs from a static
 * dim of `info` or from an input symbol's value, or a sequence whose
 * `shapes` need more elements than its `data` holds, is
 * ONNXC_ERROR_RUNTIME.
 */
onnxc_status onnxc_run_model(const onnxc_model_info *info,
                             onnxc_invoke_fn invoke,
                             const onnxc_tensor *inputs, int32_t num_inputs,
                             onnxc_tensor *outputs, int32_t num_outputs);

/**
 * What M_train_info() returns for a model with training info
 * (compiler/Import/Training.cpp makes the functions): each function's
 * metadata and invoke function as M_info / M_invoke. The state is the init
 * function's outputs, and the first num_state inputs of the step and infer
 * functions; the step's last num_updates outputs replace the first
 * num_updates state tensors.
 */
struct onnxc_train_info {
  const onnxc_model_info *init, *step, *infer;
  onnxc_invoke_fn init_invoke, step_invoke, infer_invoke;
  int32_t num_state, num_updates;
};

/**
 * Called by generated code when a run-time check fails (code is an
 * onnxc_status; `message` may be NULL). Does not return: control goes back
 * to the innermost onnxc_run_model of this thread. Outside a run it prints
 * the message to stderr and aborts.
 *
 * Linking: a model library keeps the runtime's symbols exported (no
 * -Bsymbolic, no --exclude-libs). Several model libraries in one process
 * then bind to one copy of the runtime, so onnxc_last_error() is right
 * whichever library failed; tools that dlopen a library RTLD_LOCAL look up
 * its own onnxc_last_error with dlsym. Every function that touches the
 * per-thread error state is exported for that reason (also the internal
 * onnxc_rt_error and onnxc_rt_try, used by the training API and the thread
 * pool: a library may carry runtime members that the first one lacks).
 * Static libraries (--emit=staticlib) hold the same runtime members: the
 * program's linker takes each once. Link models compiled by one onnxc.
 */
void onnxc_rt_fail(int32_t code, const char *message);

/**
 * onnxc_rt_fail with `message` in which each byte 0x01 stands for the next
 * of v0, v1, v2, printed in decimal (the compiler escapes control bytes
 * out of node names, so the placeholder is unambiguous).
 */
void onnxc_rt_fail_values(int32_t code, const char *message, int64_t v0,
                          int64_t v1, int64_t v2);

/**
 * Custom ops (passes/Conversion/ONNXToCustom/CustomToCall.cpp,
 * runtime/src/custom.c; the kernels' ABI is onnxc/custom_op.h). `block`
 * describes the call in int64_t slots: [0] "node\0domain\0op_type\0",
 * [1] the attributes (an encoded blob or NULL), [2] the number of inputs,
 * [3] of outputs, then per input and per output: data address, dtype, rank,
 * the dims. onnxc_rt_custom_shape calls the user's shape function, which
 * writes the outputs' -1 dims into the block; onnxc_rt_custom_call the
 * kernel. A non-zero return fails the run (ONNXC_ERROR_RUNTIME) naming the
 * node.
 */
struct onnxc_custom_call;
typedef int (*onnxc_custom_fn)(struct onnxc_custom_call *call);
void onnxc_rt_custom_shape(int64_t *block, onnxc_custom_fn shape_fn);
void onnxc_rt_custom_call(int64_t *block, onnxc_custom_fn kernel_fn);

/**
 * A buffer that cannot be allocated: a negative dim among the `rank`
 * int64_t dims that follow, or more than 2^63 - 1 bytes of
 * `elem_size`-byte elements. Fails with ONNXC_ERROR_RUNTIME and "<site>: a
 * buffer of [d0, d1, ...] elements of E bytes has a negative dim / holds
 * more than 2^63 - 1 bytes"; `site` names the node (may be NULL).
 * Variadic so that generated code passes the dims without an array.
 */
void onnxc_rt_fail_alloc_size(const char *site, int64_t elem_size,
                              int64_t rank, ...);

/**
 * Profiling (onnxc --profile, runtime/src/profile.c): the generated code
 * calls begin before and end after the ops of each node, with `site` a
 * constant of the library: 'N' (a node) or 'I' (one iteration of a
 * Loop/Scan body), the node names, a NUL, the op types, a NUL.
 */
void onnxc_rt_prof_begin(const char *site);
void onnxc_rt_prof_end(const char *site);

/**
 * Intermediate dumps (onnxc --debug-dump, runtime/src/dump.c): begin at
 * the start of a run (`model` its name), tensor after a node with one of
 * its outputs, `site` the node's name, a NUL, its op type, a NUL, and
 * `block` the output's data address, dtype, rank, output index and dims
 * (a contiguous buffer); skip for an output no .npy holds (`reason`); end
 * when the run returns (writes the manifest).
 */
void onnxc_rt_dump_begin(const char *model);
void onnxc_rt_dump_tensor(const char *site, const int64_t *block);
void onnxc_rt_dump_skip(const char *site, int64_t output, const char *reason);
void onnxc_rt_dump_end(void);

/**
 * Random ops (passes/Conversion/ONNXToLinalg/Random.cpp, runtime/src/random.c).
 * A node's values are computed inline: element i of the node's k-th call is
 * derived from the Philox4x32-10 block of the counter (lo32(i), hi32(i),
 * lo32(k), hi32(k)) under the key (lo32(key), hi32(key)). Per call the
 * generated code asks for the two scalars:
 *   - onnxc_rt_random_key: for a node with a seed attribute (has_seed != 0)
 *     a function of `seed` alone (the IEEE bits of the float attribute as a
 *     double, or Dropout's int64); otherwise a function of the process seed
 *     and `node_id` (a hash the compiler derives from the function, the
 *     node's name and op).
 *   - onnxc_rt_random_call: the call index k of the node whose state is
 *     `state` (two uint64_t, an internal zero-initialized global of the
 *     model library, one per node): its epoch and its call count; counts
 *     from 0 again after onnxc_set_random_seed.
 */
uint64_t onnxc_rt_random_key(uint64_t node_id, int32_t has_seed,
                             uint64_t seed);
uint64_t onnxc_rt_random_call(uint64_t *state);

/**
 * MLIR's lowering of a copy between non-contiguous memrefs calls this by
 * name (the layout of its arguments is MLIR's UnrankedMemRefType: rank, then
 * a pointer to the ranked descriptor). Provided so that models need no MLIR
 * runner library. runtime/src/memref.c.
 */
struct onnxc_unranked_memref;
void memrefCopy(int64_t elem_size, struct onnxc_unranked_memref *src,
                struct onnxc_unranked_memref *dst);

/**
 * A large copy between buffers, split over the thread count of
 * onnxc_set_num_threads when it is large enough (runtime/src/copy.c; the
 * compiler's onnxc-parallel-copies emits it for static copies of 256 KiB
 * and more). `params` holds rank r (1 to ONNXC_MAX_RANK), the element size
 * in bytes, then the r sizes, the r element strides of `src` and the r of
 * `dst` (any strides, 0 and negative included; the two must not overlap).
 */
void onnxc_rt_copy(const int64_t *params, const void *src, void *dst);

/*
 * fp32 matrix products and convolutions (runtime/src/gemm.c). At -O1 and
 * above the compiler (onnxc-linalg-to-ukernel) replaces fp32 contractions
 * by these calls. Matrices are addressed by element strides: A[i, p] is
 * a[i * rsa + p * csa], likewise B and C; any stride (0, transposed) works,
 * unit column strides are fastest. A large call is split over the thread
 * count of onnxc_set_num_threads (runtime/src/parallel.c): the parts
 * write disjoint parts of C (or Y), and the call returns when all are
 * done, with the values one thread computes.
 *
 * With ONNXC_SGEMM_B_PACKED, `b` is not strided but packed (the compiler
 * packs constant weights at compile time): ceil(n / ONNXC_SGEMM_PANEL)
 * panels of k x ONNXC_SGEMM_PANEL floats, panel j row p column c holding
 * B[p, j * ONNXC_SGEMM_PANEL + c], zero past column n; rsb and csb are
 * ignored. Without ONNXC_SGEMM_ACCUMULATE, C = A * B (C is only written),
 * with it C += A * B.
 */
#define ONNXC_SGEMM_PANEL 32
#define ONNXC_SGEMM_ACCUMULATE 1
#define ONNXC_SGEMM_B_PACKED 2

void onnxc_rt_sgemm(int64_t m, int64_t n, int64_t k, const float *a,
                    int64_t rsa, int64_t csa, const float *b, int64_t rsb,
                    int64_t csb, float *c, int64_t rsc, int64_t csc,
                    int32_t flags);

/** `batch` products, operand i at a + i * sba (b + i * sbb, c + i * sbc). */
void onnxc_rt_sgemm_batched(int64_t batch, int64_t m, int64_t n, int64_t k,
                            const float *a, int64_t sba, int64_t rsa,
                            int64_t csa, const float *b, int64_t sbb,
                            int64_t rsb, int64_t csb, float *c, int64_t sbc,
                            int64_t rsc, int64_t csc, int32_t flags);

/*
 * The products above with an epilogue (a Gemm's bias and a following Relu
 * or Clip, fused by the compiler), selected by more flags:
 *   ONNXC_SGEMM_BIAS_ROW: C = A * B + bias[i] (row i of C), bias holding m
 *     contiguous floats;
 *   ONNXC_SGEMM_BIAS_COL: C = A * B + bias[j] (column j), n floats;
 * with either, C's contents are ignored (ONNXC_SGEMM_ACCUMULATE is);
 * ONNXC_SGEMM_CLAMP: then each element is clamped to [lo, hi], NaN staying
 * NaN (max(v, lo) then min(v, hi), as Relu and Clip compute it). bias, lo
 * and hi are ignored without their flags. Every product of a batch uses
 * the same bias.
 */
#define ONNXC_SGEMM_BIAS_ROW 4
#define ONNXC_SGEMM_BIAS_COL 8
#define ONNXC_SGEMM_CLAMP 16

void onnxc_rt_sgemm_ep(int64_t m, int64_t n, int64_t k, const float *a,
                       int64_t rsa, int64_t csa, const float *b, int64_t rsb,
                       int64_t csb, float *c, int64_t rsc, int64_t csc,
                       int32_t flags, const float *bias, float lo, float hi);

void onnxc_rt_sgemm_batched_ep(int64_t batch, int64_t m, int64_t n, int64_t k,
                               const float *a, int64_t sba, int64_t rsa,
                               int64_t csa, const float *b, int64_t sbb,
                               int64_t rsb, int64_t csb, float *c,
                               int64_t sbc, int64_t rsc, int64_t csc,
                               int32_t flags, const float *bias, float lo,
                               float hi);

/**
 * A grouped 2-D convolution, accumulated into y (which holds the bias or
 * zeros):
 *   Y[n, g, m, oh, ow] += sum over c, kh, kw of
 *     X[n, g, c, oh * stride_h + kh * dilation_h, ow * stride_w + kw * dilation_w]
 *     * W[g, m, c, kh, kw]
 * with element strides per dim of X (n, g, c, h, w), W (g, m, c, kh, kw)
 * and Y (n, g, m, oh, ow). out_channels and in_channels are per group.
 * Without ONNXC_CONV_PADDED, X is padded already: every index above is in
 * range. With it, x is the unpadded input, in_h x in_w per channel, and
 * the row read is ih = oh * stride_h - pad_top + kh * dilation_h, the
 * column iw = ow * stride_w - pad_left + kw * dilation_w; X is 0 outside
 * [0, in_h) x [0, in_w). pad_top and pad_left may be any integers
 * (negative: the window starts inside the input; larger than the kernel:
 * whole rows of zeros), so that a band of output rows [r0, r1) is the same
 * call with out_h = r1 - r0, y advanced by r0 rows and
 * pad_top - r0 * stride_h. For a 1-D convolution out_h = kernel_h = 1,
 * pad_top = 0, in_h = 1.
 * The compiler fills the struct as an array of 35 int64_t in field order
 * (64-bit little-endian targets: the pointer takes one, each pair of
 * floats shares one).
 */
typedef struct onnxc_conv2d_params {
  int64_t batch, groups, out_channels, in_channels;
  int64_t out_h, out_w, kernel_h, kernel_w;
  int64_t stride_h, stride_w, dilation_h, dilation_w;
  int64_t x_strides[5], w_strides[5], y_strides[5];
  /* ONNXC_CONV_W_PACKED, ONNXC_CONV_BIAS, ONNXC_CONV_CLAMP,
   * ONNXC_CONV_PADDED, ONNXC_CONV_IN_PLACE, ONNXC_CONV_ACT(kind) */
  int64_t flags;
  const float *bias;         /* ONNXC_CONV_BIAS: groups * out_channels */
  float clamp_lo, clamp_hi;  /* ONNXC_CONV_CLAMP (one int64 slot, lo first) */
  int64_t pad_top, pad_left; /* ONNXC_CONV_PADDED: zero rows / columns */
  int64_t in_h, in_w;        /* before X; the input's rows and columns */
  float act_alpha, act_beta; /* ONNXC_CONV_ACT (one int64 slot, alpha first) */
} onnxc_conv2d_params;

/*
 * `w` is packed (the compiler packs constant weights at compile time):
 * for each group, ceil(out_channels / ONNXC_SGEMM_PANEL) panels of
 * K x ONNXC_SGEMM_PANEL floats, K = in_channels * kernel_h * kernel_w in
 * (c, kh, kw) order; panel j row k column c holds W[g, j * 32 + c, k], zero
 * past out_channels. w_strides are ignored.
 */
#define ONNXC_CONV_W_PACKED 1
/*
 * ONNXC_CONV_W_CBLOCK (with ONNXC_CONV_W_PACKED; the compiler sets it only
 * for one group, in_channels a multiple of ONNXC_CONV_CBLOCK and a kernel
 * larger than 1 x 1): the panels' K rows are in (c / 16, kh, kw, c % 16)
 * order instead of (c, kh, kw): row ((c / 16) * kernel_h * kernel_w +
 * kh * kernel_w + kw) * 16 + c % 16 holds W[g, m, c, kh, kw]. With
 * ONNXC_CONV_PADDED the runtime then pads the input into a copy in blocks
 * of 16 channels, each element's 16 channels contiguous, so that a
 * window's taps of 16 channels read one cache line per position instead
 * of 16 rows of 16 planes (docs/performance.md, issue 10); the compiler
 * sets the flag only there. The sum is over the same products in another
 * order: not bit-identical to the (c, kh, kw) order.
 */
#define ONNXC_CONV_W_CBLOCK 256
#define ONNXC_CONV_CBLOCK 16
/*
 * ONNXC_CONV_W_CONST (with ONNXC_CONV_W_PACKED; the compiler sets it for
 * the weights it packs, which are constants of the model library): w's
 * contents never change while its library is loaded, so the runtime may
 * keep what it derives from them (the Winograd transform of a 3 x 3
 * convolution's weights, runtime/src/winograd.c) under w's address. A
 * caller whose packed weights live in memory it frees or rewrites must
 * not set it.
 */
#define ONNXC_CONV_W_CONST 512
/*
 * ONNXC_CONV_BIAS: Y's contents are ignored and the result is
 * bias[g * out_channels + m] + the sum, or the sum alone when bias is NULL
 * (the compiler fuses the bias broadcast or zero fill that initialized Y). ONNXC_CONV_CLAMP: the result is clamped to
 * [clamp_lo, clamp_hi] (a fused Relu or Clip).
 */
#define ONNXC_CONV_BIAS 2
#define ONNXC_CONV_CLAMP 4
/*
 * ONNXC_CONV_BIAS_ADD (without ONNXC_CONV_BIAS): Y's values plus
 * bias[g * out_channels + m] are the start, the sum is added to them, then
 * the clamp or activation: a residual Add (and the Relu after it) fused
 * into the convolution that feeds it, Y the Add's other operand, updated
 * in place (the compiler's onnxc-linalg-to-ukernel). A null bias: Y's
 * values alone, as without the flag.
 */
#define ONNXC_CONV_BIAS_ADD 1024
/* ONNXC_CONV_PADDED: x is unpadded; pad_top, pad_left, in_h and in_w
 * describe the zero padding around it (the compiler fuses a zero Pad, or a
 * Conv's pads, into the call instead of materializing the padded input). */
#define ONNXC_CONV_PADDED 8
/*
 * ONNXC_CONV_IN_PLACE (with ONNXC_CONV_PADDED): y is x itself, same
 * strides (the compiler fuses a Relu / Clip that writes the convolution's
 * input buffer back). Two cases: depthwise (one input and one output
 * channel per group, out_h = in_h, out_w = in_w), where the runtime reads
 * each input channel in full before it writes that channel's output, so a
 * caller that splits such a call must split it by images or groups, never
 * by rows; and one group over packed weights (ONNXC_CONV_W_PACKED), whose
 * GEMM paths copy the padded input in full before they write any output
 * (onnxc_rt_sconv2d_pads_input; parallel.c pads once before it splits).
 */
#define ONNXC_CONV_IN_PLACE 16
/*
 * The activation after the bias (a fused Sigmoid, Swish, HardSigmoid or
 * HardSwish; the compiler folds the elementwise op that reads Y next, as
 * for the clamp), its kind in bits 5-7 of flags: ONNXC_CONV_ACT(kind).
 * With v the biased sum and a, b act_alpha, act_beta, each element is
 *   ONNXC_ACT_SIGMOID:      1 / (1 + exp(-v))
 *   ONNXC_ACT_SWISH:        v / (1 + exp(-a * v))   (x * Sigmoid(a x);
 *                           a = 1: SiLU, Mul(x, Sigmoid(x)))
 *   ONNXC_ACT_HARD_SIGMOID: max(min(a * v + b, 1), 0)
 *   ONNXC_ACT_HARD_SWISH:   v * max(min(a * v + b, 1), 0)  (HardSwish:
 *                           a = 1/6, b = 0.5; Mul(x, HardSigmoid(x)))
 * (a * v rounded, then + b; min and max propagate NaN as ONNX's ops and
 * arith.minimumf / maximumf do: NaN in, NaN out; Swish and HardSwish of
 * -inf are NaN, -inf * 0, as the unfused ops and ONNX Runtime compute
 * them). exp is libm's (portable tier) or the runtime's own
 * (runtime/src/kernels/act_avx512.h: the results within 3 ulp).
 * The activation comes after the clamp when both are set (the compiler
 * sets one of them).
 */
#define ONNXC_ACT_NONE 0
#define ONNXC_ACT_SIGMOID 1
#define ONNXC_ACT_SWISH 2
#define ONNXC_ACT_HARD_SIGMOID 3
#define ONNXC_ACT_HARD_SWISH 4
#define ONNXC_CONV_ACT_SHIFT 5
#define ONNXC_CONV_ACT_MASK (7 << ONNXC_CONV_ACT_SHIFT)
#define ONNXC_CONV_ACT(kind) ((kind) << ONNXC_CONV_ACT_SHIFT)

void onnxc_rt_sconv2d(const onnxc_conv2d_params *params, const float *x,
                      const float *w, float *y);

/*
 * Chained convolutions (runtime/src/conv_chain.c): calls[5 i .. 5 i + 4]
 * hold the operands (params, x, w, y) of call i < n as integers, then its
 * chain flags; the same as onnxc_rt_sconv2d on each in order. The
 * compiler makes one such call of 2 to ONNXC_CONV_CHAIN_MAX convolution
 * calls in a row each of which reads the previous one's output (y of call
 * i is x of call i + 1), with nothing in between. ONNXC_CONV_CHAIN_DEAD
 * (call i < n - 1): nothing reads y after the chain but call i + 1, so
 * the runtime need not write it at all. The runtime may run the calls
 * interleaved in bands of rows, so that the rows each writes are still in
 * cache when the next reads them; every element of every output is the
 * same sum as in the calls one by one, and every output that is not dead
 * is whole when the call returns.
 */
#define ONNXC_CONV_CHAIN_MAX 32
#define ONNXC_CONV_CHAIN_SLOTS 5
#define ONNXC_CONV_CHAIN_DEAD 1
/* The runtime runs two calls of a chain in bands only when the map in
 * between has at least this many bytes (the compiler chains no calls
 * whose map it knows to be smaller). */
#define ONNXC_CONV_CHAIN_MIN_BYTES (1 << 20)
void onnxc_rt_sconv2d_chain(int64_t n, const int64_t *calls);

/*
 * 2-D fp32 max pooling (runtime/src/pool.c; the compiler's MaxPool without
 * Indices): for every n, c, oh, ow
 *   Y[n, c, oh, ow] = max over kh < kernel_h, kw < kernel_w with ih, iw in
 *                     [0, in_h) x [0, in_w) of X[n, c, ih, iw],
 *   ih = oh * stride_h - pad_top + kh * dilation_h,
 *   iw = ow * stride_w - pad_left + kw * dilation_w,
 * starting from -inf (a window entirely in the padding gives -inf), with
 * the semantics of arith.maximumf / llvm.maximum: a NaN anywhere in the
 * window gives NaN, and +0 is larger than -0. Y's previous contents are
 * ignored. The padding is never read, so X is the unpadded input. Strides
 * are in elements, X and Y in (n, c, h, w) order. The compiler fills the
 * struct as an array of 22 int64_t in field order.
 */
typedef struct onnxc_maxpool2d_params {
  int64_t batch, channels, out_h, out_w, kernel_h, kernel_w;
  int64_t stride_h, stride_w, dilation_h, dilation_w;
  int64_t pad_top, pad_left, in_h, in_w;
  int64_t x_strides[4], y_strides[4];
} onnxc_maxpool2d_params;

void onnxc_rt_smaxpool2d(const onnxc_maxpool2d_params *params,
                         const float *x, float *y);

/*
 * The same over uint8 and int8 (runtime/src/bpool.c; the MaxPool of
 * quantized models, whose max over the window is the integer order, the
 * type's lowest value starting it).
 */
void onnxc_rt_u8maxpool2d(const onnxc_maxpool2d_params *params,
                          const uint8_t *x, uint8_t *y);
void onnxc_rt_s8maxpool2d(const onnxc_maxpool2d_params *params,
                          const int8_t *x, int8_t *y);

/*
 * Col2Im of fp32 (runtime/src/col2im.c), ConvTranspose's scatter: the
 * compiler (convert-onnx-quantized-to-ukernel) replaces an fp32 Col2Im of
 * one or two spatial dims by this call; onnx-graph-optimize makes one of
 * each ConvTranspose it turns into a GEMM. `cols` holds, per batch
 * element, channels * kernel_h * kernel_w rows (c, kh, kw in that order)
 * of in_h * in_w block positions ([N][C*kh*kw][L], row-major), or with
 * ONNXC_COL2IM_TRANSPOSED the same transposed ([N][L][C*kh*kw]). Y
 * ([N][C][out_h][out_w], dense) is overwritten with
 *   Y[n, c, ih*stride_h - pad_top + kh*dilation_h,
 *         iw*stride_w - pad_left + kw*dilation_w] += cols[n, (c, kh, kw), (ih, iw)]
 * over the taps that land inside it (ONNX's Col2Im; the pads at the end
 * are implied by out_h and out_w). A 1-D Col2Im has in_h = out_h =
 * kernel_h = 1. The compiler fills the struct as an array of 15 int64_t.
 */
#define ONNXC_COL2IM_TRANSPOSED 1
typedef struct onnxc_col2im_params {
  int64_t batch, channels, in_h, in_w, out_h, out_w, kernel_h, kernel_w;
  int64_t stride_h, stride_w, dilation_h, dilation_w, pad_top, pad_left;
  int64_t flags;
} onnxc_col2im_params;

void onnxc_rt_col2im(const onnxc_col2im_params *params, const float *cols,
                     float *y);

/*
 * Resize of fp32 over the last two dims (runtime/src/resize.c): the
 * compiler (convert-onnx-quantized-to-ukernel) replaces an fp32 Resize of
 * rank 4 whose first two dims keep their size, with static sizes and
 * constant scales, nearest or linear (antialias too; not cubic without
 * it, not tf_crop_and_resize), by this call. The taps are the compiler's
 * tables: output row oy reads input rows h_index[oy * h_taps + k] with
 * weights h_weight[oy * h_taps + k] (k < h_taps), output column ox input
 * columns w_index[ox * w_taps + k] with w_weight[...]; a NULL weight table
 * (nearest) has one tap of weight 1. For each of the `planes` planes
 * ([planes][in_h][in_w] -> [planes][out_h][out_w], dense)
 *   Y[oy, ox] = sum_k h_weight[oy, k] * (sum_j w_weight[ox, j] *
 *                                        X[h_index[oy, k], w_index[ox, j]])
 * (separable, in f32; with both tables NULL a copy). The compiler fills
 * the struct as an array of 7 int64_t.
 */
typedef struct onnxc_resize2d_params {
  int64_t planes, in_h, in_w, out_h, out_w, h_taps, w_taps;
} onnxc_resize2d_params;

void onnxc_rt_resize2d(const onnxc_resize2d_params *params, const float *x,
                       float *y, const int64_t *h_index, const float *h_weight,
                       const int64_t *w_index, const float *w_weight);

/*
 * Resize's antialias filter tables (runtime/src/resize.c) for a resized
 * dim whose sizes or scale are known only at run time (the compiler builds
 * constant tables when they are static): ONNX Runtime's antialias filter
 * (linear, or cubic with coefficient cubic_a), stretched by 1/scale when
 * downsampling, in f32.
 *   resize_aa_width: the table width, min(window, in_size) and at least 1
 *   (window = ceil(support) * 2 + 1, the taps an output may read);
 *   resize_aa_table: for every output index o < out_size, width taps
 *   index[o * width + k] (input indices in [0, in_size)) and weights
 *   weight[o * width + k] (normalized; unused slots read tap 0 with weight
 *   0). `coord` is one of ONNXC_RESIZE_* (tf_crop_and_resize has no
 *   table); without exclude_outside the weights of taps outside the input
 *   move to the nearest edge tap.
 */
#define ONNXC_RESIZE_HALF_PIXEL 0
#define ONNXC_RESIZE_HALF_PIXEL_SYMMETRIC 1
#define ONNXC_RESIZE_PYTORCH_HALF_PIXEL 2
#define ONNXC_RESIZE_ALIGN_CORNERS 3
#define ONNXC_RESIZE_ASYMMETRIC 4
#define ONNXC_RESIZE_TF_HALF_PIXEL_FOR_NN 5
int64_t onnxc_rt_resize_aa_width(int32_t cubic, double scale, int64_t in_size);
void onnxc_rt_resize_aa_table(int32_t cubic, int32_t coord, double cubic_a,
                              int32_t exclude_outside, int64_t in_size,
                              int64_t out_size, double scale, int64_t width,
                              int64_t *index, double *weight);

/*
 * int8 matrix products and convolutions (runtime/src/kernels/qgemm*.c). At
 * -O1 and above the compiler (convert-onnx-quantized-to-ukernel) replaces
 * ConvInteger, MatMulInteger, QLinearConv, QLinearMatMul, the dequantizing
 * chain after ConvInteger / MatMulInteger (Cast to float, Mul by the scale
 * product, Add of a bias, Relu) and DynamicQuantizeLinear by these calls.
 * Every tensor is dense, row-major. With A the activations (the product's
 * A, the convolution's X: uint8, or int8 with ONNXC_Q_A_SIGNED) and B the
 * weights (the product's B, the convolution's W: uint8, or int8 with
 * ONNXC_Q_B_SIGNED), each output element is first the exact sum
 *   acc = sum over k of (A[.., k] - a_zp) * (B[k, ..] - b_zp)
 * (wrapping in int32 as ONNX Runtime does for sums past its range), then
 * what ONNXC_Q_OUT_* says:
 *   I32: acc (int32; ConvInteger, MatMulInteger);
 *   F32: y = (float)acc * (a_scale * b_scale), the product rounded to
 *        float first as the graph's Mul computes it, then + bias (float)
 *        and, with ONNXC_Q_CLAMP, min(max(y, clamp_lo), clamp_hi): the
 *        Cast + Mul + Add + Relu/Clip of dynamic quantization, each
 *        rounding as those ops do (no fused multiply-add);
 *   U8 / S8: y = saturate(round_half_even((float)(acc + bias) *
 *        (a_scale * b_scale / y_scale)) + y_zp), the multiplier computed
 *        in float in that order and the bias int32 (QLinearConv,
 *        QLinearMatMul; ONNX Runtime computes the same); with
 *        ONNXC_Q_CLAMP the value before rounding, in output steps, is
 *        first clamped to [clamp_lo, clamp_hi] too (a Relu before the
 *        QuantizeLinear of the QDQ form: clamp_lo 0).
 * A zero point pointer may be NULL (0). a_zp is one element, or with
 * ONNXC_Q_A_ZP_PER_ROW one per row of A (MatMulInteger only); b_zp, and
 * b_scale, are one element, or with ONNXC_Q_B_ZP_PER_CHANNEL and
 * ONNXC_Q_B_SCALE_PER_CHANNEL one per output channel (column of the
 * product's B; output channel of the convolution, groups included). Zero
 * points have the type of what they offset (y_zp: uint8 for U8, int8 for
 * S8). bias, with ONNXC_Q_BIAS, has one element per output channel.
 */
#define ONNXC_Q_A_SIGNED 1
#define ONNXC_Q_B_SIGNED 2
/* B packed by the compiler (layouts below). */
#define ONNXC_Q_B_PACKED 4
#define ONNXC_Q_A_ZP_PER_ROW 8
#define ONNXC_Q_B_ZP_PER_CHANNEL 16
#define ONNXC_Q_B_SCALE_PER_CHANNEL 32
#define ONNXC_Q_OUT_I32 0
#define ONNXC_Q_OUT_F32 64
#define ONNXC_Q_OUT_U8 128
#define ONNXC_Q_OUT_S8 192
#define ONNXC_Q_OUT_MASK 192
#define ONNXC_Q_BIAS 256
#define ONNXC_Q_CLAMP 512
/* A convolution's packed weights (ONNXC_Q_B_PACKED) with rows in
 * (kh, kw, c) order instead of (c, kh, kw): set by the compiler when
 * in_channels is a multiple of 4 and the kernel larger than 1 x 1 (layout
 * below), for the kernels that read 4 channels of one input position as
 * one word (and AMX tiles 16 such words of one tap). */
#define ONNXC_Q_W_HWC 1024

/* What both entry points share: 9 int64 slots (the pointers one each,
 * the two floats one, lo first). */
typedef struct onnxc_qparams {
  int64_t flags;
  const void *a_zp, *b_zp;
  const float *a_scale, *b_scale, *y_scale;
  const void *y_zp;
  const void *bias;
  float clamp_lo, clamp_hi;
} onnxc_qparams;

/*
 * C[i, m, n] = the above over A[i, m, k] and B[i, k, n], i < batch (a B
 * shared by the batch has b_batch_stride 0; A and C are dense, B too unless
 * packed). With ONNXC_Q_B_PACKED, b is ceil(n / ONNXC_QGEMM_PANEL) panels
 * of ceil(k / 4) x ONNXC_QGEMM_PANEL x 4 bytes, byte (p, c, t) of panel j
 * holding B[4p + t, 32j + c] + 128 (int8 B) or B[..] (uint8 B), 0 past k
 * and n, followed by n int32 column sums of those bytes (over the k rows);
 * one B for the whole batch. The compiler fills the struct as an array of
 * 14 int64_t.
 */
#define ONNXC_QGEMM_PANEL 32
typedef struct onnxc_qgemm_params {
  int64_t batch, m, n, k;
  int64_t b_batch_stride;
  onnxc_qparams q;
} onnxc_qgemm_params;

void onnxc_rt_qgemm(const onnxc_qgemm_params *params, const void *a,
                    const void *b, void *c);

/*
 * A grouped 1-D or 2-D convolution (ConvInteger, QLinearConv) over
 * X[batch, groups * in_channels, in_h, in_w] and W[groups * out_channels,
 * in_channels, kernel_h, kernel_w] into Y[batch, groups * out_channels,
 * out_h, out_w] (channels per group; a 1-D convolution has in_h = out_h =
 * kernel_h = 1): Y[n, g * M + m, oh, ow] sums over c, kh, kw the products
 * at X[n, g * C + c, oh * stride_h - pad_top + kh * dilation_h,
 * ow * stride_w - pad_left + kw * dilation_w], X being a_zp (a zero term)
 * outside the input. With ONNXC_Q_B_PACKED, w is, per output channel
 * (groups * out_channels rows), K4 = 4 * ceil(in_channels * kernel_h *
 * kernel_w / 4) bytes, W[.., c, kh, kw] in (c, kh, kw) order, stored as
 * int8: W (int8 W) or W - 128 (uint8 W), 0 past the end; followed by one
 * int32 per row: the sum of its bytes. With ONNXC_Q_W_HWC too, byte
 * (kh * kernel_w + kw) * in_channels + c of a row holds W[.., c, kh,
 * kw]. 25 int64 slots.
 */
typedef struct onnxc_qconv2d_params {
  int64_t batch, groups, out_channels, in_channels;
  int64_t in_h, in_w, out_h, out_w;
  int64_t kernel_h, kernel_w, stride_h, stride_w;
  int64_t dilation_h, dilation_w, pad_top, pad_left;
  onnxc_qparams q;
} onnxc_qconv2d_params;

void onnxc_rt_qconv2d(const onnxc_qconv2d_params *params, const void *x,
                      const void *w, void *y);

/*
 * Softmax (flags 0) or LogSoftmax (ONNXC_SOFTMAX_LOG) of each of `rows`
 * rows of n contiguous floats, x into y (the same layout; y may be x):
 * with m the row's maximum and s = sum exp(x - m), y = exp(x - m) / s
 * (computed as a product by 1 / s), or y = (x - m) - log(s). A NaN in a
 * row makes the whole row NaN. convert-onnx-quantized-to-ukernel emits it
 * for an fp32 Softmax / LogSoftmax along the last axis.
 */
#define ONNXC_SOFTMAX_LOG 1
void onnxc_rt_softmax(int64_t rows, int64_t n, const float *x, float *y,
                      int64_t flags);

/*
 * DynamicQuantizeLinear over n contiguous floats: with lo = min(0, min x)
 * and hi = max(0, max x), *scale = (hi - lo) / 255 (1 when hi == lo, as
 * ONNX Runtime does: all zeros), *zero_point = round_half_even(clamp(-lo /
 * scale, 0, 255)) and y = saturate(round_half_even(x / scale) + zero_point)
 * (a division, as the spec and ONNX Runtime compute it).
 */
void onnxc_rt_dynamic_quantize(const float *x, int64_t n, uint8_t *y,
                               float *scale, uint8_t *zero_point);

/*
 * String tensors (passes/Conversion/ONNXToLinalg/Strings.cpp,
 * runtime/src/strings.c). Inside the model a string tensor is a memref of
 * int64_t, each the address of a NUL-terminated UTF-8 string (0 reads as
 * ""): the caller's strings for an input, a constant of the library, or a
 * string the model made with onnxc_rt_alloc (owned by the call).
 * onnxc_run_model copies the strings of string outputs into one block per
 * output (n pointers, then the strings) before the call's blocks are freed.
 * `site` names the node in messages ("node 'c' (Cast)").
 *   str_eq: 1 when equal (bytewise); str_cmp: -1, 0, 1 (strcmp);
 *   str_concat: a + b (str_cmp also serves the binary searches of
 *   LabelEncoder and CategoryMapper over their sorted keys);
 *   str_from_float: v, a value of the type `kind` (ONNXC_RT_FLOAT_*),
 *   as the ONNX reference's Cast writes it (numpy's str: the shortest
 *   digits that round-trip in that type, "1.0", "1e-05", "nan", "-inf";
 *   docs/strings.md); onnxc_rt_format_float writes the same into buf
 *   (snprintf's return value);
 *   str_from_i64 / _u64: decimal; str_to_f64: strtod; str_to_i64 / _u64:
 *   strtoll / strtoull in base 10 (a string with no number, or out of
 *   range, fails the call);
 *   str_normalize: StringNormalizer over n strings (case_action 0 none,
 *   1 lower, 2 upper; `stopwords` num_stopwords NUL-terminated strings one
 *   after the other, compared case-sensitively or not;
 *   `unicode` 0: the "C" locale's ASCII mappings, 1: also Latin-1, Latin
 *   Extended-A, Greek and Cyrillic letters),
 *   returns how many it wrote to `out` (one "" when it kept none: `out`
 *   has room for max(n, 1));
 *   str_split: the pieces of `str` (into `out`, then "" up to `width`; or
 *   only counted when `out` is NULL), StringSplit's semantics;
 *   regex_full_match: out[i] = whether in[i] matches `pattern` (POSIX
 *   extended syntax) as a whole.
 */
int32_t onnxc_rt_str_eq(int64_t a, int64_t b);
int32_t onnxc_rt_str_cmp(int64_t a, int64_t b);
int64_t onnxc_rt_str_concat(int64_t a, int64_t b, const char *site);
enum {
  ONNXC_RT_FLOAT_F64 = 0,
  ONNXC_RT_FLOAT_F32 = 1,
  ONNXC_RT_FLOAT_F16 = 2,
  ONNXC_RT_FLOAT_BF16 = 3
};
int64_t onnxc_rt_str_from_float(double v, int32_t kind, const char *site);
int onnxc_rt_format_float(char *buf, size_t size, double v, int kind);
int64_t onnxc_rt_str_from_i64(int64_t v, const char *site);
int64_t onnxc_rt_str_from_u64(uint64_t v, const char *site);
double onnxc_rt_str_to_f64(int64_t s, const char *site);
int64_t onnxc_rt_str_to_i64(int64_t s, const char *site);
uint64_t onnxc_rt_str_to_u64(int64_t s, const char *site);
int64_t onnxc_rt_str_normalize(const int64_t *in, int64_t n, int64_t *out,
                               int32_t case_action, int32_t case_sensitive,
                               int32_t unicode, const char *stopwords,
                               int64_t num_stopwords, const char *site);
int64_t onnxc_rt_str_split(int64_t str, int64_t delimiter, int64_t maxsplit,
                           int64_t *out, int64_t width, const char *site);
void onnxc_rt_regex_full_match(const int64_t *in, int64_t n, uint8_t *out,
                               const char *pattern, const char *site);

/*
 * The allocator of compiled models (MLIR's memref lowering with
 * use-generic-functions, its calls renamed by onnxc-mark-allocator to
 * onnxc_rt_alloc with the allocating node's name in `site`, e.g.
 * "node 'c' (ConstantOfShape)", or NULL; runtime/src/alloc.c). Inside a
 * call of onnxc_run_model every block belongs to the call (freed when it
 * ends, whatever the model freed), counts against onnxc_set_memory_limit,
 * and a failed allocation fails the call with ONNXC_ERROR_OUT_OF_MEMORY
 * (the function does not return). Outside a call it returns NULL on
 * failure. A block has a 32-byte header before the returned pointer: free
 * it with _mlir_memref_to_llvm_free, never free(). Freed blocks of 64 KiB
 * and more are kept for reuse by later allocations.
 * _mlir_memref_to_llvm_alloc(size) is onnxc_rt_alloc(size, NULL).
 */
void *onnxc_rt_alloc(size_t size, const char *site);
void *_mlir_memref_to_llvm_alloc(size_t size);
void _mlir_memref_to_llvm_free(void *ptr);

/*
 * The layouts the compiler relies on (it includes this header: passes/
 * Transforms/LinalgToUkernel.cpp, passes/Conversion/ONNXToUkernel/
 * QuantizedToUkernel.cpp) and fills as arrays of int64_t slots: checked at
 * compile time on both sides, for the 64-bit targets onnxc generates code
 * for (pointers take one slot, two floats share one).
 */
#if defined(__cplusplus)
#define ONNXC_ABI_CHECK(cond, name) static_assert(cond, #name)
#else
#define ONNXC_ABI_CHECK(cond, name) \
  typedef char onnxc_abi_check_##name[(cond) ? 1 : -1]
#endif
#define ONNXC_ABI_SLOT(type, field) (offsetof(type, field) / sizeof(int64_t))
#if defined(__LP64__) || defined(_WIN64)
ONNXC_ABI_CHECK(sizeof(onnxc_conv2d_params) == 35 * sizeof(int64_t),
                conv2d_size);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_conv2d_params, x_strides) == 12,
                conv2d_x_strides);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_conv2d_params, flags) == 27, conv2d_flags);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_conv2d_params, bias) == 28, conv2d_bias);
ONNXC_ABI_CHECK(offsetof(onnxc_conv2d_params, clamp_lo) == 29 * sizeof(int64_t),
                conv2d_clamp_lo);
ONNXC_ABI_CHECK(offsetof(onnxc_conv2d_params, clamp_hi) ==
                    29 * sizeof(int64_t) + sizeof(float),
                conv2d_clamp_hi);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_conv2d_params, pad_top) == 30,
                conv2d_pad_top);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_conv2d_params, in_h) == 32, conv2d_in_h);
ONNXC_ABI_CHECK(offsetof(onnxc_conv2d_params, act_alpha) == 34 * sizeof(int64_t),
                conv2d_act_alpha);
ONNXC_ABI_CHECK(offsetof(onnxc_conv2d_params, act_beta) ==
                    34 * sizeof(int64_t) + sizeof(float),
                conv2d_act_beta);
ONNXC_ABI_CHECK(sizeof(onnxc_maxpool2d_params) == 22 * sizeof(int64_t),
                maxpool2d_size);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_maxpool2d_params, x_strides) == 14,
                maxpool2d_x_strides);
ONNXC_ABI_CHECK(sizeof(onnxc_col2im_params) == 15 * sizeof(int64_t),
                col2im_size);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_col2im_params, flags) == 14,
                col2im_flags);
ONNXC_ABI_CHECK(sizeof(onnxc_resize2d_params) == 7 * sizeof(int64_t),
                resize2d_size);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_resize2d_params, w_taps) == 6,
                resize2d_w_taps);
ONNXC_ABI_CHECK(sizeof(onnxc_qparams) == 9 * sizeof(int64_t), qparams_size);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_qparams, a_zp) == 1, qparams_a_zp);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_qparams, bias) == 7, qparams_bias);
ONNXC_ABI_CHECK(offsetof(onnxc_qparams, clamp_lo) == 8 * sizeof(int64_t),
                qparams_clamp_lo);
ONNXC_ABI_CHECK(sizeof(onnxc_qgemm_params) == 14 * sizeof(int64_t),
                qgemm_size);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_qgemm_params, q) == 5, qgemm_q);
ONNXC_ABI_CHECK(sizeof(onnxc_qconv2d_params) == 25 * sizeof(int64_t),
                qconv2d_size);
ONNXC_ABI_CHECK(ONNXC_ABI_SLOT(onnxc_qconv2d_params, q) == 16, qconv2d_q);
#endif

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_RUNTIME_ABI_H */
