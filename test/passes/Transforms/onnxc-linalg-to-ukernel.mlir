// RUN: %onnxc-opt --onnxc-linalg-to-ukernel --canonicalize --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --onnxc-linalg-to-ukernel=pack-constants=false --canonicalize --split-input-file %s | FileCheck %s --check-prefix=NOPACK

// A product into a freshly zero-filled buffer: the fill goes, the kernel
// overwrites (flags 0); M, N, K and the row strides from the static types.
// CHECK: func.func private @onnxc_rt_sgemm(i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i32)
// CHECK-LABEL: func.func @matmul_fill
// CHECK-SAME: (%[[A:.+]]: memref<10x30xf32>, %[[B:.+]]: memref<30x20xf32>)
// CHECK: %[[C:.+]] = memref.alloc()
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[IA:.+]] = memref.extract_aligned_pointer_as_index %[[A]]
// CHECK-DAG: %[[IB:.+]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK-DAG: %[[IC:.+]] = memref.extract_aligned_pointer_as_index %[[C]]
// CHECK-DAG: %[[XA:.+]] = arith.index_cast %[[IA]] : index to i64
// CHECK-DAG: %[[PA:.+]] = llvm.inttoptr %[[XA]]
// CHECK-DAG: %[[XB:.+]] = arith.index_cast %[[IB]] : index to i64
// CHECK-DAG: %[[PB:.+]] = llvm.inttoptr %[[XB]]
// CHECK-DAG: %[[XC:.+]] = arith.index_cast %[[IC]] : index to i64
// CHECK-DAG: %[[PC:.+]] = llvm.inttoptr %[[XC]]
// CHECK: call @onnxc_rt_sgemm(%c10_i64, %c20_i64, %c30_i64, %[[PA]], %c30_i64, %c1_i64, %[[PB]], %c20_i64, %c1_i64, %[[PC]], %c20_i64, %c1_i64, %c0_i32)
// CHECK-NOT: linalg.matmul
func.func @matmul_fill(%a: memref<10x30xf32>, %b: memref<30x20xf32>) -> memref<10x20xf32> {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<10x20xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<10x20xf32>)
  linalg.matmul ins(%a, %b : memref<10x30xf32>, memref<30x20xf32>) outs(%c : memref<10x20xf32>)
  return %c : memref<10x20xf32>
}

// -----

// The zero fill in its generic form (a linalg.generic without inputs
// yielding +0.0, as onnxc-fuse-elementwise leaves a fill): it goes too, and
// the kernel overwrites (flags 0).
// CHECK-LABEL: func.func @matmul_generic_zero_fill
// CHECK-NOT: linalg.generic
// CHECK: call @onnxc_rt_sgemm({{.*}}, %c0_i32)
#id2 = affine_map<(i, j) -> (i, j)>
func.func @matmul_generic_zero_fill(%a: memref<10x30xf32>, %b: memref<30x20xf32>) -> memref<10x20xf32> {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<10x20xf32>
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%c : memref<10x20xf32>) {
  ^bb0(%out: f32):
    linalg.yield %cst : f32
  }
  linalg.matmul ins(%a, %b : memref<10x30xf32>, memref<30x20xf32>) outs(%c : memref<10x20xf32>)
  return %c : memref<10x20xf32>
}

// -----

// A generic fill of -0.0 is not a zero init (the sum of -0.0 and a +0.0
// product is +0.0, but an empty K must give -0.0): the fill stays and the
// kernel accumulates (flags 1).
// CHECK-LABEL: func.func @matmul_generic_negzero_fill
// CHECK: linalg.generic
// CHECK: call @onnxc_rt_sgemm({{.*}}, %c1_i32)
#id2n = affine_map<(i, j) -> (i, j)>
func.func @matmul_generic_negzero_fill(%a: memref<10x30xf32>, %b: memref<30x20xf32>) -> memref<10x20xf32> {
  %cst = arith.constant -0.0 : f32
  %c = memref.alloc() {alignment = 64 : i64} : memref<10x20xf32>
  linalg.generic {indexing_maps = [#id2n], iterator_types = ["parallel", "parallel"]} outs(%c : memref<10x20xf32>) {
  ^bb0(%out: f32):
    linalg.yield %cst : f32
  }
  linalg.matmul ins(%a, %b : memref<10x30xf32>, memref<30x20xf32>) outs(%c : memref<10x20xf32>)
  return %c : memref<10x20xf32>
}

// -----

// An output that is not known to be zero: the kernel accumulates (flags 1).
// Dynamic sizes come from memref.dim, dynamic strides from the metadata.
// CHECK-LABEL: func.func @matmul_accumulate_dynamic
// CHECK-DAG: %[[M:.+]] = memref.dim %arg0, %c0
// CHECK-DAG: %[[K:.+]] = memref.dim %arg0, %c1
// CHECK-DAG: %[[N:.+]] = memref.dim %arg1, %c1
// CHECK-DAG: %{{.+}}, %[[OFF:.+]], %{{.+}}:2, %[[STRIDES:.+]]:2 = memref.extract_strided_metadata %arg2
// CHECK-DAG: %[[RSC:.+]] = arith.index_cast %[[STRIDES]]#0 : index to i64
// CHECK-DAG: %[[OFFB:.+]] = arith.muli %[[OFF]], %c4
// CHECK-DAG: %[[I64M:.+]] = arith.index_cast %[[M]] : index to i64
// CHECK-DAG: %[[I64N:.+]] = arith.index_cast %[[N]] : index to i64
// CHECK-DAG: %[[I64K:.+]] = arith.index_cast %[[K]] : index to i64
// CHECK: call @onnxc_rt_sgemm(%[[I64M]], %[[I64N]], %[[I64K]], {{.+}}, %[[RSC]], %c1_i64, %c1_i32)
func.func @matmul_accumulate_dynamic(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32, strided<[?, 1], offset: ?>>)
  return
}

// -----

// One constant read as B by one product and as B^T by another (a Gemm and
// its gradient): packed in both layouts, the original global dropped once
// (it was erased twice).
// CHECK-DAG: memref.global "private" constant @ws_packed : memref<512xf32>
// CHECK-DAG: memref.global "private" constant @ws_packed_0 : memref<512xf32>
// CHECK-NOT: memref.global "private" constant @ws :
// CHECK-LABEL: func.func @shared_constant_two_layouts
// CHECK-COUNT-2: call @onnxc_rt_sgemm
memref.global "private" constant @ws : memref<16x16xf32> = dense<0.5>
func.func @shared_constant_two_layouts(%a: memref<3x16xf32>) -> (memref<3x16xf32>, memref<3x16xf32>) {
  %cst = arith.constant 0.0 : f32
  %b = memref.get_global @ws : memref<16x16xf32>
  %c = memref.alloc() : memref<3x16xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<3x16xf32>)
  linalg.matmul ins(%a, %b : memref<3x16xf32>, memref<16x16xf32>) outs(%c : memref<3x16xf32>)
  %d = memref.alloc() : memref<3x16xf32>
  linalg.fill ins(%cst : f32) outs(%d : memref<3x16xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x16xf32>, memref<16x16xf32>) outs(%d : memref<3x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %c, %d : memref<3x16xf32>, memref<3x16xf32>
}

// -----

