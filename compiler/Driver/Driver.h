//===- Driver.h - The onnxc command line ------------------------*- C++ -*-===//
#ifndef ONNXC_COMPILER_DRIVER_DRIVER_H
#define ONNXC_COMPILER_DRIVER_DRIVER_H

namespace mlir::onnxc {
/// Runs `onnxc` with its command line; returns the exit code.
int onnxcMain(int argc, char **argv);
} // namespace mlir::onnxc

#endif // ONNXC_COMPILER_DRIVER_DRIVER_H
