// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// TfIdfVectorizer: the dialect verifier checks neither the attribute
// values nor how the pool, ngram_counts, ngram_indexes and weights fit
// together; the lowering builds the n-gram trie at compile time and
// rejects what ONNX Runtime rejects when it builds its own.

func.func @mode(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op mode must be TF, IDF or TFIDF, not 'BM25'}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "BM25", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @gram_lengths(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op min_gram_length must be positive and at most max_gram_length}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @skip_count(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op max_skip_count must not be negative}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = -1 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// String n-grams are not lowered yet.
func.func @pool_strings(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op string n-grams (pool_strings, a string X) are not supported yet}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_strings = ["a", "b"]} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// A string input: also refused.
func.func @string_input(%x: tensor<6x!onnx.string>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op string n-grams (pool_strings, a string X) are not supported yet}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_strings = ["a", "b"]} : (tensor<6x!onnx.string>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @no_pool(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op pool_int64s is required}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @no_indexes(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op ngram_indexes must not be empty}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64>, pool_int64s = array<i64: 1, 2>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @negative_index(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op ngram_indexes must not be negative}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 1, -1>, pool_int64s = array<i64: 1, 2>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @weights_size(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op weights must have one entry per ngram_indexes entry (2)}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TFIDF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>, weights = array<f32: 1.0>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @x_rank(%x: tensor<1x2x3xi64>) -> tensor<1x2x2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op X must be 1-D or 2-D}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<1x2x3xi64>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

func.func @y_rank(%x: tensor<2x3xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op Y must have the rank of X}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<2x3xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @y_columns(%x: tensor<6xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op Y must have 2 columns (the largest ngram_indexes + 1)}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<6xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @counts_out_of_pool(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op ngram_counts must be non-decreasing offsets into pool_int64s}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0, 3>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @partial_gram(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op the 2-grams of the pool do not fill whole 2-grams}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0, 1>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2, 3, 4>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @duplicate_gram(%x: tensor<6xi64>) -> tensor<3xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op duplicate 2-gram in the pool}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 2 : i64, max_skip_count = 0 : i64, min_gram_length = 2 : i64, mode = "TF", ngram_counts = array<i64: 0, 0>, ngram_indexes = array<i64: 0, 1, 2>, pool_int64s = array<i64: 1, 2, 3, 4, 1, 2>} : (tensor<6xi64>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @missing_index(%x: tensor<6xi64>) -> tensor<2xf32> {
  // expected-error @+1 {{'onnx.TfIdfVectorizer' op ngram_indexes has no entry for n-gram 2}}
  %0 = "onnx.TfIdfVectorizer"(%x) {max_gram_length = 1 : i64, max_skip_count = 0 : i64, min_gram_length = 1 : i64, mode = "TF", ngram_counts = array<i64: 0>, ngram_indexes = array<i64: 0, 1>, pool_int64s = array<i64: 1, 2, 3>} : (tensor<6xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