// Gemm with transB: B[n, k] as a generic. B is a constant global: packed at
// compile time into 32-wide panels (ceil(40 / 32) = 2 panels x 16 x 32
// floats), B_PACKED (2) | overwrite; the original global goes.
// CHECK: memref.global "private" constant @w_packed : memref<1024xf32> = dense_resource<onnxc_packed> {alignment = 64 : i64}
// CHECK-NOT: memref.global "private" constant @w :
// CHECK-LABEL: func.func @gemm_transb_constant
// CHECK: %[[P:.+]] = memref.get_global @w_packed : memref<1024xf32>
// CHECK: memref.extract_aligned_pointer_as_index %[[P]]
// CHECK: call @onnxc_rt_sgemm(%c3_i64, %c40_i64, %c16_i64, %{{.+}}, %c16_i64, %c1_i64, %{{.+}}, %c0_i64, %c0_i64, %{{.+}}, %c40_i64, %c1_i64, %c2_i32)
// NOPACK-LABEL: func.func @gemm_transb_constant
// NOPACK: call @onnxc_rt_sgemm(%c3_i64, %c40_i64, %c16_i64, %{{.+}}, %c16_i64, %c1_i64, %{{.+}}, %c1_i64, %c16_i64, %{{.+}}, %c40_i64, %c1_i64, %c0_i32)
memref.global "private" constant @w : memref<40x16xf32> = dense<0.5>
func.func @gemm_transb_constant(%a: memref<3x16xf32>) -> memref<3x40xf32> {
  %cst = arith.constant 0.0 : f32
  %b = memref.get_global @w : memref<40x16xf32>
  %c = memref.alloc() : memref<3x40xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<3x40xf32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<3x16xf32>, memref<40x16xf32>) outs(%c : memref<3x40xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %c : memref<3x40xf32>
}

// -----

// A zero-filled buffer copied in (CSE shared one fill between two products,
// bufferization copied it): the copy goes, the shared fill stays.
// CHECK-LABEL: func.func @copied_zero
// CHECK: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c0_i32)
func.func @copied_zero(%a: memref<4x4xf32>, %b: memref<4x4xf32>) -> (memref<4x4xf32>, memref<4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<4x4xf32>)
  %c = memref.alloc() : memref<4x4xf32>
  memref.copy %z, %c : memref<4x4xf32> to memref<4x4xf32>
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return %c, %z : memref<4x4xf32>, memref<4x4xf32>
}

// -----

// The same through a reshape of the filled buffer (the copy's source is a
// collapse_shape of it): the copy goes.
// CHECK-LABEL: func.func @copied_zero_reshaped
// CHECK: linalg.fill
// CHECK-NOT: memref.copy
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c0_i32)
func.func @copied_zero_reshaped(%a: memref<4x4xf32>, %b: memref<4x4xf32>) -> (memref<4x4xf32>, memref<2x2x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %z = memref.alloc() : memref<2x2x4xf32>
  linalg.fill ins(%cst : f32) outs(%z : memref<2x2x4xf32>)
  %zc = memref.collapse_shape %z [[0, 1], [2]] : memref<2x2x4xf32> into memref<4x4xf32>
  %c = memref.alloc() : memref<4x4xf32>
  memref.copy %zc, %c : memref<4x4xf32> to memref<4x4xf32>
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return %c, %z : memref<4x4xf32>, memref<2x2x4xf32>
}

// -----

// A fill that something reads before the product: kept, and the kernel
// still overwrites (C is known to be zero).
// CHECK-LABEL: func.func @fill_read_between
// CHECK: linalg.fill
// CHECK: memref.copy
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c0_i32)
func.func @fill_read_between(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %o: memref<4x4xf32>) -> memref<4x4xf32> {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<4x4xf32>)
  memref.copy %c, %o : memref<4x4xf32> to memref<4x4xf32>
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c : memref<4x4xf32>)
  return %c : memref<4x4xf32>
}

// -----

