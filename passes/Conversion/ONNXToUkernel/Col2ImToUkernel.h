//===- Col2ImToUkernel.h - Col2Im -> onnxc_rt_col2im ------------*- C++ -*-===//
//
// Part of --convert-onnx-quantized-to-ukernel (QuantizedToUkernel.cpp): the
// fp32 Col2Im that onnx-graph-optimize makes of ConvTranspose, as a call of
// the runtime's col2im kernel.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_COL2IMTOUKERNEL_H
#define ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_COL2IMTOUKERNEL_H

#include "dialects/ONNX/IR/ONNXOps.h"
#include "passes/Conversion/RuntimeCall.h"

namespace mlir::onnxc {

/// An fp32 Col2Im of one or two spatial dims with constant shapes, static
/// but for the batch -> onnxc_rt_col2im (runtime_abi.h), emitted through
/// `rc`. Its input may be a Transpose (perm 0, 2, 1) of the product's
/// [N, L, C*B] (the layout onnx-graph-optimize makes for ConvTransposes of
/// few input positions): the call reads that instead
/// (ONNXC_COL2IM_TRANSPOSED). Fails, changing nothing, on anything else,
/// which is left to convert-onnx-to-linalg (it also reports what is
/// invalid).
LogicalResult rewriteCol2ImToUkernel(RuntimeCallBuilder &rc, ONNX::Col2ImOp op);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_COL2IMTOUKERNEL_H
