// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s | FileCheck %s

// RandomUniform with a seed: the runtime gives the key (node id, has_seed 1,
// the seed's IEEE bits as a double: 5.0 = 0x4014000000000000) and the call
// index (from the node's state global); one generic computes the Philox
// block of counter (flat index, call) per element: 10 rounds of two
// mului_extended; u = (w0 >> 8) * 2^-24, low + (high - low) * u.
// CHECK-DAG: func.func private @onnxc_rt_random_key(i64, i32, i64) -> i64
// CHECK-DAG: func.func private @onnxc_rt_random_call(!llvm.ptr) -> i64
// CHECK-DAG: llvm.mlir.global internal @[[STATE:__onnxc_rng0]](dense<0> : tensor<2xi64>) {{.*}} : !llvm.array<2 x i64>
// CHECK-LABEL: func.func @uniform
// CHECK: %[[ID:.+]] = arith.constant {{-?[0-9]+}} : i64
// CHECK: %[[HAS:.+]] = arith.constant 1 : i32
// CHECK: %[[SEED:.+]] = arith.constant 4617315517961601024 : i64
// CHECK: %[[KEY:.+]] = call @onnxc_rt_random_key(%[[ID]], %[[HAS]], %[[SEED]])
// CHECK: %[[ADDR:.+]] = llvm.mlir.addressof @[[STATE]] : !llvm.ptr
// CHECK: %[[CALL:.+]] = call @onnxc_rt_random_call(%[[ADDR]])
// CHECK: %[[K0:.+]] = arith.trunci %[[KEY]] : i64 to i32
// CHECK: %[[C2:.+]] = arith.trunci %[[CALL]] : i64 to i32
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]} outs(%{{.+}} : tensor<2x3xf32>)
// CHECK: %[[I:.+]] = linalg.index 0
// CHECK: %[[J:.+]] = linalg.index 1
// CHECK: %[[ROW:.+]] = arith.muli %[[I]], %c3
// CHECK: %[[FLAT:.+]] = arith.addi %[[ROW]], %[[J]]
// CHECK: %[[FLAT64:.+]] = arith.index_castui %[[FLAT]] : index to i64
// CHECK: %[[C0:.+]] = arith.trunci %[[FLAT64]] : i64 to i32
// CHECK: arith.mului_extended %{{.+}}, %[[C0]] : i32
// CHECK: arith.mului_extended %{{.+}}, %[[C2]] : i32
// CHECK-COUNT-18: arith.mului_extended
// CHECK-NOT: arith.mului_extended
// CHECK: %[[W:.+]] = arith.shrui %{{.+}}, %c8_i32 : i32
// CHECK: %[[F:.+]] = arith.sitofp %[[W]] : i32 to f32
// CHECK: %[[U:.+]] = arith.mulf %[[F]], %cst{{.*}} : f32
// CHECK: %[[S:.+]] = arith.mulf %cst{{.*}}, %[[U]] : f32
// CHECK: %[[Y:.+]] = arith.addf %cst{{.*}}, %[[S]] : f32
// CHECK: linalg.yield %[[Y]] : f32
func.func @uniform() -> tensor<2x3xf32> {
  %0 = "onnx.RandomUniform"() {shape = array<i64: 2, 3>, low = -1.0 : f32, high = 3.0 : f32, seed = 5.0 : f32} : () -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// RandomNormal in f64 without a seed (has_seed 0): Box-Muller from two
// 53-bit uniforms, u1 from (w0, w1) + 1 in (0, 1] and u2 from (w2, w3);
// cos(2 pi u2) by quadrant (round(4 u2), from the integer bits) and Taylor
// polynomials to x^16 and x^17, no libm call.
// CHECK-LABEL: func.func @normal_f64
// CHECK: %[[HAS:.+]] = arith.constant 0 : i32
// CHECK: call @onnxc_rt_random_key(%{{.+}}, %[[HAS]], %{{.+}})
// CHECK: linalg.generic
// CHECK-COUNT-20: arith.mului_extended
// CHECK: arith.shli %{{.+}}, %c21_i64
// CHECK: arith.shrui %{{.+}}, %c11_i32
// CHECK: %[[U1:.+]] = arith.addi %{{.+}}, %c1_i64 : i64
// CHECK: arith.sitofp %[[U1]] : i64 to f64
// CHECK: %[[M2:.+]] = arith.ori
// CHECK: %[[HALF:.+]] = arith.addi %[[M2]], %c{{.+}} : i64
// CHECK: %[[Q:.+]] = arith.shrui %[[HALF]], %c51_i64 : i64
// CHECK: %[[Q3:.+]] = arith.andi %[[Q]], %c3_i64 : i64
// CHECK: arith.select
// CHECK: arith.negf
// CHECK: arith.select
// CHECK: math.log %{{.+}} : f64
// CHECK: math.sqrt
// CHECK-NOT: math.cos
// CHECK: linalg.yield %{{.+}} : f64
func.func @normal_f64() -> tensor<4xf64> {
  %0 = "onnx.RandomNormal"() {dtype = 11 : i64, shape = array<i64: 4>, mean = 1.0 : f32, scale = 2.0 : f32} : () -> tensor<4xf64>
  return %0 : tensor<4xf64>
}

// -----

// RandomUniformLike: the shape of the input (a symbolic dim read at run
// time), the dtype attribute's type (f16: computed in f32, rounded).
// CHECK-LABEL: func.func @uniform_like_f16
// CHECK-SAME: (%[[X:.+]]: tensor<?x3xi64>)
// CHECK: %[[N:.+]] = tensor.dim %[[X]], %c0
// CHECK: %[[E:.+]] = tensor.empty(%[[N]]) : tensor<?x3xf16>
// CHECK: linalg.generic {{.*}} outs(%[[E]] : tensor<?x3xf16>)
// CHECK: arith.sitofp %{{.+}} : i32 to f32
// CHECK: %[[H:.+]] = arith.truncf %{{.+}} : f32 to f16
// CHECK: linalg.yield %[[H]] : f16
func.func @uniform_like_f16(%x: tensor<?x3xi64, #onnx.dims<["N"]>>) -> tensor<?x3xf16, #onnx.dims<["N"]>> {
  %0 = "onnx.RandomUniformLike"(%x) {dtype = 10 : i64} : (tensor<?x3xi64, #onnx.dims<["N"]>>) -> tensor<?x3xf16, #onnx.dims<["N"]>>
  return %0 : tensor<?x3xf16, #onnx.dims<["N"]>>
}

// -----

// RandomNormalLike without dtype: the input's type (f32); the quadrant
// from the 24 bits of u2.
// CHECK-LABEL: func.func @normal_like
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<8xf32>)
// CHECK: arith.shrui %{{.+}}, %c22_i32 : i32
// CHECK: math.log %{{.+}} : f32
// CHECK-NOT: math.cos
func.func @normal_like(%x: tensor<8xf32>) -> tensor<8xf32> {
  %0 = "onnx.RandomNormalLike"(%x) : (tensor<8xf32>) -> tensor<8xf32>
  return %0 : tensor<8xf32>
}

// -----

// Bernoulli: u < p elementwise; the bool converted to the output dtype.
// CHECK-LABEL: func.func @bernoulli
// CHECK: linalg.generic {{.*}} ins(%{{.+}} : tensor<5xf32>) outs(%{{.+}} : tensor<5xf32>)
// CHECK: ^bb0(%[[P:.+]]: f32, %{{.+}}: f32):
// CHECK: %[[U:.+]] = arith.mulf %{{.+}}, %cst{{.*}} : f32
// CHECK: %[[HIT:.+]] = arith.cmpf olt, %[[U]], %[[P]] : f32
// CHECK: %[[V:.+]] = arith.uitofp %[[HIT]] : i1 to f32
// CHECK: linalg.yield %[[V]] : f32
func.func @bernoulli(%p: tensor<5xf32>) -> tensor<5xf32> {
  %0 = "onnx.Bernoulli"(%p) {seed = 2.0 : f32} : (tensor<5xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Multinomial: row maxima and e = exp(x - max) in f64, per-row totals by an
// in-order loop, then per sample (b, s) a 53-bit uniform times the total
// and a count of the running sums below it (the same loop), capped at the
// last class.
// CHECK-LABEL: func.func @multinomial
// CHECK: %[[MAX:.+]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK: arith.maximumf
// CHECK: %[[EXP:.+]] = linalg.generic {{.*}} ins(%{{.+}}, %[[MAX]] : tensor<2x3xf32>, tensor<2xf64>)
// CHECK: math.exp %{{.+}} : f64
// CHECK: %[[TOT:.+]] = linalg.generic {{.*}} outs(%{{.+}} : tensor<2xf64>)
// CHECK: scf.for
// CHECK: tensor.extract %[[EXP]]
// CHECK: call @onnxc_rt_random_key
// CHECK: linalg.generic {{.*}} outs(%{{.+}} : tensor<2x4xi64>)
// CHECK-COUNT-20: arith.mului_extended
// CHECK: %[[T:.+]] = tensor.extract %[[TOT]]
// CHECK: %[[TARGET:.+]] = arith.mulf %{{.+}}, %[[T]] : f64
// CHECK: scf.for
// CHECK: arith.cmpf ole, %{{.+}}, %[[TARGET]] : f64
// CHECK: %[[CLS:.+]] = arith.minui
// CHECK: %[[OUT:.+]] = arith.index_cast %[[CLS]] : index to i64
// CHECK: linalg.yield %[[OUT]] : i64
func.func @multinomial(%x: tensor<2x3xf32>) -> tensor<2x4xi64> {
  %0 = "onnx.Multinomial"(%x) {dtype = 7 : i64, sample_size = 4 : i64} : (tensor<2x3xf32>) -> tensor<2x4xi64>
  return %0 : tensor<2x4xi64>
}

// -----

// Two random nodes: a state global each, different node ids.
// CHECK-DAG: llvm.mlir.global internal @[[S0:__onnxc_rng0]]
// CHECK-DAG: llvm.mlir.global internal @[[S1:__onnxc_rng1]]
// CHECK-LABEL: func.func @two_nodes
// CHECK: %[[ID0:.+]] = arith.constant [[ID0V:-?[0-9]+]] : i64
// CHECK: call @onnxc_rt_random_key(%[[ID0]]
// CHECK: llvm.mlir.addressof @[[S0]]
// CHECK-NOT: arith.constant [[ID0V]] : i64
// CHECK: call @onnxc_rt_random_key
// CHECK: llvm.mlir.addressof @[[S1]]
func.func @two_nodes() -> (tensor<2xf32>, tensor<2xf32>) {
  %0 = "onnx.RandomUniform"() {shape = array<i64: 2>} : () -> tensor<2xf32>
  %1 = "onnx.RandomUniform"() {shape = array<i64: 2>} : () -> tensor<2xf32>
  return %0, %1 : tensor<2xf32>, tensor<2xf32>
}
