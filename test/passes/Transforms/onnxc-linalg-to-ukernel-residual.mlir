// RUN: %onnxc-opt --allow-unregistered-dialect --onnxc-linalg-to-ukernel --canonicalize --split-input-file %s | FileCheck %s
// RUN: %onnxc-opt --allow-unregistered-dialect --onnxc-linalg-to-ukernel=fuse-residuals=false --canonicalize --split-input-file %s | FileCheck %s --check-prefix=OFF

// A residual Add + Relu that reads the convolution's output Y next and
// writes its other operand R in place (onnxc-fuse-elementwise's
// residuals-in-place): the call starts from R plus the bias
// (ONNXC_CONV_BIAS_ADD = 1024) with the Relu as its clamp
// (ONNXC_CONV_CLAMP = 4): flags 1028 in slot 27, lo 0 and hi +inf
// (0x7F800000 << 32 = 9187343239835811840) in slot 29; the call writes R,
// the Add goes, and so does Y's buffer.
// CHECK-LABEL: func.func @residual_relu
// CHECK-SAME: (%[[X:.+]]: memref<1x1x3x6x6xf32>, %[[W:.+]]: memref<1x4x3x3x3xf32>, %[[B:.+]]: memref<4xf32>, %[[R:.+]]: memref<1x4x4x4xf32>
// CHECK-NOT: memref.alloc()
// CHECK-NOT: linalg.generic
// CHECK-DAG: memref.store %c1028_i64, %[[P:.+]][%c27]
// CHECK-DAG: memref.store %c9187343239835811840_i64, %[[P]][%c29]
// CHECK-DAG: memref.extract_aligned_pointer_as_index %[[R]]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
// OFF-LABEL: func.func @residual_relu
// OFF: memref.store %c2_i64, %{{.+}}[%c27]
// OFF: call @onnxc_rt_sconv2d(
// OFF: linalg.generic
// OFF: arith.addf
#ex = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#ew = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#ey = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @residual_relu(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>,
                         %r: memref<1x4x4x4xf32>) -> memref<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
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
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %r : memref<1x4x4x4xf32>, memref<1x4x4x4xf32>) outs(%r : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in2, %in : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }
  memref.dealloc %y : memref<1x4x4x4xf32>
  return %r : memref<1x4x4x4xf32>
}

// -----

// Without a Relu after the Add (a MobileNet block's projection), and Y's
// buffer written whole by a later Relu (bufferization gave a later value
// Y's buffer): flags 1024, no clamp bounds; the later Relu stays.
// CHECK-LABEL: func.func @residual_no_relu
// CHECK-DAG: memref.store %c1024_i64, %[[P:.+]][%c27]
// CHECK-DAG: memref.store %c0_i64, %[[P]][%c29]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: linalg.generic
// CHECK: arith.maximumf
// CHECK-NOT: arith.addf
#ex = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#ew = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#ey = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @residual_no_relu(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>,
                            %r: memref<1x4x4x4xf32>, %q: memref<1x4x4x4xf32>) -> memref<1x4x4x4xf32> {
  %zero = arith.constant 0.0 : f32
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
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y, %r : memref<1x4x4x4xf32>, memref<1x4x4x4xf32>) outs(%r : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%q : memref<1x4x4x4xf32>) outs(%y : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %zero : f32
    linalg.yield %m : f32
  }
  "test.use"(%y) : (memref<1x4x4x4xf32>) -> ()
  memref.dealloc %y : memref<1x4x4x4xf32>
  return %r : memref<1x4x4x4xf32>
}

// -----

// Not fused: R is read between the convolution and the Add (the call
// would overwrite it first); Y read after the Add; the Add's output not
// R (not in place); R the convolution's input.
// CHECK-LABEL: func.func @residual_not
// CHECK-COUNT-4: memref.store %c2_i64, %{{.+}}[%c27]
// CHECK-NOT: %c1024_i64
// CHECK-NOT: %c1028_i64
#ex = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#ew = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#ey = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#bias = affine_map<(d0, d1, d2, d3) -> (d1)>
#id4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#ex1 = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
func.func @residual_not(%x: memref<1x1x3x6x6xf32>, %w: memref<1x4x3x3x3xf32>, %b: memref<4xf32>,
                        %r: memref<1x4x4x4xf32>, %o: memref<1x4x4x4xf32>,
                        %w4: memref<1x4x4x1x1xf32>) {
  %y1 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y1 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %y1v = memref.expand_shape %y1 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#ex, #ew, #ey], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%y1v : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  "test.read"(%r) : (memref<1x4x4x4xf32>) -> ()
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y1, %r : memref<1x4x4x4xf32>, memref<1x4x4x4xf32>) outs(%r : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  memref.dealloc %y1 : memref<1x4x4x4xf32>
  %y2 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y2 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %y2v = memref.expand_shape %y2 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#ex, #ew, #ey], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%y2v : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y2, %r : memref<1x4x4x4xf32>, memref<1x4x4x4xf32>) outs(%r : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  "test.read"(%y2) : (memref<1x4x4x4xf32>) -> ()
  memref.dealloc %y2 : memref<1x4x4x4xf32>
  %y3 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y3 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %y3v = memref.expand_shape %y3 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#ex, #ew, #ey], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x3x6x6xf32>, memref<1x4x3x3x3xf32>) outs(%y3v : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y3, %r : memref<1x4x4x4xf32>, memref<1x4x4x4xf32>) outs(%o : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  memref.dealloc %y3 : memref<1x4x4x4xf32>
  // R is the input of a 1 x 1 convolution 4 -> 4 over it.
  %rx = memref.expand_shape %r [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  %y4 = memref.alloc() : memref<1x4x4x4xf32>
  linalg.generic {indexing_maps = [#bias, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<4xf32>) outs(%y4 : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %y4v = memref.expand_shape %y4 [[0], [1, 2], [3], [4]] output_shape [1, 1, 4, 4, 4] : memref<1x4x4x4xf32> into memref<1x1x4x4x4xf32>
  linalg.generic {indexing_maps = [#ex1, #ew, #ey], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%rx, %w4 : memref<1x1x4x4x4xf32>, memref<1x4x4x1x1xf32>) outs(%y4v : memref<1x1x4x4x4xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [#id4, #id4, #id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%y4, %r : memref<1x4x4x4xf32>, memref<1x4x4x4xf32>) outs(%r : memref<1x4x4x4xf32>) {
  ^bb0(%in: f32, %in2: f32, %out: f32):
    %s = arith.addf %in, %in2 : f32
    linalg.yield %s : f32
  }
  memref.dealloc %y4 : memref<1x4x4x4xf32>
  return
}
