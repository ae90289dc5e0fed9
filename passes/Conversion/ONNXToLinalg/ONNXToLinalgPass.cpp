//===- ONNXToLinalgPass.cpp - The --convert-onnx-to-linalg pass -----------===//
//
// A thin shell: checks that every onnx op and type has a lowering (so an
// unsupported one is one error on that op) and that no tensor's static
// dims hold more than 2^63 - 1 bytes, tags every onnx op's location with
// its op type (lib/Support/NodeLocation.h: run-time messages name the
// node), runs the full conversion with the patterns of
// populateONNXToLinalgConversionPatterns, checks at run time every
// tensor.cast the lowerings made that turns a dynamic dim static, then
// erases the onnx.NoValue ops that the lowered ops no longer use.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "lib/Support/NodeLocation.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Func/Transforms/FuncConversions.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_CONVERTONNXTOLINALG
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

namespace {

struct ConvertONNXToLinalgPass
    : public onnxc::impl::ConvertONNXToLinalgBase<ConvertONNXToLinalgPass> {
  void runOnOperation() override;
};

/// One error per onnx op that has no lowering or a type without conversion.
static LogicalResult checkSupported(ModuleOp module, TypeConverter &tc,
                                    const DenseSet<OperationName> &supported) {
  bool ok = true;
  auto convertible = [&](Type t) {
    SmallVector<Type> converted;
    return isa<NoneType>(t) || succeeded(tc.convertType(t, converted));
  };
  module.walk([&](Operation *op) {
    if (auto fn = dyn_cast<func::FuncOp>(op)) {
      for (Type t : llvm::concat<const Type>(fn.getArgumentTypes(),
                                             fn.getResultTypes()))
        if (!convertible(t)) {
          fn.emitOpError("signature type ")
              << t << " is not supported by convert-onnx-to-linalg";
          ok = false;
          break;
        }
      return;
    }
    if (!isa<ONNX::ONNXDialect>(op->getDialect()) || isa<ONNX::NoValueOp>(op))
      return;
    if (!supported.contains(op->getName())) {
      op->emitOpError("is not supported by convert-onnx-to-linalg");
      ok = false;
      return;
    }
    for (Type t : llvm::concat<const Type>(op->getOperandTypes(),
                                           op->getResultTypes()))
      if (!convertible(t) || isa<UnrankedTensorType>(t)) {
        op->emitOpError("type ")
            << t << " is not supported by convert-onnx-to-linalg";
        ok = false;
        return;
      }
  });
  return success(ok);
}

/// The bytes that the static dims of `t` hold (dynamic dims count as 1),
/// saturating at UINT64_MAX.
static uint64_t staticBytes(RankedTensorType t) {
  Type elt = t.getElementType();
  uint64_t n = elt.isIntOrFloat() ? (elt.getIntOrFloatBitWidth() + 7) / 8 : 1;
  for (int64_t d : t.getShape()) {
    if (d == 0)
      return 0;
    if (!ShapedType::isDynamic(d))
      n = llvm::SaturatingMultiply(n, static_cast<uint64_t>(d));
  }
  return n;
}

/// "[2, ?, 4] elements of 4 bytes".
static std::string describeSize(RankedTensorType t) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << "[";
  llvm::interleaveComma(t.getShape(), os, [&](int64_t d) {
    if (ShapedType::isDynamic(d))
      os << "?";
    else
      os << d;
  });
  Type elt = t.getElementType();
  os << "] elements of "
     << (elt.isIntOrFloat() ? (elt.getIntOrFloatBitWidth() + 7) / 8 : 1)
     << " bytes";
  return s;
}

/// One error per value whose static dims alone hold more than 2^63 - 1
/// bytes: its byte size (and byte offsets into it) would wrap.
static LogicalResult checkStaticSizes(ModuleOp module) {
  constexpr uint64_t kMaxBytes = INT64_MAX;
  bool ok = true;
  module.walk([&](Operation *op) {
    if (auto fn = dyn_cast<func::FuncOp>(op)) {
      for (BlockArgument arg : fn.getArguments())
        if (auto t = dyn_cast<RankedTensorType>(arg.getType()))
          if (staticBytes(t) > kMaxBytes) {
            std::string name = "#" + std::to_string(arg.getArgNumber());
            if (auto n = fn.getArgAttrOfType<StringAttr>(arg.getArgNumber(),
                                                         "onnx.name"))
              name = n.getValue().str();
            emitError(arg.getLoc())
                << "input '" << name << "' has " << describeSize(t)
                << ": more than 2^63 - 1 bytes";
            ok = false;
          }
      return;
    }
    if (!isa_and_nonnull<ONNX::ONNXDialect>(op->getDialect()))
      return;
    for (OpResult r : op->getResults())
      if (auto t = dyn_cast<RankedTensorType>(r.getType()))
        if (staticBytes(t) > kMaxBytes) {
          op->emitOpError("result ")
              << r.getResultNumber() << " has " << describeSize(t)
              << ": more than 2^63 - 1 bytes";
          ok = false;
          return;
        }
  });
  return success(ok);
}

