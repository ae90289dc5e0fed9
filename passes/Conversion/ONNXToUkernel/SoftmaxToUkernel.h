//===- SoftmaxToUkernel.h - Softmax -> onnxc_rt_softmax ---------*- C++ -*-===//
//
// Part of --convert-onnx-quantized-to-ukernel (QuantizedToUkernel.cpp): an
// fp32 Softmax or LogSoftmax along the last axis as a call of the
// runtime's row kernel (one pass for the maximum, one for the exponentials
// and their sum, one for the scale, each row in L1), instead of
// convert-onnx-to-linalg's four generics over the whole tensor.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_SOFTMAXTOUKERNEL_H
#define ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_SOFTMAXTOUKERNEL_H

#include "dialects/ONNX/IR/ONNXOps.h"
#include "passes/Conversion/RuntimeCall.h"

namespace mlir::onnxc {

/// An fp32 Softmax or LogSoftmax (opset 13 semantics) whose axis is the
/// last dim -> onnxc_rt_softmax (runtime_abi.h) over the rows of that dim,
/// emitted through `rc`; dynamic dims allowed. Fails, changing nothing, on
/// anything else, which is left to convert-onnx-to-linalg.
LogicalResult rewriteSoftmaxToUkernel(RuntimeCallBuilder &rc, Operation *op);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_SOFTMAXTOUKERNEL_H
