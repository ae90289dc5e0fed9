// RUN: %onnxc-opt --convert-onnx-to-linalg --split-input-file --verify-diagnostics %s

// The string ops: attribute values the runtime does not support
// (docs/strings.md), refused at compile time naming the op.

func.func @normalizer_locale(%x: tensor<3x!onnx.string>) -> tensor<?x!onnx.string> {
  // expected-error @+1 {{'onnx.StringNormalizer' op locale 'de_DE' is not supported (C, POSIX, C.UTF-8 and en_US are: the runtime carries no locale data)}}
  %0 = "onnx.StringNormalizer"(%x) {locale = "de_DE"} : (tensor<3x!onnx.string>) -> tensor<?x!onnx.string>
  return %0 : tensor<?x!onnx.string>
}

// -----

func.func @normalizer_action(%x: tensor<3x!onnx.string>) -> tensor<?x!onnx.string> {
  // expected-error @+1 {{'onnx.StringNormalizer' op case_change_action 'TITLE' is not LOWER, UPPER or NONE}}
  %0 = "onnx.StringNormalizer"(%x) {case_change_action = "TITLE"} : (tensor<3x!onnx.string>) -> tensor<?x!onnx.string>
  return %0 : tensor<?x!onnx.string>
}

// -----

func.func @normalizer_rank(%x: tensor<2x3x!onnx.string>) -> tensor<?x?x!onnx.string> {
  // expected-error @+1 {{'onnx.StringNormalizer' op X must have shape [C] or [1, C], got 'tensor<2x3x!onnx.string>'}}
  %0 = "onnx.StringNormalizer"(%x) : (tensor<2x3x!onnx.string>) -> tensor<?x?x!onnx.string>
  return %0 : tensor<?x?x!onnx.string>
}

// -----

func.func @split_maxsplit(%x: tensor<3x!onnx.string>) -> tensor<3x?x!onnx.string> {
  // expected-error @+1 {{'onnx.StringSplit' op maxsplit must be positive, got -2}}
  %0, %1 = "onnx.StringSplit"(%x) {maxsplit = -2 : i64} : (tensor<3x!onnx.string>) -> (tensor<3x?x!onnx.string>, tensor<3xi64>)
  return %0 : tensor<3x?x!onnx.string>
}

// -----

func.func @regex_word_boundary(%x: tensor<3x!onnx.string>) -> tensor<3xi1> {
  // expected-error @+1 {{'onnx.RegexFullMatch' op pattern 'a\bb': the escape '\b' is not supported (the runtime's regular expressions are libc's POSIX extended ones; docs/strings.md)}}
  %0 = "onnx.RegexFullMatch"(%x) {pattern = "a\\bb"} : (tensor<3x!onnx.string>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @regex_flags(%x: tensor<3x!onnx.string>) -> tensor<3xi1> {
  // expected-error @+1 {{'onnx.RegexFullMatch' op pattern '(?i)abc': a group with flags or a name '(?...' is not supported}}
  %0 = "onnx.RegexFullMatch"(%x) {pattern = "(?i)abc"} : (tensor<3x!onnx.string>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @regex_bad(%x: tensor<3x!onnx.string>) -> tensor<3xi1> {
  // expected-error @+1 {{'onnx.RegexFullMatch' op pattern 'a{2,1}' does not compile:}}
  %0 = "onnx.RegexFullMatch"(%x) {pattern = "a{2,1}"} : (tensor<3x!onnx.string>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @regex_missing(%x: tensor<3x!onnx.string>) -> tensor<3xi1> {
  // expected-error @+1 {{'onnx.RegexFullMatch' op pattern is required}}
  %0 = "onnx.RegexFullMatch"(%x) : (tensor<3x!onnx.string>) -> tensor<3xi1>
  return %0 : tensor<3xi1>
}

// -----

func.func @labelencoder_lengths(%x: tensor<3x!onnx.string>) -> tensor<3x!onnx.string> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op has 2 keys and 3 values: they must be as many}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_strings = ["a", "b"], values_strings = ["x", "y", "z"]} : (tensor<3x!onnx.string>) -> tensor<3x!onnx.string>
  return %0 : tensor<3x!onnx.string>
}

// -----

func.func @labelencoder_twice(%x: tensor<3x!onnx.string>) -> tensor<3xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op key 'a' is listed twice}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_strings = ["a", "b", "a"], values_int64s = array<i64: 1, 2, 3>} : (tensor<3x!onnx.string>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @labelencoder_key_type(%x: tensor<3xi64>) -> tensor<3xi64> {
  // expected-error @+1 {{'onnx.ml.LabelEncoder' op the keys' type must be X's element type}}
  %0 = "onnx.ml.LabelEncoder"(%x) {keys_strings = ["a"], values_int64s = array<i64: 1>} : (tensor<3xi64>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

func.func @unique_strings(%x: tensor<3x!onnx.string>) -> tensor<?x!onnx.string> {
  // expected-error @+1 {{'onnx.Unique' op on strings is not supported yet}}
  %0, %1, %2, %3 = "onnx.Unique"(%x) : (tensor<3x!onnx.string>) -> (tensor<?x!onnx.string>, tensor<?xi64>, tensor<3xi64>, tensor<?xi64>)
  return %0 : tensor<?x!onnx.string>
}
