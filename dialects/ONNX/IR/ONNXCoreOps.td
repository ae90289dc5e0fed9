//===- ONNXCoreOps.td - Hand-written onnx ops --------------------*- td -*-===//
//
// The few ops that are not ONNX operators: region terminators and the value
// that stands for an absent optional input.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_ONNX_CORE_OPS_TD
#define ONNXC_ONNX_CORE_OPS_TD

include "dialects/ONNX/IR/ONNXBase.td"

def ONNX_YieldOp : Op<ONNX_Dialect, "Yield", [Pure, Terminator, ReturnLike]> {
  let summary = "Returns the outputs of a subgraph (If, Loop, Scan, SequenceMap body)";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def ONNX_NoValueOp : Op<ONNX_Dialect, "NoValue", [Pure]> {
  let summary = "An absent optional input or output";
  let results = (outs NoneType:$none);
  let assemblyFormat = "attr-dict";
}

#endif // ONNXC_ONNX_CORE_OPS_TD
