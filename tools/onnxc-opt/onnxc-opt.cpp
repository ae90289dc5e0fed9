//===- onnxc-opt.cpp - mlir-opt with the onnx dialect and passes ----------===//

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "passes/ONNX/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<mlir::onnxc::ONNX::ONNXDialect, mlir::func::FuncDialect>();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::onnxc::registerONNXCPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "onnxc optimizer driver\n", registry));
}
