// RUN: %onnxc-opt --onnxc-linalg-to-ukernel=fuse-activations=true --canonicalize --split-input-file %s | FileCheck %s
// Off by default (measured no faster, docs/performance.md): the activation
// stays a loop after the call.
// RUN: %onnxc-opt --onnxc-linalg-to-ukernel --canonicalize --split-input-file %s | FileCheck %s --check-prefix=DEFAULT

// Activations folded into a convolution's call (ONNXC_CONV_ACT: kind << 5
// in the flags of slot 27, alpha and beta as float bits in slot 34), as
// the clamp is: the elementwise generic that reads Y next, and nothing
// after it. Here x * Sigmoid(x) as onnxc-fuse-elementwise fuses Sigmoid +
// Mul: ONNXC_CONV_BIAS | ONNXC_ACT_SWISH << 5 = 2 | 64 = 66, alpha 1.0
// (0x3F800000 = 1065353216), no clamp bounds (slot 29 = 0); the kernel
// writes the generic's output, Y's buffer goes.
// CHECK-LABEL: func.func @conv_swish
// CHECK-SAME: (%[[X:.+]]: memref<1x1x3x6x6xf32>, %[[W:.+]]: memref<1x4x3x3x3xf32>, %[[B:.+]]: memref<4xf32>, %[[Z:.+]]: memref<1x4x4x4xf32>
// CHECK: %[[P:.+]] = memref.alloca() : memref<35xi64>
// CHECK-NOT: memref.alloc()
// CHECK-NOT: linalg.generic
// CHECK-DAG: memref.store %c66_i64, %[[P]][%c27]
// CHECK-DAG: memref.store %c0_i64, %[[P]][%c29]
// CHECK-DAG: memref.store %c1065353216_i64, %[[P]][%c34]
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[Z]]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
// CHECK-NOT: memref.alloc()
// DEFAULT-LABEL: func.func @conv_swish
// DEFAULT: memref.store %c2_i64, %{{.+}}[%c27]
// DEFAULT: call @onnxc_rt_sconv2d(
// DEFAULT: linalg.generic
#ex = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#ew = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#ey = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_swish(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>,
                      %z: memref<1x4x4x4xf32>) -> memref<1x4x4x4xf32> {
  %one = arith.constant 1.0 : f32
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
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    %m = arith.mulf %in, %r : f32
    linalg.yield %m : f32
  }
  memref.dealloc %y : memref<1x4x4x4xf32>
  return %z : memref<1x4x4x4xf32>
}

// -----

