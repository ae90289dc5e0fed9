// RUN: %onnxc-opt --onnxc-linalg-to-ukernel --canonicalize --split-input-file %s | FileCheck %s

// A padded convolution whose Y is its input's buffer (bufferization reuses
// the dead input), Y's bias broadcast between the padding's copy and the
// convolution, and a Relu that writes Y into a slice of another buffer (a
// Concat's, as in a U-Net block whose skip is computed in place): the bias
// and the Relu fuse, so the call never writes the source, and the padding
// fuses too (flags 527 = W_PACKED | BIAS | CLAMP | PADDED | W_CONST); the copy, the
// fill and the padded buffer go.
// CHECK-LABEL: func.func @pad_source_is_y_clamp_elsewhere
// CHECK-NOT: linalg.copy
// CHECK: memref.store %c527_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: linalg.generic
// CHECK: return
#ix = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#ib = affine_map<(d0, d1, d2, d3) -> (d1)>
#i4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @wy : memref<1x2x2x3x3xf32> = dense<0.25>
func.func @pad_source_is_y_clamp_elsewhere(%b: memref<2xf32>) -> memref<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @wy : memref<1x2x2x3x3xf32>
  %cat = memref.alloc() : memref<1x4x6x6xf32>
  linalg.fill ins(%one : f32) outs(%cat : memref<1x4x6x6xf32>)
  %src = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  linalg.generic {indexing_maps = [#ib, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2xf32>) outs(%src : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : memref<1x2x8x8xf32> into memref<1x1x2x8x8xf32>
  %yv = memref.expand_shape %src [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6] : memref<1x2x6x6xf32> into memref<1x1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x2x8x8xf32>, memref<1x2x2x3x3xf32>) outs(%yv : memref<1x1x2x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %slice = memref.subview %cat[0, 2, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x4x6x6xf32> to memref<1x2x6x6xf32, strided<[144, 36, 6, 1], offset: 72>>
  linalg.generic {indexing_maps = [#i4, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%src : memref<1x2x6x6xf32>) outs(%slice : memref<1x2x6x6xf32, strided<[144, 36, 6, 1], offset: 72>>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    linalg.yield %lo : f32
  }
  memref.dealloc %src : memref<1x2x6x6xf32>
  memref.dealloc %buf : memref<1x2x8x8xf32>
  return %cat : memref<1x4x6x6xf32>
}

// -----

// The same convolution writing Y (its input's buffer) itself, no clamp:
// one group over packed weights, which the runtime copies padded in full
// before it writes (flags 539 = W_PACKED | BIAS | PADDED | IN_PLACE | W_CONST).
// CHECK-LABEL: func.func @pad_source_is_y_in_place
// CHECK-NOT: linalg.copy
// CHECK: memref.store %c539_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: return
#ix = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#ib = affine_map<(d0, d1, d2, d3) -> (d1)>
#i4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @wy : memref<1x2x2x3x3xf32> = dense<0.25>
func.func @pad_source_is_y_in_place(%b: memref<2xf32>) -> memref<1x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @wy : memref<1x2x2x3x3xf32>
  %src = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  linalg.generic {indexing_maps = [#ib, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2xf32>) outs(%src : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : memref<1x2x8x8xf32> into memref<1x1x2x8x8xf32>
  %yv = memref.expand_shape %src [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6] : memref<1x2x6x6xf32> into memref<1x1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x2x8x8xf32>, memref<1x2x2x3x3xf32>) outs(%yv : memref<1x1x2x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<1x2x8x8xf32>
  return %src : memref<1x2x6x6xf32>
}

// -----

// Y (the input's buffer) written between the copy and the convolution by
// something the call does not take over (a fill of 2.0, not a bias or a
// zero): the padded copy stays and the call reads it (no PADDED; flags 513 =
// W_PACKED | W_CONST, accumulating into Y).
// CHECK-LABEL: func.func @pad_source_is_y_other_writer
// CHECK: linalg.copy
// CHECK: memref.store %c513_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
#ix = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
memref.global "private" constant @wy : memref<1x2x2x3x3xf32> = dense<0.25>
func.func @pad_source_is_y_other_writer() -> memref<1x2x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  %w = memref.get_global @wy : memref<1x2x2x3x3xf32>
  %src = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  linalg.fill ins(%two : f32) outs(%src : memref<1x2x6x6xf32>)
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : memref<1x2x8x8xf32> into memref<1x1x2x8x8xf32>
  %yv = memref.expand_shape %src [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6] : memref<1x2x6x6xf32> into memref<1x1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x2x8x8xf32>, memref<1x2x2x3x3xf32>) outs(%yv : memref<1x1x2x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  memref.dealloc %buf : memref<1x2x8x8xf32>
  return %src : memref<1x2x6x6xf32>
}

// -----

// As the first case, with Y's buffer given to a later value (written whole
// without being read, then copied out), as bufferization does in U-Net's
// encoder: Y's value is dead after the Relu, which still fuses (527).
// CHECK-LABEL: func.func @pad_source_is_y_reused_after
// CHECK-NOT: linalg.copy
// CHECK: memref.store %c527_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK-NOT: arith.maximumf
// CHECK: linalg.generic
// CHECK-NEXT: ^bb0
// CHECK-NEXT: linalg.yield
// CHECK: linalg.copy
// CHECK: return
#ix = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#ib = affine_map<(d0, d1, d2, d3) -> (d1)>
#i4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @wy : memref<1x2x2x3x3xf32> = dense<0.25>
func.func @pad_source_is_y_reused_after(%b: memref<2xf32>) -> memref<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @wy : memref<1x2x2x3x3xf32>
  %cat = memref.alloc() : memref<1x4x6x6xf32>
  linalg.fill ins(%one : f32) outs(%cat : memref<1x4x6x6xf32>)
  %src = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  linalg.generic {indexing_maps = [#ib, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2xf32>) outs(%src : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : memref<1x2x8x8xf32> into memref<1x1x2x8x8xf32>
  %yv = memref.expand_shape %src [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6] : memref<1x2x6x6xf32> into memref<1x1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x2x8x8xf32>, memref<1x2x2x3x3xf32>) outs(%yv : memref<1x1x2x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %slice = memref.subview %cat[0, 2, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x4x6x6xf32> to memref<1x2x6x6xf32, strided<[144, 36, 6, 1], offset: 72>>
  linalg.generic {indexing_maps = [#i4, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%src : memref<1x2x6x6xf32>) outs(%slice : memref<1x2x6x6xf32, strided<[144, 36, 6, 1], offset: 72>>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    linalg.yield %lo : f32
  }
  // A later value in Y's buffer, written whole without being read.
  linalg.generic {indexing_maps = [#i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      outs(%src : memref<1x2x6x6xf32>) {
  ^bb0(%out: f32):
    linalg.yield %one : f32
  }
  %t = memref.subview %cat[0, 0, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x4x6x6xf32> to memref<1x2x6x6xf32, strided<[144, 36, 6, 1]>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%t : memref<1x2x6x6xf32, strided<[144, 36, 6, 1]>>)
  memref.dealloc %src : memref<1x2x6x6xf32>
  memref.dealloc %buf : memref<1x2x8x8xf32>
  return %cat : memref<1x4x6x6xf32>
}


// -----

// Y's value read after the Relu: the Relu stays a loop of its own, and the
// convolution writes Y over its input (539 = W_PACKED | BIAS | PADDED |
// IN_PLACE | W_CONST).
// CHECK-LABEL: func.func @pad_source_is_y_read_after
// CHECK: memref.store %c539_i64, %{{.+}}[%c27]
// CHECK: call @onnxc_rt_sconv2d(
// CHECK: arith.maximumf
// CHECK: return
#ix = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, c, oh + kh, ow + kw)>
#iw = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (g, m, c, kh, kw)>
#iy = affine_map<(n, g, m, oh, ow, c, kh, kw) -> (n, g, m, oh, ow)>
#ib = affine_map<(d0, d1, d2, d3) -> (d1)>
#i4 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
memref.global "private" constant @wy : memref<1x2x2x3x3xf32> = dense<0.25>
func.func @pad_source_is_y_read_after(%b: memref<2xf32>) -> memref<1x4x6x6xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %w = memref.get_global @wy : memref<1x2x2x3x3xf32>
  %cat = memref.alloc() : memref<1x4x6x6xf32>
  linalg.fill ins(%one : f32) outs(%cat : memref<1x4x6x6xf32>)
  %src = memref.alloc() : memref<1x2x6x6xf32>
  linalg.fill ins(%one : f32) outs(%src : memref<1x2x6x6xf32>)
  %buf = memref.alloc() : memref<1x2x8x8xf32>
  linalg.fill ins(%zero : f32) outs(%buf : memref<1x2x8x8xf32>)
  %to = memref.subview %buf[0, 0, 1, 1] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x2x8x8xf32> to memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%to : memref<1x2x6x6xf32, strided<[128, 64, 8, 1], offset: 9>>)
  linalg.generic {indexing_maps = [#ib, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%b : memref<2xf32>) outs(%src : memref<1x2x6x6xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  }
  %x = memref.expand_shape %buf [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 8, 8] : memref<1x2x8x8xf32> into memref<1x1x2x8x8xf32>
  %yv = memref.expand_shape %src [[0], [1, 2], [3], [4]] output_shape [1, 1, 2, 6, 6] : memref<1x2x6x6xf32> into memref<1x1x2x6x6xf32>
  linalg.generic {indexing_maps = [#ix, #iw, #iy], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]}
      ins(%x, %w : memref<1x1x2x8x8xf32>, memref<1x2x2x3x3xf32>) outs(%yv : memref<1x1x2x6x6xf32>) {
  ^bb0(%a: f32, %bb: f32, %acc: f32):
    %p = arith.mulf %a, %bb : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %slice = memref.subview %cat[0, 2, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x4x6x6xf32> to memref<1x2x6x6xf32, strided<[144, 36, 6, 1], offset: 72>>
  linalg.generic {indexing_maps = [#i4, #i4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%src : memref<1x2x6x6xf32>) outs(%slice : memref<1x2x6x6xf32, strided<[144, 36, 6, 1], offset: 72>>) {
  ^bb0(%in: f32, %out: f32):
    %lo = arith.maximumf %in, %zero : f32
    linalg.yield %lo : f32
  }
  // Y's value read after the Relu.
  %t = memref.subview %cat[0, 0, 0, 0] [1, 2, 6, 6] [1, 1, 1, 1] : memref<1x4x6x6xf32> to memref<1x2x6x6xf32, strided<[144, 36, 6, 1]>>
  linalg.copy ins(%src : memref<1x2x6x6xf32>) outs(%t : memref<1x2x6x6xf32, strided<[144, 36, 6, 1]>>)
  memref.dealloc %src : memref<1x2x6x6xf32>
  memref.dealloc %buf : memref<1x2x8x8xf32>
  return %cat : memref<1x4x6x6xf32>
}