/// Every onnx op's location tagged with its op type ("Conv", "ml.Scaler").
static void tagLocations(ModuleOp module) {
  module.walk([&](Operation *op) {
    if (!isa_and_nonnull<ONNX::ONNXDialect>(op->getDialect()) ||
        isa<ONNX::NoValueOp>(op))
      return;
    StringRef name = op->getName().getStringRef();
    name.consume_front("onnx.");
    op->setLoc(tagOpType(op->getLoc(), name));
  });
}

/// The lowerings cast values to the types shape inference gave them
/// (tensor.cast from a dynamic to a static dim): a model whose run-time
/// sizes contradict them (a Squeeze of a dim that is not 1, a Concat of
/// inputs that differ in another dim) must fail there, not read or write
/// out of bounds. An empty result is exempt (a dim of an empty tensor may
/// be unknown: a loop that never ran), as it touches no element.
static void checkCasts(ModuleOp module) {
  SmallVector<tensor::CastOp> casts;
  module.walk([&](tensor::CastOp c) { casts.push_back(c); });
  for (tensor::CastOp c : casts) {
    auto from = dyn_cast<RankedTensorType>(c.getSource().getType());
    auto to = dyn_cast<RankedTensorType>(c.getType());
    if (!from || !to)
      continue;
    if (llvm::is_contained(to.getShape(), 0))
      continue;
    OpBuilder b(c);
    Location loc = c.getLoc();
    Value empty;
    for (int64_t d = 0; d < to.getRank(); ++d)
      if (to.isDynamicDim(d)) {
        Value z = arith::CmpIOp::create(
            b, loc, arith::CmpIPredicate::eq,
            linalg_conv::getDimValue(b, loc, c.getSource(), d),
            linalg_conv::createIndexConstant(b, loc, 0));
        empty = empty ? arith::OrIOp::create(b, loc, empty, z).getResult() : z;
      }
    for (int64_t d = 0; d < to.getRank(); ++d) {
      if (!from.isDynamicDim(d) || to.isDynamicDim(d))
        continue;
      Value size = linalg_conv::getDimValue(b, loc, c.getSource(), d);
      Value want = linalg_conv::createIndexConstant(b, loc, to.getDimSize(d));
      Value ok = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, size,
                                       want);
      if (empty)
        ok = arith::OrIOp::create(b, loc, ok, empty);
      linalg_conv::emitRuntimeCheck(
          b, loc, ok, "dim {} is {} at run time where {} is required",
          {linalg_conv::createIndexConstant(b, loc, d), size, want});
    }
  }
}

void ConvertONNXToLinalgPass::runOnOperation() {
  ModuleOp module = getOperation();
  MLIRContext *ctx = &getContext();

  TypeConverter tc;
  populateONNXToLinalgTypeConversion(tc);
  RewritePatternSet patterns(ctx);
  populateONNXToLinalgConversionPatterns(tc, patterns);
  DenseSet<OperationName> supported;
  for (const auto &p : patterns.getNativePatterns())
    if (auto root = p->getRootKind())
      supported.insert(*root);
  if (failed(checkSupported(module, tc, supported)) ||
      failed(checkStaticSizes(module)))
    return signalPassFailure();
  tagLocations(module);

  populateFunctionOpInterfaceTypeConversionPattern<func::FuncOp>(patterns, tc);
  populateReturnOpTypeConversionPattern(patterns, tc);
  populateCallOpTypeConversionPattern(patterns, tc);

  ConversionTarget target(*ctx);
  target.addLegalDialect<arith::ArithDialect, bufferization::BufferizationDialect,
                         linalg::LinalgDialect, math::MathDialect,
                         scf::SCFDialect, tensor::TensorDialect,
                         LLVM::LLVMDialect>();
  // Ops of other dialects (a test driver around the model) pass through.
  target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
  target.addLegalOp<ModuleOp>();
  target.addIllegalDialect<ONNX::ONNXDialect>();
  target.addLegalOp<ONNX::NoValueOp>(); // erased below, once unused
  target.addDynamicallyLegalOp<func::FuncOp>([&](func::FuncOp fn) {
    return tc.isSignatureLegal(fn.getFunctionType()) &&
           tc.isLegal(&fn.getBody());
  });
  target.addDynamicallyLegalOp<func::ReturnOp, func::CallOp>(
      [&](Operation *op) { return tc.isLegal(op); });

  // Patterns report unsupported attribute values on the op; the driver's
  // "failed to legalize" that follows would only repeat it.
  bool sawError = false;
  ScopedDiagnosticHandler handler(ctx, [&](Diagnostic &diag) {
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return failure();
    if (sawError && StringRef(diag.str()).contains("failed to legalize"))
      return success();
    sawError = true;
    return failure();
  });
  if (failed(applyFullConversion(module, target, std::move(patterns))))
    return signalPassFailure();
  checkCasts(module);

  bool ok = true;
  module.walk([&](ONNX::NoValueOp op) {
    if (op->use_empty()) {
      op->erase();
      return;
    }
    op->emitOpError("is still used after convert-onnx-to-linalg");
    ok = false;
  });
  if (!ok)
    signalPassFailure();
}

} // namespace
