/*===- onnxc/runtime_abi.h - What generated code calls in the runtime -----===*
 *
 * Internal to onnxc: the functions the compiler's generated code calls, and
 * the calling convention between the runtime and the lowered model. Users
 * need only onnxc/runtime.h.
 *
 * The lowered model is an MLIR function with the C interface
 *   void _mlir_ciface_main_graph(R *results, D_0 *in_0, ..., D_n *in_n)
 * where D_i is a memref descriptor of input i and R a struct of one memref
 * descriptor per output (absent when the model has no output). A memref
 * descriptor of rank r is, with 8-byte fields and no padding:
 *   { void *allocated; void *aligned; int64_t offset;
 *     int64_t sizes[r]; int64_t strides[r]; }
 * The compiler also emits, for a model M,
 *   void M_invoke(void **args);
 * which calls the function above with args[0] = results (when there are
 * outputs) followed by the input descriptors, and
 *   onnxc_status M_run(...)  { return onnxc_run_model(&info, M_invoke, ...); }
 *
 * Output buffers come back as the model allocated them (malloc); an output
 * may also alias an input, another output or a constant (whose `allocated`
 * pointer is the 0xdeadbeef sentinel MLIR uses for globals), and may have
 * non-contiguous strides. onnxc_run_model copies wherever it cannot hand a
 * buffer over as is.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_ABI_H
#define ONNXC_RUNTIME_ABI_H

#include "onnxc/runtime.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef void (*onnxc_invoke_fn)(void **args);

/**
 * Checks the inputs against `info` (count, dtype, rank, static dims,
 * symbolic dims equal wherever the same symbol appears) before touching any
 * data, builds the memref descriptors, calls `invoke` and fills `outputs`.
 * A check that fails inside the model (onnxc_rt_fail) returns
 * `code` when it is an error status (1..5), else ONNXC_ERROR_RUNTIME, with
 * the message; the model's temporary buffers of that call leak.
 * Checks of the model's results: an output dim that differs from a static
 * dim of `info` or from an input symbol's value is ONNXC_ERROR_RUNTIME.
 */
onnxc_status onnxc_run_model(const onnxc_model_info *info,
                             onnxc_invoke_fn invoke,
                             const onnxc_tensor *inputs, int32_t num_inputs,
                             onnxc_tensor *outputs, int32_t num_outputs);

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
 * its own onnxc_last_error with dlsym.
 */
void onnxc_rt_fail(int32_t code, const char *message);

/**
 * MLIR's lowering of a copy between non-contiguous memrefs calls this by
 * name (the layout of its arguments is MLIR's UnrankedMemRefType: rank, then
 * a pointer to the ranked descriptor). Provided so that models need no MLIR
 * runner library. runtime/src/memref.c.
 */
struct onnxc_unranked_memref;
void memrefCopy(int64_t elem_size, struct onnxc_unranked_memref *src,
                struct onnxc_unranked_memref *dst);

#ifdef __cplusplus
}
#endif

#endif /* ONNXC_RUNTIME_ABI_H */
