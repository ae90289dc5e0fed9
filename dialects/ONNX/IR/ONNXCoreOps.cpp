//===- ONNXCoreOps.cpp - Hand-written onnx ops ----------------------------===//

#include "dialects/ONNX/IR/ONNXOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"

using namespace mlir;
using namespace mlir::onnxc::ONNX;

#define GET_OP_CLASSES
#include "dialects/ONNX/IR/ONNXCoreOps.cpp.inc"
