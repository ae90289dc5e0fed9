//===- Random.h - The random stream of the random ops -------------*- C++ -*-===//
//
// Internal to ONNXToLinalg/, implemented in Random.cpp: the Philox4x32-10
// stream that the random generators (Random.cpp) and Dropout (Dropout.cpp)
// draw from, one block per element (Random.cpp's header says how keys,
// counters and words are used; docs/codegen.md#random-numbers).
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RANDOM_H
#define ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RANDOM_H

#include "passes/Conversion/ONNXToLinalg/Common.h"

namespace mlir::onnxc::linalg_conv {

/// The round keys of Philox4x32-10 for the key (k0, k1) (i32 values): 10
/// pairs, the key bumped by the Weyl constants between rounds. Built once
/// per call of a random op, outside its generic.
SmallVector<Value> philoxRoundKeys(OpBuilder &b, Location loc, Value k0,
                                   Value k1);

/// The Philox4x32-10 block function on i32 values: the four output words of
/// the counter `ctr` (4 words) under the round keys `keys` (from
/// philoxRoundKeys), as arith ops (two arith.mului_extended per round).
SmallVector<Value> buildPhilox4x32(OpBuilder &b, Location loc,
                                   ArrayRef<Value> ctr, ArrayRef<Value> keys);

namespace rng {

/// An i32 / i64 constant of the bits `v`.
Value i32Const(OpBuilder &b, Location loc, uint32_t v);
Value i64Const(OpBuilder &b, Location loc, uint64_t v);

/// What every element of one call of a node shares: the Philox round keys
/// (10 x (k0, k1), from the node's key) and the high half of the counter,
/// the call index (c2, c3).
struct Stream {
  SmallVector<Value> keys;
  Value c2, c3;
};

/// Emits, at the builder's position, the two runtime calls of one call of
/// the random node `op`: its key and its call index (declaring the
/// functions and the node's state global in the module).
Stream emitStream(OpBuilder &b, Location loc, Operation *op);

/// `v` (f32 or f64) rounded to the float type `t`.
Value toFloat(OpBuilder &b, Location loc, Value v, Type t);

/// One linalg.generic over `inits` (same shape; the loop sizes are
/// `sizes`), reading `inputs` (same shape) elementwise, whose body gets the
/// Philox words of the current element and the input scalars and yields
/// one scalar per init.
using RandomBodyFn = function_ref<SmallVector<Value>(
    OpBuilder &, Location, ArrayRef<Value> words, ValueRange args)>;
SmallVector<Value> buildRandomGeneric(OpBuilder &b, Location loc,
                                      ValueRange inits, ValueRange inputs,
                                      ArrayRef<Value> sizes, const Stream &s,
                                      RandomBodyFn fn);

/// The loop sizes of a tensor `like` of `type`.
SmallVector<Value> sizesOf(OpBuilder &b, Location loc, Value like,
                           RankedTensorType type);

} // namespace rng
} // namespace mlir::onnxc::linalg_conv

#endif // ONNXC_PASSES_CONVERSION_ONNXTOLINALG_RANDOM_H
