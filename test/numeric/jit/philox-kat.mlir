// Known-answer test of the Philox4x32-10 block that the random ops emit
// (Random.cpp, buildPhilox4x32), against the three "philox4x32 10" vectors
// of Random123's tests/kat_vectors (counter c0..c3, key k0 k1 -> 4 words):
//   00000000 x4, 00000000 x2          -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8
//   ffffffff x4, ffffffff x2          -> 408f276d 41c83b0e a20bc7c6 6d5451fd
//   243f6a88 85a308d3 13198a2e 03707344, a4093822 299f31d0
//                                     -> d16cfe09 94fdcceb 5001e420 24126ea1
// Twice: folded by the arith folders (FOLD), and compiled to LLVM and run
// (prefix JIT; @kat takes its inputs as arguments, so the code computes them).
// RUN: %onnxc-opt --onnxc-test-philox --canonicalize %s | FileCheck %s --check-prefix=FOLD
// RUN: %onnxc-opt --onnxc-test-philox --onnxc-lower-to-llvm %s | %run-jit | FileCheck %s --check-prefix=JIT

func.func private @onnxc_test_philox(i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
func.func private @printU64(i64)
func.func private @printNewline()

// FOLD-LABEL: func.func @kat_zero
// FOLD-DAG: %[[A:.+]] = arith.constant 1713891541 : i32
// FOLD-DAG: %[[B:.+]] = arith.constant -513161843 : i32
// FOLD-DAG: %[[C:.+]] = arith.constant -1135104948 : i32
// FOLD-DAG: %[[D:.+]] = arith.constant -1694442536 : i32
// FOLD: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @kat_zero() -> (i32, i32, i32, i32) {
  %z = arith.constant 0 : i32
  %r:4 = func.call @onnxc_test_philox(%z, %z, %z, %z, %z, %z) : (i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
  return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// FOLD-LABEL: func.func @kat_ones
// FOLD-DAG: %[[A:.+]] = arith.constant 1083123565 : i32
// FOLD-DAG: %[[B:.+]] = arith.constant 1103641358 : i32
// FOLD-DAG: %[[C:.+]] = arith.constant -1576286266 : i32
// FOLD-DAG: %[[D:.+]] = arith.constant 1834242557 : i32
// FOLD: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @kat_ones() -> (i32, i32, i32, i32) {
  %f = arith.constant -1 : i32
  %r:4 = func.call @onnxc_test_philox(%f, %f, %f, %f, %f, %f) : (i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
  return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

// FOLD-LABEL: func.func @kat_pi
// FOLD-DAG: %[[A:.+]] = arith.constant -781386231 : i32
// FOLD-DAG: %[[B:.+]] = arith.constant -1795306261 : i32
// FOLD-DAG: %[[C:.+]] = arith.constant 1342301216 : i32
// FOLD-DAG: %[[D:.+]] = arith.constant 605187745 : i32
// FOLD: return %[[A]], %[[B]], %[[C]], %[[D]]
func.func @kat_pi() -> (i32, i32, i32, i32) {
  %c0 = arith.constant 608135816 : i32
  %c1 = arith.constant -2052912941 : i32
  %c2 = arith.constant 320440878 : i32
  %c3 = arith.constant 57701188 : i32
  %k0 = arith.constant -1542899678 : i32
  %k1 = arith.constant 698298832 : i32
  %r:4 = func.call @onnxc_test_philox(%c0, %c1, %c2, %c3, %k0, %k1) : (i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
  return %r#0, %r#1, %r#2, %r#3 : i32, i32, i32, i32
}

func.func @kat(%c0: i32, %c1: i32, %c2: i32, %c3: i32, %k0: i32, %k1: i32) {
  %r:4 = func.call @onnxc_test_philox(%c0, %c1, %c2, %c3, %k0, %k1) : (i32, i32, i32, i32, i32, i32) -> (i32, i32, i32, i32)
  %w0 = arith.extui %r#0 : i32 to i64
  %w1 = arith.extui %r#1 : i32 to i64
  %w2 = arith.extui %r#2 : i32 to i64
  %w3 = arith.extui %r#3 : i32 to i64
  func.call @printU64(%w0) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printU64(%w1) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printU64(%w2) : (i64) -> ()
  func.call @printNewline() : () -> ()
  func.call @printU64(%w3) : (i64) -> ()
  func.call @printNewline() : () -> ()
  return
}

// The same words in unsigned decimal.
// JIT:      1713891541
// JIT-NEXT: 3781805453
// JIT-NEXT: 3159862348
// JIT-NEXT: 2600524760
// JIT-NEXT: 1083123565
// JIT-NEXT: 1103641358
// JIT-NEXT: 2718681030
// JIT-NEXT: 1834242557
// JIT-NEXT: 3513581065
// JIT-NEXT: 2499661035
// JIT-NEXT: 1342301216
// JIT-NEXT: 605187745
func.func @main() {
  %z = arith.constant 0 : i32
  func.call @kat(%z, %z, %z, %z, %z, %z) : (i32, i32, i32, i32, i32, i32) -> ()
  %f = arith.constant -1 : i32
  func.call @kat(%f, %f, %f, %f, %f, %f) : (i32, i32, i32, i32, i32, i32) -> ()
  %c0 = arith.constant 608135816 : i32
  %c1 = arith.constant -2052912941 : i32
  %c2 = arith.constant 320440878 : i32
  %c3 = arith.constant 57701188 : i32
  %k0 = arith.constant -1542899678 : i32
  %k1 = arith.constant 698298832 : i32
  func.call @kat(%c0, %c1, %c2, %c3, %k0, %k1) : (i32, i32, i32, i32, i32, i32) -> ()
  return
}
