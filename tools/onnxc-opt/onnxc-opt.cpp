//===- onnxc-opt.cpp - mlir-opt with the onnx dialect and passes ----------===//
//
// Every onnxc pass, and onnxc's two phases as named pipelines
// (--onnxc-lower-to-linalg, --onnxc-lower-to-llvm; compiler/Backend/
// Pipeline.h): what onnxc runs, pass for pass.
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Pipeline.h"
#include "dialects/ONNX/IR/ONNXDialect.h"
#include "passes/Conversion/Passes.h"
#include "passes/ONNX/Passes.h"
#include "passes/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::onnxc::ONNX::ONNXDialect>();
  // The dialects (and their bufferization, deallocation and translation
  // models) the pipelines produce and use, so that every stage parses again.
  mlir::onnxc::backend::registerBackendDialects(registry);
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::onnxc::registerONNXCPasses();
  mlir::onnxc::registerONNXCConversionPasses();
  mlir::onnxc::registerONNXCTransformsPasses();
  mlir::onnxc::backend::registerPipelines();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "onnxc optimizer driver\n", registry));
}
