/*===- kernels/common.h - What the kernel files and their drivers share ---===*
 *
 * Not part of any API: the functions here are hidden (internal.h), so that
 * a model library exports only what runtime.h and runtime_abi.h declare.
 *
 * Every file of runtime/src/kernels/ includes this header, and the ISA
 * files (*_avx2.c, *_avx512.c) are compiled with their ISA's flags
 * (runtime/CMakeLists.txt): a function defined here must therefore be
 * `static inline` (one private copy per file), never an external inline
 * definition, whose one copy the linker could take from an AVX-512 file
 * for a caller on a CPU without AVX-512.
 *===----------------------------------------------------------------------===*/
#ifndef ONNXC_RUNTIME_KERNELS_COMMON_H
#define ONNXC_RUNTIME_KERNELS_COMMON_H

#include "../internal.h"

#include <math.h>
#include <stdint.h>

typedef int64_t i64;

static inline i64 min64(i64 a, i64 b) { return a < b ? a : b; }

#define NR ONNXC_SGEMM_PANEL /* columns per packed panel (runtime_abi.h) */

#if defined(__GNUC__) || defined(__clang__)
/* Tile helpers take the accumulators by pointer: inlined, they stay in
 * registers; called, they would all go through the stack. */
#define ONNXC_INLINE __attribute__((always_inline)) inline
#else
#define ONNXC_INLINE inline
#endif

/* Whether this translation unit may hold x86 tier code: x86-64 with a GNU
 * C compiler (intrinsics, cpuid.h). dispatch.c registers the x86 tiers
 * under the same test, and runtime/CMakeLists.txt compiles the ISA files
 * only for x86-64 targets; elsewhere they are empty. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define ONNXC_X86 1
#endif

/* A fused activation after the bias (runtime_abi.h's ONNXC_ACT_* kinds and
 * their formulas): the AVX-512 tiles apply it to their accumulators
 * before the store (tile_ep.act, dispatch.h's tile_act); otherwise the
 * drivers apply it in place to each block of results after its last K
 * block, while the block is still in cache (the tier's act_row). */
typedef struct act_ep {
  int kind; /* ONNXC_ACT_*, never ONNXC_ACT_NONE */
  float alpha, beta;
} act_ep;

/* BODY(K) with K the constant of `kind`'s case, for each fused kind
 * (nothing for another kind): the vector tiers' activation loops, inlined
 * once per kind, so that each copy carries only its own formula. */
#define ONNXC_ACT_SWITCH(kind, BODY)                                           \
  switch (kind) {                                                              \
  case ONNXC_ACT_SIGMOID:                                                      \
    BODY(ONNXC_ACT_SIGMOID);                                                   \
    break;                                                                     \
  case ONNXC_ACT_SWISH:                                                        \
    BODY(ONNXC_ACT_SWISH);                                                     \
    break;                                                                     \
  case ONNXC_ACT_HARD_SIGMOID:                                                 \
    BODY(ONNXC_ACT_HARD_SIGMOID);                                              \
    break;                                                                     \
  case ONNXC_ACT_HARD_SWISH:                                                   \
    BODY(ONNXC_ACT_HARD_SWISH);                                                \
    break;                                                                     \
  default:                                                                     \
    break;                                                                     \
  }

/* What a tile store does besides writing A * B: C's value is added
 * (accumulate), or else a bias per row and/or per column; then the result
 * may be clamped to [lo, hi] (a fused Relu or Clip, on the last K block),
 * then activated by `act` (may be NULL; only tiers whose tile_act is set
 * read it, on the last K block). Bias pointers are relative to the tile's
 * first row / column. */
typedef struct tile_ep {
  const float *row_bias, *col_bias;
  int clamp;
  float lo, hi;
  const act_ep *act;
} tile_ep;

/* The scalar epilogue of one element: v (the sum), c (C's value). */
static inline float tile_ep_scalar(float v, float c, int accumulate,
                                   const tile_ep *ep, i64 r, i64 col) {
  if (accumulate)
    v += c;
  else if (ep) {
    if (ep->row_bias)
      v += ep->row_bias[r];
    if (ep->col_bias)
      v += ep->col_bias[col];
  }
  if (ep && ep->clamp)
    v = v < ep->lo ? ep->lo : v > ep->hi ? ep->hi : v;
  return v;
}

/* The activation of one element, with libm's expf (the portable tier and
 * the reference of the vector tiers): exactly runtime_abi.h's formulas,
 * each step rounded to float. min and max as arith.minimumf / maximumf:
 * NaN stays NaN, max(-0, 0) is +0. */
static inline float act_scalar(float v, const act_ep *a) {
  float t;
  switch (a->kind) {
  case ONNXC_ACT_SIGMOID:
    return 1.0f / (1.0f + expf(-v));
  case ONNXC_ACT_SWISH:
    t = a->alpha * v;
    return v / (1.0f + expf(-t));
  case ONNXC_ACT_HARD_SIGMOID:
  case ONNXC_ACT_HARD_SWISH:
    t = a->alpha * v;
    t = t + a->beta;
    t = t >= 1.0f ? 1.0f : t; /* NaN: neither branch changes it */
    t = t <= 0.0f ? 0.0f : t;
    return a->kind == ONNXC_ACT_HARD_SWISH ? v * t : t;
  default:
    return v;
  }
}

/* arith.maximumf: NaN if either is NaN, +0 over -0. Written to compile to
 * selects (data-dependent branches mispredict on every other tap). */
static inline float max_nan(float a, float b) {
  float m = a > b ? a : b;
  m = a == b && !signbit(a) ? a : m; /* equal: only zeros' signs differ */
  return a != a || b != b ? a + b : m;
}

/* The zero padding around an unpadded input (ONNXC_CONV_PADDED), for
 * depthwise kernels that read it in place: in_h x in_w, the window of
 * output (0, 0) starting at row -pad_top, column -pad_left. */
typedef struct dw_geom {
  i64 pad_top, pad_left, in_h, in_w;
} dw_geom;

/* One channel of a depthwise convolution (one input channel per group):
 *   Y[oh, ow] = bias (or Y's value when bias is NULL)
 *             + sum over kh, kw of W[kh, kw] *
 *                 X[oh * stride_h + kh * dilation_h, ow * stride_w + kw * dilation_w]
 * then clamped to [clamp->lo, clamp->hi] when clamp is not NULL. X, W and
 * Y are addressed by the strides below, Y with unit column stride. With
 * gm NULL every index is inside X (padded already). With gm (only when the
 * tier's dw_reads_padding accepts the call), X is the unpadded input and
 * reads outside [0, in_h) x [0, in_w) are zeros. */
typedef struct dw_args {
  const float *x;
  i64 xrow, xcol;
  const float *w;
  i64 wrow, wcol;
  float *y;
  i64 yrow;
  i64 out_h, out_w, kernel_h, kernel_w;
  i64 stride_h, stride_w, dilation_h, dilation_w;
  const dw_geom *gm;
  const float *bias;
  const tile_ep *clamp;
} dw_args;

#endif /* ONNXC_RUNTIME_KERNELS_COMMON_H */