// 4-D batched product (attention scores): the outer batch dim is a loop,
// the inner one goes to onnxc_rt_sgemm_batched with its strides.
// CHECK: func.func private @onnxc_rt_sgemm_batched(i64, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, !llvm.ptr, i64, i64, i64, i32)
// CHECK-LABEL: func.func @batch4d
// CHECK: scf.for %{{.+}} = %c0 to %c2 step %c1
// CHECK: call @onnxc_rt_sgemm_batched(%c4_i64, %c8_i64, %c8_i64, %c16_i64, %{{.+}}, %c128_i64, %c16_i64, %c1_i64, %{{.+}}, %c128_i64, %c8_i64, %c1_i64, %{{.+}}, %c64_i64, %c8_i64, %c1_i64, %c1_i32)
#a4 = affine_map<(b0, b1, m, n, k) -> (b0, b1, m, k)>
#b4 = affine_map<(b0, b1, m, n, k) -> (b0, b1, k, n)>
#c4 = affine_map<(b0, b1, m, n, k) -> (b0, b1, m, n)>
func.func @batch4d(%a: memref<2x4x8x16xf32>, %b: memref<2x4x16x8xf32>, %c: memref<2x4x8x8xf32>) {
  linalg.generic {indexing_maps = [#a4, #b4, #c4], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x4x8x16xf32>, memref<2x4x16x8xf32>) outs(%c : memref<2x4x8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %y, %x : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A 3-D activation times a 2-D weight: the leading dim of A and C is a
// batch in which B does not move (stride 0; the runtime folds it into M).
// CHECK-LABEL: func.func @matmul_3d_2d
// CHECK: call @onnxc_rt_sgemm_batched(%c2_i64, %c5_i64, %c6_i64, %c7_i64, %{{.+}}, %c35_i64, %c7_i64, %c1_i64, %{{.+}}, %c0_i64, %c6_i64, %c1_i64, %{{.+}}, %c30_i64, %c6_i64, %c1_i64, %c1_i32)
func.func @matmul_3d_2d(%a: memref<2x5x7xf32>, %b: memref<7x6xf32>, %c: memref<2x5x6xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x5x7xf32>, memref<7x6xf32>) outs(%c : memref<2x5x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A vector times a matrix (1-D A): M is 1, A's row stride 0.
// CHECK-LABEL: func.func @vecmat
// CHECK: call @onnxc_rt_sgemm(%c1_i64, %c3_i64, %c4_i64, %{{.+}}, %c0_i64, %c1_i64, %{{.+}}, %c3_i64, %c1_i64, %{{.+}}, %c0_i64, %c1_i64, %c1_i32)
func.func @vecmat(%a: memref<4xf32>, %b: memref<4x3xf32>, %c: memref<3xf32>) {
  linalg.generic {indexing_maps = [affine_map<(n, k) -> (k)>, affine_map<(n, k) -> (k, n)>, affine_map<(n, k) -> (n)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a, %b : memref<4xf32>, memref<4x3xf32>) outs(%c : memref<3xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Gemm + Relu: a product into a zero-filled buffer, then the bias added
// per column and the Relu in one generic that reads it next. All of it
// goes into onnxc_rt_sgemm_ep (BIAS_COL | CLAMP = 24, lo 0, hi +inf),
// which writes the generic's output; C and its deallocation go.
// CHECK: func.func private @onnxc_rt_sgemm_ep(i64, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, !llvm.ptr, i64, i64, i32, !llvm.ptr, f32, f32)
// CHECK-LABEL: func.func @gemm_bias_relu
// CHECK-SAME: (%[[A:.+]]: memref<4x30xf32>, %[[B:.+]]: memref<30x20xf32>, %[[BIAS:.+]]: memref<20xf32>)
// CHECK-DAG: %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: %[[OUT:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4x20xf32>
// CHECK-NOT: memref.alloc
// CHECK-NOT: linalg.
// CHECK-DAG: %[[IO:.+]] = memref.extract_aligned_pointer_as_index %[[OUT]]
// CHECK-DAG: %[[XO:.+]] = arith.index_cast %[[IO]] : index to i64
// CHECK-DAG: %[[PO:.+]] = llvm.inttoptr %[[XO]]
// CHECK-DAG: %[[IBIAS:.+]] = memref.extract_aligned_pointer_as_index %[[BIAS]]
// CHECK-DAG: %[[XBIAS:.+]] = arith.index_cast %[[IBIAS]] : index to i64
// CHECK-DAG: %[[PBIAS:.+]] = llvm.inttoptr %[[XBIAS]]
// CHECK: call @onnxc_rt_sgemm_ep(%c4_i64, %c20_i64, %c30_i64, %{{.+}}, %c30_i64, %c1_i64, %{{.+}}, %c20_i64, %c1_i64, %[[PO]], %c20_i64, %c1_i64, %c24_i32, %[[PBIAS]], %[[ZERO]], %[[INF]])
// CHECK-NOT: linalg.
// CHECK-NOT: memref.dealloc
// CHECK: return %[[OUT]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @gemm_bias_relu(%a: memref<4x30xf32>, %b: memref<30x20xf32>, %bias: memref<20xf32>) -> memref<4x20xf32> {
  %cst = arith.constant 0.0 : f32
  %out = memref.alloc() {alignment = 64 : i64} : memref<4x20xf32>
  %c = memref.alloc() {alignment = 64 : i64} : memref<4x20xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<4x20xf32>)
  linalg.matmul ins(%a, %b : memref<4x30xf32>, memref<30x20xf32>) outs(%c : memref<4x20xf32>)
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c, %bias : memref<4x20xf32>, memref<20xf32>) outs(%out : memref<4x20xf32>) {
  ^bb0(%in: f32, %bv: f32, %o: f32):
    %0 = arith.addf %in, %bv : f32
    %1 = arith.maximumf %0, %cst : f32
    linalg.yield %1 : f32
  }
  memref.dealloc %c : memref<4x20xf32>
  return %out : memref<4x20xf32>
}

// -----

// A bias per row (a Gemm's C of shape [M, 1]) added first, then a Clip
// (BIAS_ROW | CLAMP = 20, lo -1, hi 6). The output is allocated after the
// product: the allocation moves before the call.
// CHECK-LABEL: func.func @gemm_row_bias_clip
// CHECK-DAG: %[[LO:.+]] = arith.constant -1.000000e+00 : f32
// CHECK-DAG: %[[HI:.+]] = arith.constant 6.000000e+00 : f32
// CHECK: %[[OUT:.+]] = memref.alloc() : memref<5x7xf32>
// CHECK-NOT: memref.alloc
// CHECK: call @onnxc_rt_sgemm_ep(%c5_i64, %c7_i64, %c3_i64, {{.+}}, %c20_i32, %{{.+}}, %[[LO]], %[[HI]])
// CHECK-NOT: linalg.
// CHECK: return %[[OUT]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
func.func @gemm_row_bias_clip(%a: memref<5x3xf32>, %b: memref<3x7xf32>, %bias: memref<5x1xf32>) -> memref<5x7xf32> {
  %cst = arith.constant 0.0 : f32
  %lo = arith.constant -1.0 : f32
  %hi = arith.constant 6.0 : f32
  %c = memref.alloc() : memref<5x7xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<5x7xf32>)
  linalg.matmul ins(%a, %b : memref<5x3xf32>, memref<3x7xf32>) outs(%c : memref<5x7xf32>)
  %out = memref.alloc() : memref<5x7xf32>
  linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%bias, %c : memref<5x1xf32>, memref<5x7xf32>) outs(%out : memref<5x7xf32>) {
  ^bb0(%bv: f32, %in: f32, %o: f32):
    %0 = arith.addf %bv, %in : f32
    %1 = arith.maximumf %0, %lo : f32
    %2 = arith.minimumf %1, %hi : f32
    linalg.yield %2 : f32
  }
  memref.dealloc %c : memref<5x7xf32>
  return %out : memref<5x7xf32>
}

// -----

// A Relu in place on the product (no bias): CLAMP (16) with a null bias;
// C stays, the kernel writes it.
// CHECK-LABEL: func.func @matmul_relu_in_place
// CHECK-DAG: %[[C:.+]] = memref.alloc() : memref<2x6xf32>
// CHECK-DAG: %[[NULL:.+]] = llvm.mlir.zero : !llvm.ptr
// CHECK-DAG: %[[INF:.+]] = arith.constant 0x7F800000 : f32
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f32
// CHECK: call @onnxc_rt_sgemm_ep(%c2_i64, %c6_i64, %c3_i64, {{.+}}, %c16_i32, %[[NULL]], %[[ZERO]], %[[INF]])
// CHECK-NOT: linalg.
// CHECK: return %[[C]]
#id2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_relu_in_place(%a: memref<2x3xf32>, %b: memref<3x6xf32>) -> memref<2x6xf32> {
  %cst = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x6xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<2x6xf32>)
  linalg.matmul ins(%a, %b : memref<2x3xf32>, memref<3x6xf32>) outs(%c : memref<2x6xf32>)
  linalg.generic {indexing_maps = [#id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c : memref<2x6xf32>) outs(%c : memref<2x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %0 = arith.maximumf %in, %cst : f32
    linalg.yield %0 : f32
  }
  return %c : memref<2x6xf32>
}

// -----

// A 3-D activation times a constant 2-D weight plus a bias (a Linear layer
// in a transformer): onnxc_rt_sgemm_batched_ep with the packed weight
// (BIAS_COL | B_PACKED = 10).
// CHECK-LABEL: func.func @batched_bias
// CHECK: call @onnxc_rt_sgemm_batched_ep(%c2_i64, %c5_i64, %c6_i64, %c7_i64, {{.+}}, %c10_i32, %{{.+}}, %cst, %cst)
// CHECK-NOT: linalg.
memref.global "private" constant @w7x6 : memref<7x6xf32> = dense<1.0>
func.func @batched_bias(%a: memref<2x5x7xf32>, %bias: memref<6xf32>) -> memref<2x5x6xf32> {
  %cst = arith.constant 0.0 : f32
  %b = memref.get_global @w7x6 : memref<7x6xf32>
  %c = memref.alloc() : memref<2x5x6xf32>
  linalg.fill ins(%cst : f32) outs(%c : memref<2x5x6xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>, affine_map<(d0, d1, d2, d3) -> (d3, d2)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x5x7xf32>, memref<7x6xf32>) outs(%c : memref<2x5x6xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<2x5x6xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias, %c : memref<6xf32>, memref<2x5x6xf32>) outs(%out : memref<2x5x6xf32>) {
  ^bb0(%bv: f32, %in: f32, %o: f32):
    %0 = arith.addf %bv, %in : f32
    linalg.yield %0 : f32
  }
  memref.dealloc %c : memref<2x5x6xf32>
  return %out : memref<2x5x6xf32>
}

// -----

// Epilogues that stay generics: the output is the product's A (the kernel
// would overwrite A while reading it); C read again later; C not zero
// (accumulating); a bias over both dims; more than a bias and a clamp.
// CHECK-LABEL: func.func @epilogue_not_fused
// CHECK-NOT: onnxc_rt_sgemm_ep
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c0_i32)
// CHECK-NEXT: linalg.generic
// CHECK-NOT: onnxc_rt_sgemm_ep
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c0_i32)
// CHECK-NOT: onnxc_rt_sgemm_ep
// CHECK: linalg.generic
// CHECK-NOT: onnxc_rt_sgemm_ep
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c1_i32)
// CHECK-NEXT: linalg.generic
// CHECK-NOT: onnxc_rt_sgemm_ep
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c0_i32)
// CHECK-NEXT: linalg.generic
// CHECK-NOT: onnxc_rt_sgemm_ep
// CHECK: call @onnxc_rt_sgemm({{.+}}, %c0_i32)
// CHECK-NEXT: linalg.generic
// CHECK: math.tanh
// CHECK-NOT: onnxc_rt_sgemm_ep
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @epilogue_not_fused(%a: memref<4x4xf32>, %b: memref<4x4xf32>, %bias: memref<4xf32>,
                              %full: memref<4x4xf32>, %acc: memref<4x4xf32>) -> (memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>) {
  %cst = arith.constant 0.0 : f32
  %x = memref.alloc() : memref<4x4xf32>
  memref.copy %a, %x : memref<4x4xf32> to memref<4x4xf32>
  %c1 = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%c1 : memref<4x4xf32>)
  linalg.matmul ins(%x, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c1 : memref<4x4xf32>)
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c1, %bias : memref<4x4xf32>, memref<4xf32>) outs(%x : memref<4x4xf32>) {
  ^bb0(%in: f32, %bv: f32, %o: f32):
    %0 = arith.addf %in, %bv : f32
    linalg.yield %0 : f32
  }
  %c2 = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%c2 : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c2 : memref<4x4xf32>)
  %o2 = memref.alloc() : memref<4x4xf32>
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c2, %bias : memref<4x4xf32>, memref<4xf32>) outs(%o2 : memref<4x4xf32>) {
  ^bb0(%in: f32, %bv: f32, %o: f32):
    %0 = arith.addf %in, %bv : f32
    linalg.yield %0 : f32
  }
  memref.copy %c2, %full : memref<4x4xf32> to memref<4x4xf32>
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%acc : memref<4x4xf32>)
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%acc, %bias : memref<4x4xf32>, memref<4xf32>) outs(%acc : memref<4x4xf32>) {
  ^bb0(%in: f32, %bv: f32, %o: f32):
    %0 = arith.addf %in, %bv : f32
    linalg.yield %0 : f32
  }
  %c4 = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%c4 : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c4 : memref<4x4xf32>)
  linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c4, %full : memref<4x4xf32>, memref<4x4xf32>) outs(%c4 : memref<4x4xf32>) {
  ^bb0(%in: f32, %bv: f32, %o: f32):
    %0 = arith.addf %in, %bv : f32
    linalg.yield %0 : f32
  }
  %c5 = memref.alloc() : memref<4x4xf32>
  linalg.fill ins(%cst : f32) outs(%c5 : memref<4x4xf32>)
  linalg.matmul ins(%a, %b : memref<4x4xf32>, memref<4x4xf32>) outs(%c5 : memref<4x4xf32>)
  linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%c5, %bias : memref<4x4xf32>, memref<4xf32>) outs(%c5 : memref<4x4xf32>) {
  ^bb0(%in: f32, %bv: f32, %o: f32):
    %0 = arith.addf %in, %bv : f32
    %1 = math.tanh %0 : f32
    linalg.yield %1 : f32
  }
  return %x, %c4, %c5 : memref<4x4xf32>, memref<4x4xf32>, memref<4x4xf32>
}

