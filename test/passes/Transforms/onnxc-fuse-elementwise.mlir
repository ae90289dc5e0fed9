// RUN: %onnxc-opt --onnxc-fuse-elementwise --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --onnxc-fuse-elementwise=residuals-in-place=false --split-input-file %s | FileCheck %s --check-prefix=OFF

// Bias add + ReLU after a product: one generic; the product stays.
// CHECK-LABEL: func.func @bias_relu
// CHECK: %[[MM:.+]] = linalg.matmul
// CHECK: %[[R:.+]] = linalg.generic {{.+}} ins(%[[MM]], %{{.+}} : tensor<4x8xf32>, tensor<8xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-NOT: linalg.generic
// CHECK: return %[[R]]
#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
func.func @bias_relu(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %bias: tensor<8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mm = linalg.matmul ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%f : tensor<4x8xf32>) -> tensor<4x8xf32>
  %add = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%mm, %bias : tensor<4x8xf32>, tensor<8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %relu = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%add : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.maximumf %x, %zero : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %relu : tensor<4x8xf32>
}

// -----

// A transpose feeding a product folds into the product's map (K^T in
// attention); the body stays a multiply-add.
// CHECK-LABEL: func.func @transpose_into_product
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[BT:.+]], #{{.+}}], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<4x16xf32>, tensor<8x16xf32>)
// CHECK: arith.mulf
// CHECK: arith.addf
#a = affine_map<(m, n, k) -> (m, k)>
#b = affine_map<(m, n, k) -> (k, n)>
#c = affine_map<(m, n, k) -> (m, n)>
func.func @transpose_into_product(%a: tensor<4x16xf32>, %bt: tensor<8x16xf32>, %init: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e = tensor.empty() : tensor<16x8xf32>
  %b = linalg.transpose ins(%bt : tensor<8x16xf32>) outs(%e : tensor<16x8xf32>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  return %r : tensor<4x8xf32>
}

// -----

// Arithmetic does not fuse into a product (the runtime's kernel computes
// only out + a * b); a producer with two uses fuses nowhere.
// CHECK-LABEL: func.func @kept_apart
// CHECK: %[[SCALED:.+]] = linalg.generic
// CHECK: arith.mulf
// CHECK: linalg.generic {{.+}} ins(%[[SCALED]], %arg1 : tensor<4x16xf32>, tensor<16x8xf32>)
// CHECK: %[[EXP:.+]] = linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic {{.+}} ins(%[[EXP]] : tensor<4x8xf32>)
// CHECK: linalg.generic {{.+}} ins(%[[EXP]] : tensor<4x8xf32>)
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @kept_apart(%a: tensor<4x16xf32>, %b: tensor<16x8xf32>, %init: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
  %two = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x16xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x16xf32>) outs(%e : tensor<4x16xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %two : f32
    linalg.yield %m : f32
  } -> tensor<4x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%scaled, %b : tensor<4x16xf32>, tensor<16x8xf32>) outs(%init : tensor<4x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<4x8xf32>
  %e2 = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%r : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = math.exp %x : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %u1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.negf %x : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %u2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%exp : tensor<4x8xf32>) outs(%e2 : tensor<4x8xf32>) {
  ^bb0(%x: f32, %o: f32):
    %m = arith.mulf %x, %x : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  return %r, %u1, %u2 : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
}

// -----

// An elementwise producer fuses into a reduction that is not a product
// (softmax's exp into its sum).
// CHECK-LABEL: func.func @exp_into_sum
// CHECK: linalg.generic {{.+}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<4x8xf32>)
// CHECK: math.exp
// CHECK: arith.addf
func.func @exp_into_sum(%x: tensor<4x8xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %e = tensor.empty() : tensor<4x8xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x8xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%v: f32, %o: f32):
    %m = math.exp %v : f32
    linalg.yield %m : f32
  } -> tensor<4x8xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]}
      ins(%exp : tensor<4x8xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %s = arith.addf %v, %o : f32
    linalg.yield %s : f32
  } -> tensor<4xf32>
  return %sum : tensor<4xf32>
}

