//===- ResizeToUkernel.h - Resize -> onnxc_rt_resize2d ----------*- C++ -*-===//
//
// Part of --convert-onnx-quantized-to-ukernel (QuantizedToUkernel.cpp): an
// fp32 Resize over the last two dims of a 4-D tensor (a decoder's
// upsampling) as a call of the runtime's separable resize kernel, with
// the tap tables the linalg lowering would read (ResizeTables.h).
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_RESIZETOUKERNEL_H
#define ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_RESIZETOUKERNEL_H

#include "dialects/ONNX/IR/ONNXOps.h"
#include "passes/Conversion/RuntimeCall.h"

namespace mlir::onnxc {

/// An fp32 Resize of rank 4 whose dims 0 and 1 keep their size and whose
/// dims 2 and 3 have static sizes and constant scales (a constant scales
/// operand, or constant sizes with the stretch policy), in a mode with tap
/// tables (nearest, linear, antialias; not cubic without antialias, not
/// tf_crop_and_resize) -> onnxc_rt_resize2d (runtime_abi.h), emitted
/// through `rc`. Fails, changing nothing, on anything else, which is left
/// to convert-onnx-to-linalg (it also reports what is invalid).
LogicalResult rewriteResizeToUkernel(RuntimeCallBuilder &rc, ONNX::ResizeOp op);

} // namespace mlir::onnxc

#endif // ONNXC_PASSES_CONVERSION_ONNXTOUKERNEL_RESIZETOUKERNEL_H
