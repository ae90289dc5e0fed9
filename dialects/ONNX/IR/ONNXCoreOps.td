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

def ONNX_CustomOp : Op<ONNX_Dialect, "Custom", []> {
  let summary = "A node of a domain onnxc does not know: a call of the user's kernel";
  let description = [{
    The importer makes one of a node whose domain is none of ai.onnx,
    ai.onnx.ml and ai.onnx.preview.training (and that no model-local
    function defines). Its results are typed by the model's value_info (a
    rank and an element type; dims may be unknown). convert-onnx-custom-to-call
    lowers it to a call of the extern C kernel
    `onnxc_custom_<domain>_<op_type>` (the domain's dots as underscores), and
    of `onnxc_custom_<domain>_<op_type>_shape` first when a result has a
    dynamic dim (docs/custom-ops.md). `node_attrs` holds the node's attributes
    (int, float, string, ints, floats). The op has unknown side effects:
    it is never folded, moved or removed.

    ```mlir
    %y = "onnx.Custom"(%x) {domain = "com.example", op_type = "Swish",
                            node_attrs = {beta = 1.0 : f32}}
        : (tensor<2x4xf32>) -> tensor<2x4xf32>
    ```
  }];
  let arguments = (ins Variadic<AnyRankedTensor>:$inputs, StrAttr:$domain,
                       StrAttr:$op_type, DictionaryAttr:$node_attrs);
  let results = (outs Variadic<AnyRankedTensor>:$outputs);
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// "onnxc_custom_<domain>_<op_type>": the kernel's C name.
    static std::string getKernelName(::llvm::StringRef domain,
                                     ::llvm::StringRef opType);
    std::string getKernelName() {
      return getKernelName(getDomain(), getOpType());
    }
  }];
}

#endif // ONNXC_ONNX_CORE_OPS_TD