// -----

// A max pool keeps its -inf padding gather as a separate generic
// (onnxc-linalg-to-ukernel folds the padding into onnxc_rt_smaxpool2d).
// CHECK-LABEL: func.func @maxpool_pad_unfused
// CHECK: %[[PAD:.+]] = linalg.generic
// CHECK: tensor.extract
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[PAD]], %{{.+}} : tensor<1x4x11x11xf32>, tensor<3x3xf32>)
// CHECK-NOT: tensor.extract
// CHECK: arith.maximumf
// CHECK: return
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#px = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
#pk = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>
#py = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>
func.func @maxpool_pad_unfused(%x: tensor<1x4x9x9xf32>) -> tensor<1x4x5x5xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c9 = arith.constant 9 : index
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<1x4x11x11xf32>
  %pad = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x11x11xf32>) {
  ^bb0(%o: f32):
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %ih = arith.subi %h, %c1 : index
    %iw = arith.subi %w, %c1 : index
    %h0 = arith.cmpi sge, %ih, %c0 : index
    %h1 = arith.cmpi slt, %ih, %c9 : index
    %w0 = arith.cmpi sge, %iw, %c0 : index
    %w1 = arith.cmpi slt, %iw, %c9 : index
    %hok = arith.andi %h0, %h1 : i1
    %wok = arith.andi %w0, %w1 : i1
    %ok = arith.andi %hok, %wok : i1
    %sh = arith.select %hok, %ih, %c0 : index
    %sw = arith.select %wok, %iw, %c0 : index
    %v = tensor.extract %x[%c0, %c, %sh, %sw] : tensor<1x4x9x9xf32>
    %r = arith.select %ok, %v, %ninf : f32
    linalg.yield %r : f32
  } -> tensor<1x4x11x11xf32>
  %win = tensor.empty() : tensor<3x3xf32>
  %ye = tensor.empty() : tensor<1x4x5x5xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%ye : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %pool = linalg.generic {indexing_maps = [#px, #pk, #py], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%pad, %win : tensor<1x4x11x11xf32>, tensor<3x3xf32>) outs(%init : tensor<1x4x5x5xf32>) {
  ^bb0(%in: f32, %k: f32, %acc: f32):
    %m = arith.maximumf %in, %acc : f32
    linalg.yield %m : f32
  } -> tensor<1x4x5x5xf32>
  return %pool : tensor<1x4x5x5xf32>
}

// -----