// -----

// The grouped convolution of convert-onnx-to-linalg (2 groups, stride 2,
// dilation 1 x 2): onnxc_rt_sconv2d with its 35 parameter slots stored
// into an alloca at the top of the function. The weights are an argument:
// read in place; Y is an argument: accumulated into (flags 0, no bias, no
// clamp).
// CHECK: func.func private @onnxc_rt_sconv2d(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr)
// CHECK-LABEL: func.func @conv2d
// CHECK: %[[P:.+]] = memref.alloca() : memref<35xi64>
// Batch, groups, out and in channels per group, out h x w, kernel h x w.
// CHECK: memref.store %c1_i64, %[[P]][%c0]
// CHECK: memref.store %c2_i64, %[[P]][%c1]
// CHECK: memref.store %c4_i64, %[[P]][%c2]
// CHECK: memref.store %c3_i64, %[[P]][%c3]
// CHECK: memref.store %c4_i64, %[[P]][%c4]
// CHECK: memref.store %c3_i64, %[[P]][%c5]
// CHECK: memref.store %c3_i64, %[[P]][%c6]
// CHECK: memref.store %c3_i64, %[[P]][%c7]
// Strides 2 x 2, dilations 1 x 2.
// CHECK: memref.store %c2_i64, %[[P]][%c8]
// CHECK: memref.store %c2_i64, %[[P]][%c9]
// CHECK: memref.store %c1_i64, %[[P]][%c10]
// CHECK: memref.store %c2_i64, %[[P]][%c11]
// Element strides of X (n, g, c, h, w), W (g, m, c, kh, kw), Y (n, g, m, oh, ow).
// CHECK: memref.store %c594_i64, %[[P]][%c12]
// CHECK: memref.store %c297_i64, %[[P]][%c13]
// CHECK: memref.store %c99_i64, %[[P]][%c14]
// CHECK: memref.store %c11_i64, %[[P]][%c15]
// CHECK: memref.store %c1_i64, %[[P]][%c16]
// CHECK: memref.store %c108_i64, %[[P]][%c17]
// CHECK: memref.store %c27_i64, %[[P]][%c18]
// CHECK: memref.store %c9_i64, %[[P]][%c19]
// CHECK: memref.store %c3_i64, %[[P]][%c20]
// CHECK: memref.store %c1_i64, %[[P]][%c21]
// CHECK: memref.store %c96_i64, %[[P]][%c22]
// CHECK: memref.store %c48_i64, %[[P]][%c23]
// CHECK: memref.store %c12_i64, %[[P]][%c24]
// CHECK: memref.store %c3_i64, %[[P]][%c25]
// CHECK: memref.store %c1_i64, %[[P]][%c26]
// CHECK: memref.store %c0_i64, %[[P]][%c27]
// CHECK: memref.store %c0_i64, %[[P]][%c28]
// CHECK: memref.store %c0_i64, %[[P]][%c29]
// No fused padding: pad_top, pad_left, in_h, in_w unused (0).
// CHECK: memref.store %c0_i64, %[[P]][%c30]
// CHECK: memref.store %c0_i64, %[[P]][%c31]
// CHECK: memref.store %c0_i64, %[[P]][%c32]
// CHECK: memref.store %c0_i64, %[[P]][%c33]
// No activation: act_alpha, act_beta unused (0).
// CHECK: memref.store %c0_i64, %[[P]][%c34]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
#x = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh * 2 + kh, ow * 2 + kw * 2)>
#w = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#y = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
func.func @conv2d(%x: memref<1x2x3x9x11xf32>, %w: memref<2x4x3x3x3xf32>, %y: memref<1x2x4x4x3xf32>) {
  linalg.generic {indexing_maps = [#x, #w, #y], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x2x3x9x11xf32>, memref<2x4x3x3x3xf32>) outs(%y : memref<1x2x4x4x3xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Constant weights with several input channels per group: packed at compile
// time (ONNXC_CONV_W_PACKED | ONNXC_CONV_W_CONST, flags 1 + 512 = 513): 2 groups x 1 panel x (3 * 3 * 3 = 27)
// rows x 32 floats. Depthwise weights (one input channel) stay in place.
// CHECK: memref.global "private" constant @cw_packed : memref<1728xf32> = dense_resource<onnxc_packed> {alignment = 64 : i64}
// CHECK-NOT: @dw_packed
// CHECK-LABEL: func.func @conv2d_constant
// CHECK: memref.store %c513_i64, %[[P:.+]][%c27]
// CHECK: %[[G:.+]] = memref.get_global @cw_packed
// CHECK: memref.extract_aligned_pointer_as_index %[[G]]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: memref.store %c0_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
memref.global "private" constant @cw : memref<2x4x3x3x3xf32> = dense<0.25>
memref.global "private" constant @dw : memref<3x1x1x3x3xf32> = dense<0.5>
#cx = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#cw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#cy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
func.func @conv2d_constant(%x: memref<1x2x3x6x6xf32>, %y: memref<1x2x4x4x4xf32>,
                           %dx: memref<1x3x1x6x6xf32>, %dy: memref<1x3x1x4x4xf32>) {
  %w = memref.get_global @cw : memref<2x4x3x3x3xf32>
  linalg.generic {indexing_maps = [#cx, #cw, #cy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x2x3x6x6xf32>, memref<2x4x3x3x3xf32>) outs(%y : memref<1x2x4x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %d = memref.get_global @dw : memref<3x1x1x3x3xf32>
  linalg.generic {indexing_maps = [#cx, #cw, #cy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%dx, %d : memref<1x3x1x6x6xf32>, memref<3x1x1x3x3xf32>) outs(%dy : memref<1x3x1x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// One input channel but many output channels (an STFT as a 1-D
// convolution, 1 group x 8 filters x 5 taps): a GEMM over the taps, so
// packed (flags 513): 1 panel x 5 rows x 32 floats.
// CHECK: memref.global "private" constant @stft_packed : memref<160xf32> = dense_resource<onnxc_packed> {alignment = 64 : i64}
// CHECK-LABEL: func.func @conv1d_one_channel
// CHECK: memref.store %c513_i64, %{{.+}}[%c27]
// CHECK: memref.get_global @stft_packed
// CHECK: call @onnxc_rt_sconv2d(
memref.global "private" constant @stft : memref<1x8x1x5xf32> = dense<0.5>
#sx = affine_map<(n, g, m, o, c, k) -> (n, g, c, o * 2 + k)>
#sw = affine_map<(n, g, m, o, c, k) -> (g, m, c, k)>
#sy = affine_map<(n, g, m, o, c, k) -> (n, g, m, o)>
func.func @conv1d_one_channel(%x: memref<1x1x1x21xf32>, %y: memref<1x1x8x9xf32>) {
  %w = memref.get_global @stft : memref<1x8x1x5xf32>
  linalg.generic {indexing_maps = [#sx, #sw, #sy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x1x21xf32>, memref<1x8x1x5xf32>) outs(%y : memref<1x1x8x9xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Epilogue fusion: the bias broadcast that initialized Y goes into the call
// (flags 2 = ONNXC_CONV_BIAS, the bias address in slot 28), and the Relu6
// that reads Y next becomes the kernel's clamp (flags 4, bounds 0.0 and 6.0
// as float bits in slot 29: 0x40C00000 << 32 = 4665729213955833856); the
// kernel writes the Relu's output, Y's buffer goes. With a zero fill and
// no clamp after: flags 2 with a null bias.
// CHECK-LABEL: func.func @conv_epilogue
// CHECK-SAME: (%[[X:.+]]: memref<1x1x3x6x6xf32>, %[[W:.+]]: memref<1x4x3x3x3xf32>, %[[B:.+]]: memref<4xf32>, %[[Z:.+]]: memref<1x4x4x4xf32>
// CHECK-NOT: memref.alloc()
// CHECK-NOT: linalg.generic
// CHECK-DAG: %[[BI:.+]] = memref.extract_aligned_pointer_as_index %[[B]]
// CHECK-DAG: memref.store %c6_i64, %[[P:.+]][%c27]
// CHECK-DAG: %[[BP:.+]] = arith.index_cast %[[BI]] : index to i64
// CHECK-DAG: memref.store %[[BP]], %[[P]][%c28]
// CHECK-DAG: memref.store %c4665729213955833856_i64, %[[P]][%c29]
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[Z]]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill
// CHECK: memref.store %c2_i64, %{{.+}}[%c27]
// CHECK: memref.store %c0_i64, %{{.+}}[%c28]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: memref.alloc()
#ex = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#ew = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#ey = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_epilogue(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>,
                         %z: memref<1x4x4x4xf32>) -> memref<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %six = arith.constant 6.0 : f32
  %y = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %yv = memref.expand_shape %y [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#ex, #ew, #ey], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x4x4x4xf32>) outs(%z : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  memref.dealloc %y : memref<1x4x4x4xf32>
  %y2 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.fill ins(%zero : f32) outs(%y2 : memref<1x4x4x4xf32>)
  %yv2 = memref.expand_shape %y2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#ex, #ew, #ey], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv2 : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %y2 : memref<1x4x4x4xf32>
}

// -----

// A shared initialization copied in (CSE merged the identical bias
// broadcasts of two convolutions into one buffer; bufferization copies it
// into each one's 5-D Y): the copy goes and the kernel adds the bias
// (flags 2, the bias address in slot 28); the broadcast stays, as another
// op reads it. The Relu reads Y collapsed to NCHW and writes a slice of a
// Concat's buffer (channels 4-7 of 8): it becomes the kernel's clamp
// (flags 6 = BIAS | CLAMP), the kernel writing the slice through its
// strides: offset 64 (4 channels of 16), channel stride 16, batch stride
// 128 in slots 22-26 (n, g, m, h, w: 128, 64, 16, 4, 1). The subview moves
// before the call; Y goes.
// CHECK-LABEL: func.func @conv_copied_bias_into_slice
// CHECK-SAME: (%[[X:.+]]: memref<1x1x3x6x6xf32>, %[[W:.+]]: memref<1x4x3x3x3xf32>, %[[B:.+]]: memref<4xf32>, %[[CAT:.+]]: memref<1x8x4x4xf32>
// CHECK: %[[SH:.+]] = memref.alloc() : memref<1x4x4x4xf32>
// CHECK: linalg.generic
// CHECK-SAME: outs(%[[SH]]
// CHECK-NOT: memref.copy
// CHECK: %[[S:.+]] = memref.subview %[[CAT]][0, 4, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1]
// CHECK-DAG: memref.store %c128_i64, %[[P:.+]][%c22]
// CHECK-DAG: memref.store %c64_i64, %[[P]][%c23]
// CHECK-DAG: memref.store %c16_i64, %[[P]][%c24]
// CHECK-DAG: memref.store %c6_i64, %[[P]][%c27]
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[S]]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
// CHECK: return %[[CAT]], %[[SH]]
#cx = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#cw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#cy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#cbias = affine_map<(d0, d1, d2, d3) -> (d1)>
#cid4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @cbias : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
func.func @conv_copied_bias_into_slice(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %unused: memref<4xf32>,
                                       %cat: memref<1x8x4x4xf32>) -> (memref<1x8x4x4xf32>, memref<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %b = memref.get_global @cbias : memref<4xf32>
  %shared = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#cbias, #cid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%shared : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %sv = memref.expand_shape %shared [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  %y = memref.alloc() : memref<1x1x4x4x4xf32>
  memref.copy %sv, %y : memref<1x1x4x4x4xf32> to memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#cx, #cw, #cy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%y : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %yc = memref.collapse_shape %y [[0], [1, 2], [3], [4]] : memref<1x1x4x4x4xf32> into memref<1x4x4x4xf32>
  %slice = memref.subview %cat[0, 4, 0, 0] [1, 4, 4, 4] [1, 1, 1, 1] : memref<1x8x4x4xf32> to memref<1x4x4x4xf32, strided<[128, 16, 4, 1], offset: 64>>
  linalg.generic {indexing_maps = [#cid4, #cid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%yc : memref<1x4x4x4xf32>) outs(%slice : memref<1x4x4x4xf32, strided<[128, 16, 4, 1], offset: 64>>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<1x1x4x4x4xf32>
  return %cat, %shared : memref<1x8x4x4xf32>, memref<1x4x4x4xf32>
}

// -----

// Y's buffer held an earlier value (bufferization reused it): a view of it
// read by an op before the convolution does not keep the Relu out of the
// kernel (flags 6 = BIAS | CLAMP); the kernel writes the Relu's output.
// CHECK-LABEL: func.func @conv_clamp_reused_buffer
// CHECK-SAME: (%[[X:.+]]: memref<1x1x3x6x6xf32>, %{{.+}}: memref<1x4x3x3x3xf32>, %[[E:.+]]: memref<1x4x4x4xf32>, %[[Z:.+]]: memref<1x4x4x4xf32>
// CHECK: linalg.copy
// CHECK-DAG: memref.store %c6_i64, %{{.+}}[%c27]
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[Z]]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
#ex2 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#ew2 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#ey2 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#id42 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_clamp_reused_buffer(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>,
                                    %early: memref<1x4x4x4xf32>, %z: memref<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<1x4x4x4xf32>
  %yv = memref.expand_shape %y [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  %ev = memref.expand_shape %early [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.copy ins(%ev : memref<1x1x4x4x4xf32>) outs(%yv : memref<1x1x4x4x4xf32>)
  linalg.copy ins(%yv : memref<1x1x4x4x4xf32>) outs(%ev : memref<1x1x4x4x4xf32>)
  linalg.fill ins(%zero : f32) outs(%y : memref<1x4x4x4xf32>)
  linalg.generic {indexing_maps = [#ex2, #ew2, #ey2], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id42, #id42], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x4x4x4xf32>) outs(%z : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<1x4x4x4xf32>
  return
}

// -----

// A copy of a computed (not constant) bias broadcast: not fused (the bias
// buffer might be freed before the convolution); the copy stays.
// CHECK-LABEL: func.func @conv_copied_computed_bias
// CHECK: memref.copy
// CHECK: call @onnxc_rt_sconv2d(
#dx = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#dw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#dy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#dbias = affine_map<(d0, d1, d2, d3) -> (d1)>
#did4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_copied_computed_bias(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>)
    -> (memref<1x1x4x4x4xf32>, memref<1x4x4x4xf32>) {
  %shared = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#dbias, #did4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%shared : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %sv = memref.expand_shape %shared [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  %y = memref.alloc() : memref<1x1x4x4x4xf32>
  memref.copy %sv, %y : memref<1x1x4x4x4xf32> to memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#dx, #dw, #dy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%y : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return %y, %shared : memref<1x1x4x4x4xf32>, memref<1x4x4x4xf32>
}

// -----

// Padding fusion (ONNXC_CONV_PADDED = 8): the depthwise convolution reads a
// buffer that onnxc-pad-to-copy filled with zeros and copied the source
// into at [1, 1] (pads 1 on h and w). The call reads the source instead,
// with its strides split as the expand_shape splits the buffer's (n 144,
// g 36, c 36, h 6, w 1), and pad_top 1, pad_left 1, in_h 6, in_w 6 in slots
// 30-33; the fill, the copy and the padded buffer go.
// CHECK-LABEL: func.func @conv_fused_pad
// CHECK-SAME: (%[[SRC:.+]]: memref<1x4x6x6xf32>,
// CHECK-NOT: memref.alloc()
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.copy
// CHECK-DAG: memref.extract_aligned_pointer_as_index %{{.+}} : memref<1x4x6x6xf32, strided<[144, 36, 6, 1]>>
// CHECK-DAG: memref.store %c144_i64, %[[P:.+]][%c12]
// CHECK-DAG: memref.store %c36_i64, %[[P]][%c13]
// CHECK-DAG: memref.store %c36_i64, %[[P]][%c14]
// CHECK-DAG: memref.store %c6_i64, %[[P]][%c15]
// CHECK-DAG: memref.store %c1_i64, %[[P]][%c16]
// CHECK-DAG: memref.store %c8_i64, %[[P]][%c27]
// CHECK-DAG: memref.store %c1_i64, %[[P]][%c30]
// CHECK-DAG: memref.store %c1_i64, %[[P]][%c31]
// CHECK-DAG: memref.store %c6_i64, %[[P]][%c32]
// CHECK-DAG: memref.store %c6_i64, %[[P]][%c33]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: memref.alloc()
// CHECK-NOT: linalg.copy
// CHECK: return
#px = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#pw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#py = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
func.func @conv_fused_pad(%src: memref<1x4x6x6xf32>, %w: memref<4x1x1x3x3xf32>, %y: memref<1x4x1x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1x4x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x4x8x8xf32>)
  %from = memref.subview %src[0, 0, 0, 0] [1, 4, 6, 6] [1, 1, 1, 1] : memref<1x4x6x6xf32> to memref<1x4x6x6xf32, strided<[144, 36, 6, 1]>>
  %to = memref.subview %buf[0, 0, 1, 1] [1, 4, 6, 6] [1, 1, 1, 1] : memref<1x4x8x8xf32> to memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>
  linalg.copy ins(%from : memref<1x4x6x6xf32, strided<[144, 36, 6, 1]>>) outs(%to : memref<1x4x6x6xf32, strided<[256, 64, 8, 1], offset: 9>>)
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 4, 1, 8, 8] : memref<1x4x8x8xf32> into memref<1x4x1x8x8xf32>
  linalg.generic {indexing_maps = [#px, #pw, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x4x1x8x8xf32>, memref<4x1x1x3x3xf32>) outs(%y : memref<1x4x1x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<1x4x8x8xf32>
  return
}

// -----

// Padded 3 x 3 convolutions over constant weights with 64 input and 64
// output channels: the weights packed in channel-block order
// (ONNXC_CONV_W_CBLOCK = 256, so flags 1 + 8 + 256 + 512 = 777; the runtime
// copies the input in blocks of 16 channels). Not with 48 input channels
// (flags 521), 32 output channels, or dilated (each 521).
// CHECK-LABEL: func.func @conv_cblock
// CHECK: memref.store %c777_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: memref.store %c521_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: memref.store %c521_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: memref.store %c521_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
memref.global "private" constant @w64 : memref<1x64x64x3x3xf32> = dense<0.25>
memref.global "private" constant @w48 : memref<1x64x48x3x3xf32> = dense<0.5>
memref.global "private" constant @w64n : memref<1x32x64x3x3xf32> = dense<0.75>
#bx = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#bxd = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + 2 * kh, ow + 2 * kw)>
#bw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#by = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
func.func @conv_cblock(%src: memref<1x64x6x6xf32>, %src48: memref<1x48x6x6xf32>,
                       %y: memref<1x1x64x6x6xf32>, %yn: memref<1x1x32x6x6xf32>,
                       %yd: memref<1x1x64x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %w = memref.get_global @w64 : memref<1x64x64x3x3xf32>
  %buf = memref.alloc() : memref<1x64x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x64x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 64, 6, 6] [1, 1, 1, 1] : memref<1x64x8x8xf32> to memref<1x64x6x6xf32, strided<[4096, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x64x6x6xf32>) outs(%to : memref<1x64x6x6xf32, strided<[4096, 64, 8, 1], offset: 9>>)
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 8, 8] : memref<1x64x8x8xf32> into memref<1x1x64x8x8xf32>
  linalg.generic {indexing_maps = [#bx, #bw, #by], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x64x8x8xf32>, memref<1x64x64x3x3xf32>) outs(%y : memref<1x1x64x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %w48 = memref.get_global @w48 : memref<1x64x48x3x3xf32>
  %buf48 = memref.alloc() : memref<1x48x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf48 : memref<1x48x8x8xf32>)
  %to48 = memref.subview %buf48[0, 0, 1, 1] [1, 48, 6, 6] [1, 1, 1, 1] : memref<1x48x8x8xf32> to memref<1x48x6x6xf32, strided<[3072, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src48 : memref<1x48x6x6xf32>) outs(%to48 : memref<1x48x6x6xf32, strided<[3072, 64, 8, 1], offset: 9>>)
  %x48 = memref.expand_shape %buf48 [[0], [1, 2], [3], [4]] output_shape [1, 1, 48, 8, 8] : memref<1x48x8x8xf32> into memref<1x1x48x8x8xf32>
  linalg.generic {indexing_maps = [#bx, #bw, #by], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x48, %w48 : memref<1x1x48x8x8xf32>, memref<1x64x48x3x3xf32>) outs(%y : memref<1x1x64x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %wn = memref.get_global @w64n : memref<1x32x64x3x3xf32>
  %bufn = memref.alloc() : memref<1x64x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%bufn : memref<1x64x8x8xf32>)
  %ton = memref.subview %bufn[0, 0, 1, 1] [1, 64, 6, 6] [1, 1, 1, 1] : memref<1x64x8x8xf32> to memref<1x64x6x6xf32, strided<[4096, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x64x6x6xf32>) outs(%ton : memref<1x64x6x6xf32, strided<[4096, 64, 8, 1], offset: 9>>)
  %xn = memref.expand_shape %bufn [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 8, 8] : memref<1x64x8x8xf32> into memref<1x1x64x8x8xf32>
  linalg.generic {indexing_maps = [#bx, #bw, #by], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xn, %wn : memref<1x1x64x8x8xf32>, memref<1x32x64x3x3xf32>) outs(%yn : memref<1x1x32x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %bufd = memref.alloc() : memref<1x64x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%bufd : memref<1x64x8x8xf32>)
  %tod = memref.subview %bufd[0, 0, 1, 1] [1, 64, 6, 6] [1, 1, 1, 1] : memref<1x64x8x8xf32> to memref<1x64x6x6xf32, strided<[4096, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x64x6x6xf32>) outs(%tod : memref<1x64x6x6xf32, strided<[4096, 64, 8, 1], offset: 9>>)
  %xd = memref.expand_shape %bufd [[0], [1, 2], [3], [4]] output_shape [1, 1, 64, 8, 8] : memref<1x64x8x8xf32> into memref<1x1x64x8x8xf32>
  linalg.generic {indexing_maps = [#bxd, #bw, #by], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%xd, %w : memref<1x1x64x8x8xf32>, memref<1x64x64x3x3xf32>) outs(%yd : memref<1x1x64x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<1x64x8x8xf32>
  memref.dealloc %buf48 : memref<1x48x8x8xf32>
  memref.dealloc %bufn : memref<1x64x8x8xf32>
  memref.dealloc %bufd : memref<1x64x8x8xf32>
  return
}

// -----

// The padding gather itself (batch index folded to the constant 0, as
// canonicalization leaves it) in front of the convolution: rewritten as
// fill + copy, then fused (top and left pads 2 and 0, bottom and right 0
// and 1: the kernel needs only the top and left ones). Two pads into one
// buffer (bufferization reuses it) both go; a deallocation of the source
// between the copy and the convolution moves after the call.
// CHECK-LABEL: func.func @conv_fused_pad_gather
// CHECK-SAME: (%[[SRC:.+]]: memref<1x2x5x5xf32>,
// CHECK-NOT: linalg.generic
// CHECK-NOT: linalg.fill
// CHECK-NOT: linalg.copy
// CHECK-DAG: memref.store %c8_i64, %[[P:.+]][%c27]
// CHECK-DAG: memref.store %c2_i64, %[[P]][%c30]
// CHECK-DAG: memref.store %c0_i64, %[[P]][%c31]
// CHECK-DAG: memref.store %c5_i64, %[[P]][%c32]
// CHECK-DAG: memref.store %c5_i64, %[[P]][%c33]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.copy
// CHECK: %[[S2:.+]] = memref.alloc() : memref<1x2x5x5xf32>
// CHECK-NOT: linalg.copy
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NEXT: memref.dealloc %[[S2]]
// CHECK-NOT: memref.alloc()
// CHECK: return
#px = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#pw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#py = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#gid = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_fused_pad_gather(%src: memref<1x2x5x5xf32>, %w: memref<2x1x1x3x3xf32>, %y: memref<1x2x1x5x4xf32>, %y2: memref<1x2x1x5x4xf32>) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c5 = arith.constant 5 : index
  %zero = arith.constant 0.0 : f32
  %buf = memref.alloc() : memref<1x2x7x6xf32>
  linalg.generic {indexing_maps = [#gid], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%buf : memref<1x2x7x6xf32>) {
  ^bb0(%o: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %jh = arith.subi %h, %c2 : index
    %lth = arith.cmpi slt, %jh, %c5 : index
    %geh = arith.cmpi sge, %jh, %c0 : index
    %okh = arith.andi %geh, %lth : i1
    %ih = arith.select %okh, %jh, %c0 : index
    %wi = linalg.index 3 : index
    %jw = arith.subi %wi, %c0 : index
    %ltw = arith.cmpi slt, %jw, %c5 : index
    %gew = arith.cmpi sge, %jw, %c0 : index
    %okw = arith.andi %gew, %ltw : i1
    %iw = arith.select %okw, %jw, %c0 : index
    %ok = arith.andi %okh, %okw : i1
    %v = memref.load %src[%c0, %c, %ih, %iw] : memref<1x2x5x5xf32>
    %r = arith.select %ok, %v, %zero : f32
    linalg.yield %r : f32
  }
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 7, 6] : memref<1x2x7x6xf32> into memref<1x2x1x7x6xf32>
  linalg.generic {indexing_maps = [#px, #pw, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x2x1x7x6xf32>, memref<2x1x1x3x3xf32>) outs(%y : memref<1x2x1x5x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %src2 = memref.alloc() : memref<1x2x5x5xf32>
  memref.copy %src, %src2 : memref<1x2x5x5xf32> to memref<1x2x5x5xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x7x6xf32>)
  %to = memref.subview %buf[0, 0, 2, 0] [1, 2, 5, 5] [1, 1, 1, 1] : memref<1x2x7x6xf32> to memref<1x2x5x5xf32, strided<[84, 42, 6, 1], offset: 12>>
  linalg.copy ins(%src2 : memref<1x2x5x5xf32>) outs(%to : memref<1x2x5x5xf32, strided<[84, 42, 6, 1], offset: 12>>)
  memref.dealloc %src2 : memref<1x2x5x5xf32>
  %x2 = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 7, 6] : memref<1x2x7x6xf32> into memref<1x2x1x7x6xf32>
  linalg.generic {indexing_maps = [#px, #pw, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x2, %w : memref<1x2x1x7x6xf32>, memref<2x1x1x3x3xf32>) outs(%y2 : memref<1x2x1x5x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<1x2x7x6xf32>
  return
}

// -----

// Not fused: the source changes between the copy and the convolution (the
// kernel must read the copy); a pad along the channels (the kernel pads
// only h and w); a nonzero pad value. When the padded buffer is read again
// after the convolution, the call still reads the source, but the pad
// stays for that reader.
// CHECK-LABEL: func.func @conv_pad_not_fused
// CHECK: linalg.copy
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[SRC:.+]] :
// CHECK: memref.store %c0_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: linalg.copy
// CHECK: memref.store %c0_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: linalg.fill ins(%[[ONE:.+]] : f32)
// CHECK: linalg.copy
// CHECK: memref.store %c0_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: linalg.fill ins(%{{.+}} : f32) outs(%[[B4:.+]] :
// CHECK: linalg.copy
// CHECK: memref.store %c8_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: memref.copy %[[B4]]
#px = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#pw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#py = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
func.func @conv_pad_not_fused(%src: memref<1x2x6x6xf32>, %w: memref<2x1x1x3x3xf32>, %y: memref<1x2x1x6x6xf32>,
                              %csrc: memref<1x1x6x6xf32>, %keep: memref<1x2x8x8xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 8] : memref<1x2x8x8xf32> into memref<1x2x1x8x8xf32>
  linalg.generic {indexing_maps = [#px, #pw, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x2x1x8x8xf32>, memref<2x1x1x3x3xf32>) outs(%y : memref<1x2x1x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %cbuf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%cbuf : memref<1x2x8x8xf32>)
  %cto = memref.subview %cbuf[0, 1, 1, 1] [1, 1, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x1x6x6xf32, strided<[128, 64, 8, 1], offset: 73>>
  linalg.copy ins(%csrc : memref<1x1x6x6xf32>) outs(%cto : memref<1x1x6x6xf32, strided<[128, 64, 8, 1], offset: 73>>)
  %cx = memref.expand_shape %cbuf [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 8] : memref<1x2x8x8xf32> into memref<1x2x1x8x8xf32>
  linalg.generic {indexing_maps = [#px, #pw, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%cx, %w : memref<1x2x1x8x8xf32>, memref<2x1x1x3x3xf32>) outs(%y : memref<1x2x1x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %obuf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%one : f32) outs(%obuf : memref<1x2x8x8xf32>)
  %oto = memref.subview %obuf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%oto : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  %ox = memref.expand_shape %obuf [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 8] : memref<1x2x8x8xf32> into memref<1x2x1x8x8xf32>
  linalg.generic {indexing_maps = [#px, #pw, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%ox, %w : memref<1x2x1x8x8xf32>, memref<2x1x1x3x3xf32>) outs(%y : memref<1x2x1x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %b4 = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%b4 : memref<1x2x8x8xf32>)
  %to4 = memref.subview %b4[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to4 : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  %x4 = memref.expand_shape %b4 [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 8] : memref<1x2x8x8xf32> into memref<1x2x1x8x8xf32>
  linalg.generic {indexing_maps = [#px, #pw, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x4, %w : memref<1x2x1x8x8xf32>, memref<2x1x1x3x3xf32>) outs(%y : memref<1x2x1x6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.copy %b4, %keep : memref<1x2x8x8xf32> to memref<1x2x8x8xf32>
  return
}

// -----

// A Relu6 that writes its result back over the padded convolution's input
// (bufferization reuses the dead input's buffer): fused when the
// convolution is depthwise and the output is laid out exactly as the input
// (flags 30 = BIAS | CLAMP | PADDED | IN_PLACE: x and y are the same
// buffer); with two input channels per group it is not (flags 10, the
// clamp stays).
// CHECK-LABEL: func.func @conv_pad_clamp_in_place
// CHECK: memref.store %c30_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: arith.minimumf
// CHECK: memref.store %c10_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: linalg.generic
// CHECK: arith.minimumf
#ix = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#ib = affine_map<(d0, d1, d2, d3) -> (d1)>
#i4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_pad_clamp_in_place(%w: memref<2x1x1x3x3xf32>, %b: memref<2xf32>,
                                   %w2: memref<1x2x2x3x3xf32>) -> (memref<1x2x6x6xf32>, memref<1x2x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %six = arith.constant 6.0 : f32
  %src = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  %y = memref.alloc() : memref<1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ib, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2xf32>) outs(%y : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 8, 8] : memref<1x2x8x8xf32> into memref<1x2x1x8x8xf32>
  %yv = memref.expand_shape %y [[0], [1, 2], [3], [4]] output_shape [1, 2, 1, 6, 6] : memref<1x2x6x6xf32> into memref<1x2x1x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x2x1x8x8xf32>, memref<2x1x1x3x3xf32>) outs(%yv : memref<1x2x1x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#i4, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x2x6x6xf32>) outs(%src : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  memref.dealloc %y : memref<1x2x6x6xf32>
  memref.dealloc %buf : memref<1x2x8x8xf32>
  // Not depthwise: 1 group of 2 input channels.
  %src2 = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src2 : memref<1x2x6x6xf32>)
  %buf2 = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf2 : memref<1x2x8x8xf32>)
  %to2 = memref.subview %buf2[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src2 : memref<1x2x6x6xf32>) outs(%to2 : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  %y2 = memref.alloc() : memref<1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ib, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2xf32>) outs(%y2 : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %x2 = memref.expand_shape %buf2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : memref<1x2x8x8xf32> into memref<1x1x2x8x8xf32>
  %yv2 = memref.expand_shape %y2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6] : memref<1x2x6x6xf32> into memref<1x1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x2, %w2 : memref<1x1x2x8x8xf32>, memref<1x2x2x3x3xf32>) outs(%yv2 : memref<1x1x2x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#i4, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y2 : memref<1x2x6x6xf32>) outs(%src2 : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    %hi = arith.minimumf %lo, %six : f32
    linalg.yield %hi : f32
  }
  memref.dealloc %y2 : memref<1x2x6x6xf32>
  memref.dealloc %buf2 : memref<1x2x8x8xf32>
  return %src, %src2 : memref<1x2x6x6xf32>, memref<1x2x6x6xf32>
}

// -----

// The same write-back over a convolution of one group whose weights are
// constants (packed at compile time), as U-Net's second convolution of a
// block runs: fused (flags 543 = W_PACKED | BIAS | CLAMP | PADDED |
// IN_PLACE | W_CONST), since the runtime copies the padded input in full before it
// writes Y. Without packing (NOPACK) the clamp stays (flags 10).
// CHECK-LABEL: func.func @conv_pad_clamp_in_place_packed
// CHECK: memref.store %c543_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
// CHECK: return
// NOPACK-LABEL: func.func @conv_pad_clamp_in_place_packed
// NOPACK: memref.store %c10_i64, %{{.+}}[%c27]
// NOPACK: call @onnxc_rt_sconv2d(
// NOPACK: linalg.generic
// NOPACK: arith.maximumf
#ix = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#ib = affine_map<(d0, d1, d2, d3) -> (d1)>
#i4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @wip : memref<1x2x2x3x3xf32> = dense<0.25>
func.func @conv_pad_clamp_in_place_packed(%b: memref<2xf32>) -> memref<1x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @wip : memref<1x2x2x3x3xf32>
  %src = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  %y = memref.alloc() : memref<1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ib, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2xf32>) outs(%y : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : memref<1x2x8x8xf32> into memref<1x1x2x8x8xf32>
  %yv = memref.expand_shape %y [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6] : memref<1x2x6x6xf32> into memref<1x1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x2x8x8xf32>, memref<1x2x2x3x3xf32>) outs(%yv : memref<1x1x2x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#i4, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y : memref<1x2x6x6xf32>) outs(%src : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    linalg.yield %lo : f32
  }
  memref.dealloc %y : memref<1x2x6x6xf32>
  memref.dealloc %buf : memref<1x2x8x8xf32>
  return %src : memref<1x2x6x6xf32>
}

// -----

// What stays: other element types, other bodies, a batch of dot products
// (no M or N dim).
// CHECK-LABEL: func.func @not_rewritten
// CHECK-NOT: call
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x4xf64>
// CHECK: linalg.matmul ins(%{{.+}}, %{{.+}} : memref<4x4xi32>
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK-NOT: call
func.func @not_rewritten(%a: memref<4x4xf64>, %b: memref<4x4xf64>, %c: memref<4x4xf64>,
                         %ai: memref<4x4xi32>, %bi: memref<4x4xi32>, %ci: memref<4x4xi32>,
                         %x: memref<4x4xf32>, %y: memref<4x4xf32>, %z: memref<4xf32>) {
  linalg.matmul ins(%a, %b : memref<4x4xf64>, memref<4x4xf64>) outs(%c : memref<4x4xf64>)
  linalg.matmul ins(%ai, %bi : memref<4x4xi32>, memref<4x4xi32>) outs(%ci : memref<4x4xi32>)
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x, %y : memref<4x4xf32>, memref<4x4xf32>) outs(%x : memref<4x4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.maximumf %acc, %m : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (m)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x, %y : memref<4x4xf32>, memref<4x4xf32>) outs(%z : memref<4xf32>) {
  ^bb0(%p: f32, %q: f32, %acc: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %acc, %m : f32
    linalg.yield %s : f32
  }
  return
}
