// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// The ai.onnx.ml map ops: attributes the dialect verifier does not check.
// (Maps reach no other op: the dialect's types of the sequence, optional
// and control-flow ops hold tensors only.)

func.func @zipmap_both_labels(%x: tensor<2x3xf32>) -> !onnx.seq<!onnx.map<i64, tensor<*xf32>>> {
  // expected-error @+1 {{'onnx.ml.ZipMap' op exactly one of classlabels_int64s and classlabels_strings must be given}}
  %0 = "onnx.ml.ZipMap"(%x) {classlabels_int64s = array<i64: 1, 2, 3>, classlabels_strings = ["a", "b", "c"]} : (tensor<2x3xf32>) -> !onnx.seq<!onnx.map<i64, tensor<*xf32>>>
  return %0 : !onnx.seq<!onnx.map<i64, tensor<*xf32>>>
}

// -----

func.func @zipmap_columns(%x: tensor<2x4xf32>) -> !onnx.seq<!onnx.map<i64, tensor<*xf32>>> {
  // expected-error @+1 {{'onnx.ml.ZipMap' op X has 4 columns for 3 class labels}}
  %0 = "onnx.ml.ZipMap"(%x) {classlabels_int64s = array<i64: 1, 2, 3>} : (tensor<2x4xf32>) -> !onnx.seq<!onnx.map<i64, tensor<*xf32>>>
  return %0 : !onnx.seq<!onnx.map<i64, tensor<*xf32>>>
}

// -----

func.func @dictvectorizer_twice(%m: !onnx.map<i64, tensor<*xf32>>) -> tensor<1x3xf32> {
  // expected-error @+1 {{'onnx.ml.DictVectorizer' op vocabulary entry 7 is listed twice}}
  %0 = "onnx.ml.DictVectorizer"(%m) {int64_vocabulary = array<i64: 7, 1, 7>} : (!onnx.map<i64, tensor<*xf32>>) -> tensor<1x3xf32>
  return %0 : tensor<1x3xf32>
}

// -----

func.func @dictvectorizer_key_kind(%m: !onnx.map<!onnx.string, tensor<*xf32>>) -> tensor<1x2xf32> {
  // expected-error @+1 {{'onnx.ml.DictVectorizer' op string keys need string_vocabulary}}
  %0 = "onnx.ml.DictVectorizer"(%m) {int64_vocabulary = array<i64: 7, 1>} : (!onnx.map<!onnx.string, tensor<*xf32>>) -> tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// -----

func.func @castmap_cast_to(%m: !onnx.map<i64, tensor<*xf32>>) -> tensor<1x?xf32> {
  // expected-error @+1 {{'onnx.ml.CastMap' op unknown cast_to 'TO_DOUBLE' (TO_FLOAT, TO_INT64, TO_STRING)}}
  %0 = "onnx.ml.CastMap"(%m) {cast_to = "TO_DOUBLE"} : (!onnx.map<i64, tensor<*xf32>>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

// -----

func.func @castmap_form(%m: !onnx.map<i64, tensor<*xf32>>) -> tensor<1x?xf32> {
  // expected-error @+1 {{'onnx.ml.CastMap' op unknown map_form 'PACKED' (DENSE, SPARSE)}}
  %0 = "onnx.ml.CastMap"(%m) {map_form = "PACKED"} : (!onnx.map<i64, tensor<*xf32>>) -> tensor<1x?xf32>
  return %0 : tensor<1x?xf32>
}

// -----

func.func @castmap_max_map(%m: !onnx.map<i64, tensor<*xf32>>) -> tensor<1x0xf32> {
  // expected-error @+1 {{'onnx.ml.CastMap' op max_map must be positive with map_form SPARSE, got 0}}
  %0 = "onnx.ml.CastMap"(%m) {map_form = "SPARSE", max_map = 0 : i64} : (!onnx.map<i64, tensor<*xf32>>) -> tensor<1x0xf32>
  return %0 : tensor<1x0xf32>
}