// A convolution in the kernel's form (W read as (g, m, c, k)) keeps it: the
// channel swap of its weights (ConvTranspose's, a Conv gradient's) stays a
// separate copy instead of a (g, c, m, k) read fused into it, which
// onnxc-linalg-to-ukernel could not map to the convolution kernel. A copy
// whose fusion keeps the form (the input's, here) still fuses.
// CHECK-DAG: #[[SWAP:.+]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3, d4)>
// CHECK-DAG: #[[WMAP:.+]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
// CHECK-LABEL: func.func @conv_weight_swap_unfused
// CHECK: %[[W:.+]] = linalg.generic {indexing_maps = [#[[SWAP]], #{{.+}}]
// CHECK: linalg.generic {indexing_maps = [#{{.+}}, #[[WMAP]], #{{.+}}], {{.*}} ins(%{{.+}}, %[[W]] : tensor<1x1x3x6x6xf32>, tensor<1x2x3x3x3xf32>)
// CHECK-NOT: linalg.generic
// CHECK: return
#cid5 = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3, d4)>
#swap = affine_map<(d0, d1, d2, d3, d4) -> (d0, d2, d1, d3, d4)>
#cx = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
#cw = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
#cy = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
func.func @conv_weight_swap_unfused(%x: tensor<1x1x3x6x6xf32>, %w: tensor<1x3x2x3x3xf32>, %y: tensor<1x1x2x4x4xf32>) -> tensor<1x1x2x4x4xf32> {
  %xe = tensor.empty() : tensor<1x1x3x6x6xf32>
  %xc = linalg.generic {indexing_maps = [#cid5, #cid5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x1x3x6x6xf32>) outs(%xe : tensor<1x1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x1x3x6x6xf32>
  %we = tensor.empty() : tensor<1x2x3x3x3xf32>
  %ws = linalg.generic {indexing_maps = [#swap, #cid5], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%w : tensor<1x3x2x3x3xf32>) outs(%we : tensor<1x2x3x3x3xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x2x3x3x3xf32>
  %c = linalg.generic {indexing_maps = [#cx, #cw, #cy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xc, %ws : tensor<1x1x3x6x6xf32>, tensor<1x2x3x3x3xf32>) outs(%y : tensor<1x1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x4x4xf32>
  return %c : tensor<1x1x2x4x4xf32>
}

// -----

// A convolution without a bias (its start a fill of +0.0) whose result
// only feeds an Add starts from the Add's other operand instead, and the
// Add goes (onnxc-linalg-to-ukernel's call then sums into that: no
// ONNXC_CONV_BIAS); the convolution moves to where the Add was, after the
// other operand's producer. The Relu after it still fuses into nothing
// else (it reads the convolution: the kernel's clamp). Left alone: a
// convolution that starts from a bias (not +0.0), and one whose result
// is also returned.
// CHECK-LABEL: func.func @conv_into_add
// CHECK-SAME: (%[[X:.+]]: tensor<1x1x3x6x6xf32>, %[[W:.+]]: tensor<1x2x3x3x3xf32>, %[[R:.+]]: tensor<1x2x4x4xf32>
// CHECK: %[[UP:.+]] = linalg.generic {{.*}} ins(%[[R]] : tensor<1x2x4x4xf32>)
// CHECK: %[[START:.+]] = tensor.expand_shape %[[UP]] {{\[}}[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 4, 4]
// CHECK: %[[C:.+]] = linalg.generic {{.*}} ins(%[[X]], %[[W]] : tensor<1x1x3x6x6xf32>, tensor<1x2x3x3x3xf32>) outs(%[[START]] : tensor<1x1x2x4x4xf32>)
// CHECK: %[[CC:.+]] = tensor.collapse_shape %[[C]]
// CHECK-NOT: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: arith.maximumf
// CHECK-LABEL: func.func @conv_not_into_add
// CHECK-COUNT-2: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: linalg.fill
// CHECK-COUNT-2: arith.addf %{{.+}}, %{{.+}} : f32
// CHECK: return
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#kx = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
#kw = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
#ky = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
func.func @conv_into_add(%x: tensor<1x1x3x6x6xf32>, %w: tensor<1x2x3x3x3xf32>, %r: tensor<1x2x4x4xf32>) -> tensor<1x2x4x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %ee = tensor.expand_shape %e [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 4, 4] : tensor<1x2x4x4xf32> into tensor<1x1x2x4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%ee : tensor<1x1x2x4x4xf32>) -> tensor<1x1x2x4x4xf32>
  %c = linalg.generic {indexing_maps = [#kx, #kw, #ky], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x6x6xf32>, tensor<1x2x3x3x3xf32>) outs(%f : tensor<1x1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x4x4xf32>
  %cc = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x1x2x4x4xf32> into tensor<1x2x4x4xf32>
  // The other operand, computed after the convolution (an upsampled map).
  %ue = tensor.empty() : tensor<1x2x4x4xf32>
  %up = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%r : tensor<1x2x4x4xf32>) outs(%ue : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  } -> tensor<1x2x4x4xf32>
  %sum = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc, %up : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %re = tensor.empty() : tensor<1x2x4x4xf32>
  %relu = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x2x4x4xf32>) outs(%re : tensor<1x2x4x4xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x2x4x4xf32>
  return %relu : tensor<1x2x4x4xf32>
}
func.func @conv_not_into_add(%x: tensor<1x1x3x6x6xf32>, %w: tensor<1x2x3x3x3xf32>, %r: tensor<1x2x4x4xf32>) -> (tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x2x4x4xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2x4x4xf32>
  %ee = tensor.expand_shape %e [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 4, 4] : tensor<1x2x4x4xf32> into tensor<1x1x2x4x4xf32>
  %f = linalg.fill ins(%one : f32) outs(%ee : tensor<1x1x2x4x4xf32>) -> tensor<1x1x2x4x4xf32>
  %c = linalg.generic {indexing_maps = [#kx, #kw, #ky], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x6x6xf32>, tensor<1x2x3x3x3xf32>) outs(%f : tensor<1x1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x4x4xf32>
  %cc = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x1x2x4x4xf32> into tensor<1x2x4x4xf32>
  %sum = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc, %r : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  %e2 = tensor.empty() : tensor<1x2x4x4xf32>
  %ee2 = tensor.expand_shape %e2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 4, 4] : tensor<1x2x4x4xf32> into tensor<1x1x2x4x4xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%ee2 : tensor<1x1x2x4x4xf32>) -> tensor<1x1x2x4x4xf32>
  %c2 = linalg.generic {indexing_maps = [#kx, #kw, #ky], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%x, %w : tensor<1x1x3x6x6xf32>, tensor<1x2x3x3x3xf32>) outs(%f2 : tensor<1x1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x2x4x4xf32>
  %cc2 = tensor.collapse_shape %c2 [[0], [1, 2], [3], [4]] : tensor<1x1x2x4x4xf32> into tensor<1x2x4x4xf32>
  %sum2 = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc2, %r : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>) outs(%e : tensor<1x2x4x4xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x2x4x4xf32>
  return %sum, %sum2, %c2 : tensor<1x2x4x4xf32>, tensor<1x2x4x4xf32>, tensor<1x1x2x4x4xf32>
}

// -----

// A residual Add + Relu after a biased convolution (its start a bias
// broadcast, not a zero fill: conv_into_add does not apply), whose other
// operand R is a Relu's result that only the convolution's input read
// before: after fusion the Add + Relu generic writes R's buffer (its init
// becomes R: onnxc-linalg-to-ukernel then runs the convolution from R in
// place). Left alone, with residuals-in-place=false, and when R is a
// function argument (read-only) or is read after the Add.
// CHECK-LABEL: func.func @residual_in_place
// CHECK: %[[R:.+]] = linalg.generic {{.*}} ins(%{{.+}} : tensor<1x3x6x6xf32>)
// CHECK: %[[C:.+]] = tensor.collapse_shape
// CHECK: linalg.generic {{.*}} ins(%[[C]], %[[R]] : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>) outs(%[[R]] : tensor<1x3x6x6xf32>)
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK-LABEL: func.func @residual_not_in_place
// CHECK: %[[E:.+]] = tensor.empty() : tensor<1x3x6x6xf32>
// CHECK-COUNT-2: ins(%{{.+}}, %{{.+}} : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>) outs(%[[E]] : tensor<1x3x6x6xf32>)
// OFF-LABEL: func.func @residual_in_place
// OFF: %[[E:.+]] = tensor.empty() : tensor<1x3x6x6xf32>
// OFF: ins(%{{.+}}, %{{.+}} : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>) outs(%[[E]] : tensor<1x3x6x6xf32>)
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#m4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#kx = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 + d6, d4 + d7)>
#kw = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d1, d2, d5, d6, d7)>
#ky = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d2, d3, d4)>
func.func @residual_in_place(%x: tensor<1x3x6x6xf32>, %w: tensor<1x3x3x1x1xf32>, %b: tensor<3xf32>) -> tensor<1x3x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x6x6xf32>
  %r = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x3x6x6xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x3x6x6xf32>
  %bb = linalg.generic {indexing_maps = [#bias, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<3xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x3x6x6xf32>
  %be = tensor.expand_shape %bb [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 6, 6] : tensor<1x3x6x6xf32> into tensor<1x1x3x6x6xf32>
  %re = tensor.expand_shape %r [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 6, 6] : tensor<1x3x6x6xf32> into tensor<1x1x3x6x6xf32>
  %c = linalg.generic {indexing_maps = [#kx, #kw, #ky], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%re, %w : tensor<1x1x3x6x6xf32>, tensor<1x3x3x1x1xf32>) outs(%be : tensor<1x1x3x6x6xf32>) {
  ^bb0(%a: f32, %bw: f32, %acc: f32):
    %p = arith.mulf %a, %bw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x6x6xf32>
  %cc = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x1x3x6x6xf32> into tensor<1x3x6x6xf32>
  %sum = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc, %r : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %s = arith.addf %a, %bw : f32
    linalg.yield %s : f32
  } -> tensor<1x3x6x6xf32>
  %relu = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%sum : tensor<1x3x6x6xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x3x6x6xf32>
  return %relu : tensor<1x3x6x6xf32>
}
func.func @residual_not_in_place(%x: tensor<1x3x6x6xf32>, %w: tensor<1x3x3x1x1xf32>, %b: tensor<3xf32>) -> (tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x3x6x6xf32>
  %bb = linalg.generic {indexing_maps = [#bias, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<3xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    linalg.yield %in : f32
  } -> tensor<1x3x6x6xf32>
  %be = tensor.expand_shape %bb [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 6, 6] : tensor<1x3x6x6xf32> into tensor<1x1x3x6x6xf32>
  %xe = tensor.expand_shape %x [[0], [1, 2], [3], [4]] output_shape [1, 1, 3, 6, 6] : tensor<1x3x6x6xf32> into tensor<1x1x3x6x6xf32>
  %c = linalg.generic {indexing_maps = [#kx, #kw, #ky], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xe, %w : tensor<1x1x3x6x6xf32>, tensor<1x3x3x1x1xf32>) outs(%be : tensor<1x1x3x6x6xf32>) {
  ^bb0(%a: f32, %bw: f32, %acc: f32):
    %p = arith.mulf %a, %bw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x6x6xf32>
  %cc = tensor.collapse_shape %c [[0], [1, 2], [3], [4]] : tensor<1x1x3x6x6xf32> into tensor<1x3x6x6xf32>
  // R a function argument.
  %sum = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc, %x : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %s = arith.addf %a, %bw : f32
    linalg.yield %s : f32
  } -> tensor<1x3x6x6xf32>
  // R read after the Add (returned).
  %r = linalg.generic {indexing_maps = [#m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x : tensor<1x3x6x6xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  } -> tensor<1x3x6x6xf32>
  %c2 = linalg.generic {indexing_maps = [#kx, #kw, #ky], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]} ins(%xe, %w : tensor<1x1x3x6x6xf32>, tensor<1x3x3x1x1xf32>) outs(%be : tensor<1x1x3x6x6xf32>) {
  ^bb0(%a: f32, %bw: f32, %acc: f32):
    %p = arith.mulf %a, %bw : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x1x3x6x6xf32>
  %cc2 = tensor.collapse_shape %c2 [[0], [1, 2], [3], [4]] : tensor<1x1x3x6x6xf32> into tensor<1x3x6x6xf32>
  %sum2 = linalg.generic {indexing_maps = [#m4, #m4, #m4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%cc2, %r : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>) outs(%e : tensor<1x3x6x6xf32>) {
  ^bb0(%a: f32, %bw: f32, %o: f32):
    %s = arith.addf %a, %bw : f32
    linalg.yield %s : f32
  } -> tensor<1x3x6x6xf32>
  return %sum, %sum2, %r : tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>, tensor<1x3x6x6xf32>
}