// The other forms, each into its own output: Sigmoid (kind 1: flags 34,
// no parameters); Swish with alpha 0.8 as canonicalization leaves
// x / (1 + exp(x * -0.8)) (kind 2: flags 66, alpha 0.8 = 1061997773);
// HardSigmoid with alpha 0.3 and beta 0.4, constants on the left (kind 3:
// flags 98, 0.3 and 0.4 = 4525216907491121562); HardSwish as
// convert-onnx-to-linalg lowers it, x * max(min(x * (1/6) + 0.5, 1), 0)
// (kind 4: flags 130, 1/6 and 0.5 = 4539628425432443563).
// CHECK-LABEL: func.func @conv_act_forms
// CHECK-DAG: memref.store %c34_i64, %[[P1:.+]][%c27]
// CHECK-DAG: memref.store %c0_i64, %[[P1]][%c34]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-DAG: memref.store %c66_i64, %[[P2:.+]][%c27]
// CHECK-DAG: memref.store %c1061997773_i64, %[[P2]][%c34]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-DAG: memref.store %c98_i64, %[[P3:.+]][%c27]
// CHECK-DAG: memref.store %c4525216907491121562_i64, %[[P3]][%c34]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-DAG: memref.store %c130_i64, %[[P4:.+]][%c27]
// CHECK-DAG: memref.store %c4539628425432443563_i64, %[[P4]][%c34]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
#fx = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#fw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#fy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#fbias = affine_map<(d0, d1, d2, d3) -> (d1)>
#fid4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_act_forms(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>,
                          %z1: memref<1x4x4x4xf32>, %z2: memref<1x4x4x4xf32>,
                          %z3: memref<1x4x4x4xf32>, %z4: memref<1x4x4x4xf32>) {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %m08 = arith.constant -0.8 : f32
  %a03 = arith.constant 0.3 : f32
  %b04 = arith.constant 0.4 : f32
  %sixth = arith.constant 0.166666672 : f32
  %half = arith.constant 0.5 : f32
  // Sigmoid.
  %y1 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fbias, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y1 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %yv1 = memref.expand_shape %y1 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fx, #fw, #fy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv1 : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#fid4, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1 : memref<1x4x4x4xf32>) outs(%z1 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y1 : memref<1x4x4x4xf32>
  // Swish, alpha 0.8.
  %y2 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fbias, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y2 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %yv2 = memref.expand_shape %y2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fx, #fw, #fy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv2 : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#fid4, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y2 : memref<1x4x4x4xf32>) outs(%z2 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.mulf %in, %m08 : f32
    %e = math.exp %t : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %in, %d : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y2 : memref<1x4x4x4xf32>
  // HardSigmoid, alpha 0.3, beta 0.4.
  %y3 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fbias, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y3 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %yv3 = memref.expand_shape %y3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fx, #fw, #fy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv3 : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#fid4, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y3 : memref<1x4x4x4xf32>) outs(%z3 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.mulf %a03, %in : f32
    %u = arith.addf %b04, %t : f32
    %v = arith.minimumf %one, %u : f32
    %r = arith.maximumf %zero, %v : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y3 : memref<1x4x4x4xf32>
  // HardSwish.
  %y4 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fbias, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y4 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %yv4 = memref.expand_shape %y4 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#fx, #fw, #fy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv4 : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#fid4, #fid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y4 : memref<1x4x4x4xf32>) outs(%z4 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.mulf %in, %sixth : f32
    %u = arith.addf %t, %half : f32
    %v = arith.minimumf %u, %one : f32
    %h = arith.maximumf %v, %zero : f32
    %r = arith.mulf %in, %h : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y4 : memref<1x4x4x4xf32>
  return
}

// -----

// No fold: Y has a second reader after the Sigmoid (a loop that loads it
// in its body, as a broadcasting Mul with dynamic dims does), so the
// kernel must write Y itself (flags 2: the bias only) and both loops stay;
// and Sigmoid(2x), which no activation kind computes, stays a loop too.
// CHECK-LABEL: func.func @conv_act_no_fold
// CHECK: memref.alloc()
// CHECK: memref.store %c2_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: linalg.generic
// CHECK: math.exp
// CHECK: linalg.generic
// CHECK: memref.load
// CHECK: memref.store %c2_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: linalg.generic
// CHECK: math.exp
#nx = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#nw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#ny = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#nbias = affine_map<(d0, d1, d2, d3) -> (d1)>
#nid4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @conv_act_no_fold(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>,
                            %z1: memref<1x4x4x4xf32>, %z2: memref<1x4x4x4xf32>,
                            %z3: memref<1x4x4x4xf32>) {
  %one = arith.constant 1.0 : f32
  %mtwo = arith.constant -2.0 : f32
  %y1 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#nbias, #nid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y1 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %yv1 = memref.expand_shape %y1 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#nx, #nw, #ny], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv1 : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#nid4, #nid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1 : memref<1x4x4x4xf32>) outs(%z1 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    %e = math.exp %n : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  }
  linalg.generic {indexing_maps = [#nid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%z2 : memref<1x4x4x4xf32>) {
  ^bb0(%out: f32):
    %i0 = linalg.index 0 : index
    %i1 = linalg.index 1 : index
    %i2 = linalg.index 2 : index
    %i3 = linalg.index 3 : index
    %v = memref.load %y1[%i0, %i1, %i2, %i3] : memref<1x4x4x4xf32>
    %m = arith.mulf %v, %out : f32
    linalg.yield %m : f32
  }
  memref.dealloc %y1 : memref<1x4x4x4xf32>
  %y2 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#nbias, #nid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y2 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %yv2 = memref.expand_shape %y2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#nx, #nw, #ny], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%yv2 : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#nid4, #nid4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y2 : memref<1x4x4x4xf32>) outs(%z3 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %t = arith.mulf %in, %mtwo : f32
    %e = math.exp %t : f32
    %d = arith.addf %e, %one : f32
    %r = arith.divf %one, %d : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y2 : memref<1x4x4x4xf32>
  return
}
