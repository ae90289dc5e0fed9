//===- VerifyUtils.h - Helpers for per-op verifiers -------------*- C++ -*-===//
//
// The per-category verifiers (ops/*.cpp) check what the generated ODS cannot:
// attribute values, ranks, axes. They read attributes by ONNX name, so they
// stay light (no typed op classes) and each op's checks sit with its category.
//
//===----------------------------------------------------------------------===//
#ifndef ONNXC_DIALECTS_ONNX_IR_VERIFYUTILS_H
#define ONNXC_DIALECTS_ONNX_IR_VERIFYUTILS_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Operation.h"
#include "llvm/ADT/StringMap.h"

#include <optional>

namespace mlir::onnxc::ONNX::verify {

using OpVerifyFn = LogicalResult (*)(Operation *);

struct VerifierTable {
  llvm::StringMap<OpVerifyFn> fns;
  void add(llvm::StringRef opName, OpVerifyFn fn) { fns[opName] = fn; }
};

/// Every op's own verifier, by op name (ops/*.cpp register them; the
/// ONNXOpTrait verifier in Verify.cpp calls them; onnxc-op-index lists them).
const VerifierTable &getVerifierTable();

void registerMathVerifiers(VerifierTable &table);
void registerNNVerifiers(VerifierTable &table);
void registerTensorVerifiers(VerifierTable &table);
void registerControlFlowVerifiers(VerifierTable &table);

/// Rank of a ranked tensor value; nullopt for unranked, none or non-tensors.
std::optional<int64_t> getRank(Value v);
/// True if `v` is an absent optional input (a value of type none).
bool isNone(Value v);
int64_t getInt(Operation *op, llvm::StringRef name, int64_t dflt);
std::optional<llvm::ArrayRef<int64_t>> getInts(Operation *op,
                                               llvm::StringRef name);
llvm::StringRef getStr(Operation *op, llvm::StringRef name,
                       llvm::StringRef dflt);

/// `axis` must lie in [-rank, rank) (or [-rank-1, rank] when `inclusive`).
LogicalResult checkAxis(Operation *op, llvm::StringRef what, int64_t axis,
                        int64_t rank, bool inclusive = false);
/// String attribute `name` (default `dflt`) must be one of `allowed`.
LogicalResult checkOneOf(Operation *op, llvm::StringRef name,
                         llvm::ArrayRef<llvm::StringRef> allowed,
                         llvm::StringRef dflt);
/// Int attribute `name` (default `dflt`) must be 0 or 1.
LogicalResult checkBool(Operation *op, llvm::StringRef name, int64_t dflt);
/// Input `index` (if present and ranked) must have a rank in [lo, hi].
LogicalResult checkRank(Operation *op, unsigned index, int64_t lo, int64_t hi);

} // namespace mlir::onnxc::ONNX::verify

#endif // ONNXC_DIALECTS_ONNX_IR_VERIFYUTILS_H
