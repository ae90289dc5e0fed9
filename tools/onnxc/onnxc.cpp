//===- onnxc.cpp - The onnxc driver (compiler/Driver does the work) -------===//

#include "compiler/Driver/Driver.h"

int main(int argc, char **argv) { return mlir::onnxc::onnxcMain(argc, argv); }
