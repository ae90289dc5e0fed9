//===- ONNXBase.td - The onnx dialect: types, attributes, base op -*- td -*-===//
//
// Everything the generated ONNXOps.td builds on. ONNX tensors are builtin
// tensor types; the element types follow ONNX: signed integers are signless
// (i8..i64), unsigned ones are ui8..ui64, bool is i1, string is !onnx.string.
// A dynamic dim may carry a symbolic name through the #onnx.dims encoding.
//
//===----------------------------------------------------------------------===//

#ifndef ONNXC_ONNX_BASE_TD
#define ONNXC_ONNX_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"

def ONNX_Dialect : Dialect {
  let name = "onnx";
  let cppNamespace = "::mlir::onnxc::ONNX";
  let summary = "The ONNX operator set, generated from the ONNX schemas";
  let description = [{
    One op per ONNX operator in its newest signature (opsets 1-21); the
    importer upgrades older signatures. Optional inputs and outputs keep their
    ONNX positions: an absent one is a value of type `none` (from
    `onnx.NoValue`). Graph attributes are regions ending in `onnx.Yield`.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

class ONNX_Type<string name, string typeMnemonic> : TypeDef<ONNX_Dialect, name> {
  let mnemonic = typeMnemonic;
}

def ONNX_StringType : ONNX_Type<"String", "string"> {
  let summary = "ONNX string element type";
}

def ONNX_SeqType : ONNX_Type<"Seq", "seq"> {
  let summary = "ONNX sequence of tensors (or maps)";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def ONNX_OptType : ONNX_Type<"Opt", "opt"> {
  let summary = "ONNX optional value";
  let parameters = (ins "::mlir::Type":$elementType);
  let assemblyFormat = "`<` $elementType `>`";
}

def ONNX_MapType : ONNX_Type<"Map", "map"> {
  let summary = "ONNX map (ai.onnx.ml)";
  let parameters = (ins "::mlir::Type":$keyType, "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $keyType `,` $valueType `>`";
}

def ONNX_UnknownType : ONNX_Type<"Unknown", "unknown"> {
  let summary = "A value whose type inference has not determined yet";
  let description = [{
    The importer gives node results this type until shape inference fills
    them in; no valid op accepts it, so one left behind fails verification.
  }];
}

class ONNX_SeqOf<list<Type> allowed> : Type<
  And<[CPred<"::llvm::isa<::mlir::onnxc::ONNX::SeqType>($_self)">,
       SubstLeaves<"$_self",
         "::llvm::cast<::mlir::onnxc::ONNX::SeqType>($_self).getElementType()",
         AnyTypeOf<allowed>.predicate>]>,
  "sequence of " # AnyTypeOf<allowed>.summary>;

class ONNX_OptOf<list<Type> allowed> : Type<
  And<[CPred<"::llvm::isa<::mlir::onnxc::ONNX::OptType>($_self)">,
       SubstLeaves<"$_self",
         "::llvm::cast<::mlir::onnxc::ONNX::OptType>($_self).getElementType()",
         AnyTypeOf<allowed>.predicate>]>,
  "optional of " # AnyTypeOf<allowed>.summary>;

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def ONNX_DimsAttr : AttrDef<ONNX_Dialect, "Dims"> {
  let mnemonic = "dims";
  let summary = "Symbolic names of a tensor type's dynamic dims";
  let description = [{
    A tensor encoding: one string per dynamic (`?`) dim of the type, in
    order; "" leaves that dim unnamed. Two dims with the same name are equal
    at run time: `tensor<?x3xf32, #onnx.dims<["N"]>>`.
  }];
  let parameters = (ins "::mlir::ArrayAttr":$names);
  let assemblyFormat = "`<` $names `>`";
}

//===----------------------------------------------------------------------===//
// Base op
//===----------------------------------------------------------------------===//

// Checks that ODS cannot express (variadic arity, attribute values, ranks):
// see Verify.cpp and the per-category files in ops/.
def ONNX_OpTrait : NativeOpTrait<"ONNXOpTrait"> {
  let cppNamespace = "::mlir::onnxc::ONNX";
}

class ONNX_Op<string mnemonic, list<Trait> traits = []>
    : Op<ONNX_Dialect, mnemonic, !listconcat(traits, [ONNX_OpTrait])>;

#endif // ONNXC_ONNX_BASE_TD
