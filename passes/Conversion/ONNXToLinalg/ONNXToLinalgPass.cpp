//===- ONNXToLinalgPass.cpp - The --convert-onnx-to-linalg pass -----------===//
//
// A thin shell: checks that every onnx op and type has a lowering (so an
// unsupported one is one error on that op) and that no tensor is too large
// (Checks.h), tags every onnx op's location with its op type
// (lib/Support/NodeLocation.h: run-time messages name the node), runs the
// full conversion with the patterns of
// populateONNXToLinalgConversionPatterns, adds the run-time checks of the
// shapes the lowerings assumed (Checks.h), then erases the onnx.NoValue ops
// that the lowered ops no longer use.
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/Passes.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "lib/Support/NodeLocation.h"
#include "passes/Conversion/ONNXToLinalg/Checks.h"
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
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_CONVERTONNXTOLINALG
#include "passes/Conversion/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

#define DEBUG_TYPE "convert-onnx-to-linalg"

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
        InFlightDiagnostic d = op->emitOpError("type ");
        d << t;
        if (isa<UnrankedTensorType>(t))
          d << " (a rank that shape inference could not determine)";
        d << " is not supported by convert-onnx-to-linalg";
        ok = false;
        return;
      }
  });
  return success(ok);
}

/// Every onnx op's location tagged with its op type ("Conv", "ml.Scaler"),
/// unless it already is (the importer's NameLoc(node, FusedLoc<"Conv">)).
static void tagLocations(ModuleOp module) {
  module.walk([&](Operation *op) {
    if (!isa_and_nonnull<ONNX::ONNXDialect>(op->getDialect()) ||
        isa<ONNX::NoValueOp>(op))
      return;
    StringRef name = op->getName().getStringRef();
    name.consume_front("onnx.");
    if (getNodeInfo(op->getLoc()).opType.empty())
      op->setLoc(tagOpType(op->getLoc(), name));
  });
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
      failed(linalg_conv::checkStaticSizes(module)))
    return signalPassFailure();
  LLVM_DEBUG({
    llvm::StringMap<int64_t> counts;
    module.walk([&](Operation *op) {
      if (isa<ONNX::ONNXDialect>(op->getDialect()))
        ++counts[op->getName().getStringRef()];
    });
    for (const auto &c : counts)
      llvm::dbgs() << DEBUG_TYPE ": " << c.getValue() << " x " << c.getKey()
                   << "\n";
  });
  tagLocations(module);
  linalg_conv::ArgDimNames argNames =
      linalg_conv::recordArgDimNames(module, tc);

  // Ops lowered before this pass (convert-onnx-quantized-to-ukernel) reach
  // onnx values through unrealized_conversion_casts; their operands and
  // results meet the converted values through casts too, folded below.
  auto castTo = [](OpBuilder &b, Type t, ValueRange in, Location l) -> Value {
    return UnrealizedConversionCastOp::create(b, l, t, in).getResult(0);
  };
  tc.addSourceMaterialization(castTo);
  tc.addTargetMaterialization(castTo);

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
  linalg_conv::checkCasts(module);
  linalg_conv::checkLinalgDims(module, argNames);

  // Casts between onnx and builtin types left around ops lowered before
  // this pass (convert-onnx-quantized-to-ukernel) meet the conversion's
  // own here: fold the pairs away.
  SmallVector<UnrealizedConversionCastOp> casts, left;
  module.walk([&](UnrealizedConversionCastOp c) { casts.push_back(c); });
  reconcileUnrealizedCasts(casts, &left);
  bool ok = true;
  for (UnrealizedConversionCastOp c : left) {
    c.emitOpError("is a cast between onnx and builtin types that "
                  "convert-onnx-to-linalg could not fold away");
    ok = false;
  }

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

/// Every category file's patterns (one populate function per file of
/// ONNXToLinalg/, declared in ONNXToLinalg.h).
void mlir::onnxc::populateONNXToLinalgConversionPatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  populateMathUnaryPatterns(tc, patterns);
  populateMathBinaryPatterns(tc, patterns);
  populateLogicalPatterns(tc, patterns);
  populateTensorElementwisePatterns(tc, patterns);
  populateShrinkPatterns(tc, patterns);
  populateExpandPatterns(tc, patterns);
  populateMatMulPatterns(tc, patterns);
  populateReductionPatterns(tc, patterns);
  populateSoftmaxPatterns(tc, patterns);
  populateTensorPatterns(tc, patterns);
  populateFlattenPatterns(tc, patterns);
  populateSlicePatterns(tc, patterns);
  populateGeneratorPatterns(tc, patterns);
  populateConvPatterns(tc, patterns);
  populateCol2ImPatterns(tc, patterns);
  populateDeformConvPatterns(tc, patterns);
  populatePoolingPatterns(tc, patterns);
  populateNormalizationPatterns(tc, patterns);
  populatePadPatterns(tc, patterns);
  populateResizePatterns(tc, patterns);
  populateDepthToSpacePatterns(tc, patterns);
  populateEinsumPatterns(tc, patterns);
  populateRandomPatterns(tc, patterns);
  populateDropoutPatterns(tc, patterns);
  populateRecurrentPatterns(tc, patterns);
  populateGatherPatterns(tc, patterns);
  populateScatterPatterns(tc, patterns);
  populateIndexingPatterns(tc, patterns);
  populateTopKPatterns(tc, patterns);
  populateCumSumPatterns(tc, patterns);
  populateQuantizePatterns(tc, patterns);
  populateControlFlowPatterns(tc, patterns);
  populateScanPatterns(tc, patterns);
  populateSequencePatterns(tc, patterns);
  populateOptionalPatterns(tc, patterns);
  populateLossPatterns(tc, patterns);
  populateUnpoolPatterns(tc, patterns);
  populateDetPatterns(tc, patterns);
  populateUniquePatterns(tc, patterns);
  populateSignalPatterns(tc, patterns);
  populateGridSamplePatterns(tc, patterns);
  populateObjectDetectionPatterns(tc, patterns);
  populateTfIdfPatterns(tc, patterns);
  populateStringPatterns(tc, patterns);
  populateMLTreePatterns(tc, patterns);
  populateMLLinearPatterns(tc, patterns);
  populateMLPreprocessPatterns(tc, patterns);
  populateMLMapPatterns(tc, patterns);
  populateTransformerPatterns(tc, patterns);
}
