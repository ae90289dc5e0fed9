//===- Strings.cpp - String tensors and the string ops -> linalg ----------===//
//
// The ops of onnx/defs/text (StringConcat, StringNormalizer, StringSplit,
// RegexFullMatch) and the helpers of Strings.h. String tensors are tensors
// of i64 addresses. The ops that read or make strings call the runtime
// (runtime/src/strings.c): per element inside a linalg.generic (StringConcat
// here; Cast in TensorElementwise.cpp, Equal in Logical.cpp, the lookups of
// LabelEncoder and CategoryMapper in MLPreprocess.cpp), or once over a whole
// buffer (StringNormalizer, StringSplit, RegexFullMatch), whose
// data-dependent output sizes the runtime returns. Strings the runtime makes
// belong to the call (onnxc_rt_alloc).
//
// RegexFullMatch: the pattern (an attribute) is translated at compile time
// from the RE2 syntax the spec names to POSIX extended regular expressions
// (libc's regcomp), and refused where it uses what that cannot express
// (docs/strings.md lists the supported syntax).
//
//===----------------------------------------------------------------------===//

#include "passes/Conversion/ONNXToLinalg/Strings.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/Conversion/ONNXToLinalg/Builders.h"
#include "passes/Conversion/ONNXToLinalg/Common.h"
#include "passes/Conversion/ONNXToLinalg/Elementwise.h"
#include "passes/Conversion/ONNXToLinalg/MLCommon.h"
#include "passes/Conversion/ONNXToLinalg/NarrowTypes.h"

#include "dialects/ONNX/IR/ONNXOps.h"
#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

#include <regex.h>

using namespace mlir;
using namespace mlir::onnxc;
using namespace mlir::onnxc::linalg_conv;

//===-- Helpers ------------------------------------------------------------===//

bool linalg_conv::isStringType(Type t) {
  if (auto shaped = dyn_cast<ShapedType>(t))
    t = shaped.getElementType();
  return isa<ONNX::StringType>(t);
}

static ModuleOp moduleOf(OpBuilder &b, Operation *anchor) {
  if (anchor)
    return isa<ModuleOp>(anchor) ? cast<ModuleOp>(anchor)
                                 : anchor->getParentOfType<ModuleOp>();
  Operation *scope = b.getInsertionBlock()->getParentOp();
  return isa<ModuleOp>(scope) ? cast<ModuleOp>(scope)
                              : scope->getParentOfType<ModuleOp>();
}

Value linalg_conv::siteString(OpBuilder &b, Location loc, Operation *anchor) {
  std::string label = nodeLabel(loc);
  return createMessageGlobal(b, loc, label.empty() ? "string op" : label,
                             moduleOf(b, anchor));
}

Value linalg_conv::stringAddress(OpBuilder &b, Location loc, Operation *anchor,
                                 StringRef s) {
  Value p = createMessageGlobal(b, loc, s, moduleOf(b, anchor));
  return LLVM::PtrToIntOp::create(b, loc, b.getI64Type(), p);
}

SmallVector<Value> linalg_conv::callRuntime(OpBuilder &b, Location loc,
                                            Operation *anchor, StringRef name,
                                            TypeRange results,
                                            ValueRange args) {
  ModuleOp module = moduleOf(b, anchor);
  if (!module.lookupSymbol(name)) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    func::FuncOp::create(b, loc, name,
                         b.getFunctionType(args.getTypes(), results))
        .setPrivate();
  }
  auto call = func::CallOp::create(b, loc, name, results, args);
  return SmallVector<Value>(call.getResults());
}

Value linalg_conv::tensorAddress(OpBuilder &b, Location loc, Value t) {
  auto tt = cast<RankedTensorType>(t.getType());
  Value m = bufferization::ToBufferOp::create(
      b, loc, MemRefType::get(tt.getShape(), tt.getElementType()), t,
      /*read_only=*/true);
  Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), p);
}

Value linalg_conv::buildStringConstant(OpBuilder &b, Location loc,
                                       Operation *anchor, RankedTensorType type,
                                       ArrayRef<StringRef> strings) {
  // One blob "s0\0s1\0...": each element is the blob's address plus the
  // offset of its string.
  std::string blob;
  SmallVector<int64_t> offsets;
  for (StringRef s : strings) {
    offsets.push_back(blob.size());
    blob += s.str();
    blob.push_back('\0');
  }
  Value base = stringAddress(b, loc, anchor, blob);
  auto i64Type = RankedTensorType::get(type.getShape(), b.getI64Type());
  Value offs = arith::ConstantOp::create(
      b, loc, i64Type, DenseIntElementsAttr::get(i64Type, offsets));
  Value init = tensor::EmptyOp::create(b, loc, type.getShape(), b.getI64Type());
  int64_t rank = type.getRank();
  auto map = b.getMultiDimIdentityMap(rank);
  return linalg::GenericOp::create(
             b, loc, TypeRange{i64Type}, ValueRange{offs}, ValueRange{init},
             SmallVector<AffineMap>{map, map}, parallelIterators(rank),
             [&](OpBuilder &nb, Location l, ValueRange args) {
               linalg::YieldOp::create(
                   nb, l, Value(arith::AddIOp::create(nb, l, base, args[0])));
             })
      .getResult(0);
}

Value linalg_conv::stringEqual(OpBuilder &b, Location loc, Operation *anchor,
                               Value x, Value y) {
  Value r = callRuntime(b, loc, anchor, "onnxc_rt_str_eq", {b.getI32Type()},
                        {x, y})[0];
  return arith::CmpIOp::create(
      b, loc, arith::CmpIPredicate::ne, r,
      arith::ConstantIntOp::create(b, loc, b.getI32Type(), 0));
}

Value linalg_conv::castStringScalar(OpBuilder &b, Location loc,
                                    Operation *anchor, Value v, Type fromOnnx,
                                    Type toOnnx, bool saturate) {
  Type i64 = b.getI64Type(), f64 = b.getF64Type();
  bool fromString = isStringType(fromOnnx), toString = isStringType(toOnnx);
  if (fromString && toString)
    return v;
  Value site = siteString(b, loc, anchor);
  if (toString) {
    // int4/uint4, float8, float4e2m1: their i8 decoded first (float8 and
    // float4 format as the float32 of their value).
    if (isNarrowType(fromOnnx))
      v = decodeNarrow(b, loc, v, fromOnnx);
    if (auto ft = dyn_cast<FloatType>(v.getType())) {
      // The ONNX reference's formatting (numpy's str): the shortest digits
      // that round-trip in the source type, so the runtime is told which
      // (runtime_abi.h, ONNXC_RT_FLOAT_*: f64 0, f32 1, f16 2, bf16 3).
      int32_t kind = ft.isF64() ? 0 : ft.isF32() ? 1 : ft.isF16() ? 2 : 3;
      if (!ft.isF64())
        v = arith::ExtFOp::create(b, loc, f64, v);
      Value k = arith::ConstantIntOp::create(b, loc, b.getI32Type(), kind);
      return callRuntime(b, loc, anchor, "onnxc_rt_str_from_float", {i64},
                         {v, k, site})[0];
    }
    unsigned width = v.getType().getIntOrFloatBitWidth();
    bool isUnsigned = isUnsignedInt(fromOnnx) || width == 1;
    if (width < 64)
      v = isUnsigned ? Value(arith::ExtUIOp::create(b, loc, i64, v))
                     : Value(arith::ExtSIOp::create(b, loc, i64, v));
    return callRuntime(b, loc, anchor,
                       isUnsigned ? "onnxc_rt_str_from_u64"
                                  : "onnxc_rt_str_from_i64",
                       {i64}, {v, site})[0];
  }
  // From a string: floats through strtod (narrowed as ONNX Runtime does:
  // to float first for the half types), integers through strtoll/strtoull
  // (truncated to the width), bool as an unsigned integer != 0.
  // float8 and float4e2m1 (their i8 codes): the double to float, then
  // encoded as Cast from float encodes it (round to nearest even, the
  // `saturate` tables); int4/uint4: the integer's low 4 bits, as Cast from
  // int64 (the spec's "discard higher bits").
  if (isNarrowType(toOnnx)) {
    bool isFloat8 = isa<FloatType>(toOnnx);
    Value r = callRuntime(b, loc, anchor,
                          isFloat8 ? "onnxc_rt_str_to_f64"
                                   : "onnxc_rt_str_to_i64",
                          {isFloat8 ? f64 : i64}, {v, site})[0];
    return encodeNarrow(b, loc, r, r.getType(), toOnnx, saturate);
  }
  if (auto ft = dyn_cast<FloatType>(toOnnx)) {
    Value d = callRuntime(b, loc, anchor, "onnxc_rt_str_to_f64", {f64},
                          {v, site})[0];
    if (ft.isF64())
      return d;
    Value f = arith::TruncFOp::create(b, loc, b.getF32Type(), d);
    if (ft.isF32())
      return f;
    return arith::TruncFOp::create(b, loc, ft, f);
  }
  auto it = cast<IntegerType>(toOnnx);
  bool isUnsigned = it.isUnsigned() || it.getWidth() == 1;
  Value r = callRuntime(b, loc, anchor,
                        isUnsigned ? "onnxc_rt_str_to_u64"
                                   : "onnxc_rt_str_to_i64",
                        {i64}, {v, site})[0];
  if (it.getWidth() == 1)
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, r,
                                 createIntConstant(b, loc, i64, 0));
  if (it.getWidth() < 64)
    return arith::TruncIOp::create(b, loc, b.getIntegerType(it.getWidth()), r);
  return r;
}

SmallVector<StringRef> linalg_conv::getStringLabels(Operation *op) {
  SmallVector<StringRef> r;
  if (auto a = op->getAttrOfType<ArrayAttr>("classlabels_strings"))
    for (Attribute s : a)
      r.push_back(cast<StringAttr>(s).getValue());
  return r;
}

SmallVector<int64_t> linalg_conv::labelIndices(size_t n) {
  SmallVector<int64_t> r(n);
  for (size_t i = 0; i < n; ++i)
    r[i] = i;
  return r;
}

Value linalg_conv::mapStringLabels(OpBuilder &b, Location loc, Operation *op,
                                   Value y, ArrayRef<StringRef> labels) {
  Type i64 = b.getI64Type();
  Value table = buildStringConstant(
      b, loc, op, RankedTensorType::get({(int64_t)labels.size()}, i64), labels);
  return mapElements(b, loc, y, i64,
                     [&](OpBuilder &nb, Location l, Value v, ValueRange) -> Value {
                       Value i = arith::IndexCastOp::create(
                           nb, l, nb.getIndexType(), v);
                       return tensor::ExtractOp::create(nb, l, table, i);
                     });
}

Value linalg_conv::stringLookup(OpBuilder &b, Location loc, Operation *anchor,
                                Value keys, int64_t n, Value key) {
  // lo = the first index whose key is not below `key`; keys are read from
  // the tensor (an operand of the enclosing op, so it stays alive), each
  // comparison a strcmp in the runtime.
  Type i64 = b.getI64Type(), i32 = b.getI32Type();
  auto cmp = [&](OpBuilder &b, Location l, Value at) {
    Value k = tensor::ExtractOp::create(b, l, keys, at);
    return callRuntime(b, l, anchor, "onnxc_rt_str_cmp", {i32}, {k, key})[0];
  };
  Value at = lowerBound(b, loc, n, [&](OpBuilder &b, Location l, Value mid) {
    return cmpI(b, l, arith::CmpIPredicate::slt, cmp(b, l, mid),
                arith::ConstantIntOp::create(b, l, i32, 0));
  });
  Value eq = cmpI(b, loc, arith::CmpIPredicate::eq, cmp(b, loc, at),
                  arith::ConstantIntOp::create(b, loc, i32, 0));
  return select(b, loc, eq, arith::IndexCastOp::create(b, loc, i64, at),
                createIntConstant(b, loc, i64, -1));
}

namespace {

/// A fresh 1-D i64 buffer of `n` elements (at least one) and its address.
std::pair<Value, Value> allocI64(OpBuilder &b, Location loc, Value n,
                                 Type elt = {}) {
  if (!elt)
    elt = b.getI64Type();
  Value size = maxIdx(b, loc, n, idx(b, loc, 1));
  Value m = memref::AllocOp::create(
      b, loc, MemRefType::get({ShapedType::kDynamic}, elt), ValueRange{size},
      b.getI64IntegerAttr(64));
  Value p = memref::ExtractAlignedPointerAsIndexOp::create(b, loc, m);
  return {m, arith::IndexCastOp::create(b, loc, b.getI64Type(), p)};
}

/// Memref `m` (1-D) as a tensor, its first `n` elements.
Value bufferPrefix(OpBuilder &b, Location loc, Value m, Value n) {
  auto mt = cast<MemRefType>(m.getType());
  Value t = bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(mt.getShape(), mt.getElementType()), m,
      /*restrict=*/true, /*writable=*/true);
  return tensor::ExtractSliceOp::create(
      b, loc, t, ArrayRef<OpFoldResult>{b.getIndexAttr(0)},
      ArrayRef<OpFoldResult>{n}, ArrayRef<OpFoldResult>{b.getIndexAttr(1)});
}

/// 1-D `t` reshaped to `dims` (index values).
Value reshapeTo(OpBuilder &b, Location loc, Value t, ArrayRef<Value> dims,
                RankedTensorType type) {
  if (type.getRank() == 1)
    return castTo(b, loc, t, type);
  SmallVector<Value> d64;
  for (Value d : dims)
    d64.push_back(arith::IndexCastOp::create(b, loc, b.getI64Type(), d));
  Value shape = tensor::FromElementsOp::create(
      b, loc, RankedTensorType::get({(int64_t)dims.size()}, b.getI64Type()),
      d64);
  SmallVector<int64_t> dynShape(type.getRank(), ShapedType::kDynamic);
  Value r = tensor::ReshapeOp::create(
      b, loc, RankedTensorType::get(dynShape, type.getElementType()), t, shape);
  return castTo(b, loc, r, type);
}

/// StringConcat: Z = X + Y elementwise, broadcast.
Value concatScalar(ScalarContext &c) {
  Value site = siteString(c.b, c.loc, c.op);
  return callRuntime(c.b, c.loc, c.op, "onnxc_rt_str_concat",
                     {c.b.getI64Type()}, {c.args[0], c.args[1], site})[0];
}

/// StringNormalizer: X of shape [C] or [1, C]; the kept strings, case
/// changed, [C'] or [1, C'] ([""] when none is kept).
struct StringNormalizerLowering
    : OpConversionPattern<ONNX::StringNormalizerOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::StringNormalizerOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    StringRef action = op.getCaseChangeAction();
    int32_t act = action == "NONE" ? 0 : action == "LOWER" ? 1
                                     : action == "UPPER"   ? 2
                                                           : -1;
    if (act < 0)
      return op.emitOpError("case_change_action '")
             << action << "' is not LOWER, UPPER or NONE";
    // The locale decides the case mappings: "C" and "POSIX" map ASCII
    // letters only; the UTF-8 locales (en_US, the default, and C.UTF-8)
    // also Latin-1, Latin Extended-A, Greek and Cyrillic letters. Others
    // are refused: the library carries no locale data.
    StringRef l = op.getLocale() ? *op.getLocale() : StringRef("en_US");
    bool unicode;
    if (l == "C" || l == "POSIX")
      unicode = false;
    else if (l.empty() || l == "C.UTF-8" || l == "C.utf8" || l == "en_US" ||
             l == "en_US.UTF-8" || l == "en_US.utf8")
      unicode = true;
    else
      return op.emitOpError("locale '")
             << l
             << "' is not supported (C, POSIX, C.UTF-8 and en_US are: the "
                "runtime carries no locale data)";
    Value x = adaptor.getX();
    auto xt = cast<RankedTensorType>(x.getType());
    if (xt.getRank() != 1 &&
        !(xt.getRank() == 2 && (xt.isDynamicDim(0) || xt.getDimSize(0) == 1)))
      return op.emitOpError("X must have shape [C] or [1, C], got ")
             << op.getX().getType();
    // A symbolic first dim of a 2-D X must be 1 at run time.
    if (xt.getRank() == 2 && xt.isDynamicDim(0)) {
      Value d0 = getDimValue(rewriter, loc, x, 0);
      emitRuntimeCheck(
          rewriter, loc,
          arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq, d0,
                                idx(rewriter, loc, 1)),
          "X must have shape [C] or [1, C], got a first dim of {}", {d0});
    }
    SmallVector<StringRef> stops;
    if (auto sw = op.getStopwords())
      for (Attribute a : *sw)
        stops.push_back(cast<StringAttr>(a).getValue());
    Type i64 = rewriter.getI64Type(), i32 = rewriter.getI32Type();
    Value flat = flatten(rewriter, loc, x);
    Value n = getDimValue(rewriter, loc, flat, 0);
    // The stopwords: one constant blob of NUL-terminated strings.
    std::string blob;
    for (StringRef w : stops)
      blob += w.str() + std::string(1, '\0');
    Value stopBlob = createMessageGlobal(rewriter, loc, blob, moduleOf(rewriter, op));
    auto [out, outAddr] = allocI64(rewriter, loc, n);
    Value inAddr = tensorAddress(rewriter, loc, flat);
    Value count =
        callRuntime(rewriter, loc, op, "onnxc_rt_str_normalize", {i64},
                    {inAddr, arith::IndexCastOp::create(rewriter, loc, i64, n),
                     outAddr, createIntConstant(rewriter, loc, i32, act),
                     createIntConstant(rewriter, loc, i32,
                                       op.getIsCaseSensitive() != 0),
                     createIntConstant(rewriter, loc, i32, unicode), stopBlob, createIntConstant(rewriter, loc, i64, stops.size()),
                     siteString(rewriter, loc, op)})[0];
    Value cnt = arith::IndexCastOp::create(rewriter, loc,
                                           rewriter.getIndexType(), count);
    Value y = bufferPrefix(rewriter, loc, out, cnt);
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    if (xt.getRank() == 2)
      y = reshapeTo(rewriter, loc, y, {idx(rewriter, loc, 1), cnt}, yt);
    rewriter.replaceOp(op, castTo(rewriter, loc, y, yt));
    return success();
  }
};

/// StringSplit: Y[..., k] the k-th piece of X[...] ("" past its count),
/// Z[...] the piece counts; Y's last dim is the largest count.
struct StringSplitLowering : OpConversionPattern<ONNX::StringSplitOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::StringSplitOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Type i64 = rewriter.getI64Type();
    int64_t maxsplit = op.getMaxsplit() ? (int64_t)*op.getMaxsplit() : -1;
    if (op.getMaxsplit() && maxsplit < 0)
      return op.emitOpError("maxsplit must be positive, got ") << maxsplit;
    Value x = adaptor.getX();
    SmallVector<Value> dims = dimValues(rewriter, loc, x);
    Value flat = flatten(rewriter, loc, x);
    Value n = getDimValue(rewriter, loc, flat, 0);
    Value delim = op.getDelimiter() && !op.getDelimiter()->empty()
                      ? stringAddress(rewriter, loc, op, *op.getDelimiter())
                      : createIntConstant(rewriter, loc, i64, 0);
    Value maxs = createIntConstant(rewriter, loc, i64, maxsplit);
    Value site = siteString(rewriter, loc, op);
    // Counts, then the widest row, then the pieces.
    auto zt = convertedTensorType(getTypeConverter(), op.getZ());
    Value counts = mapElements(
        rewriter, loc, flat, i64,
        [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
          return callRuntime(b, l, op, "onnxc_rt_str_split", {i64},
                             {v, delim, maxs, createIntConstant(b, l, i64, 0),
                              createIntConstant(b, l, i64, 0), site})[0];
        });
    Value width = forRange(
        rewriter, loc, idx(rewriter, loc, 0), n, idx(rewriter, loc, 1),
        ValueRange{createIntConstant(rewriter, loc, i64, 0)},
        [&](OpBuilder &b, Location l, Value i, ValueRange acc)
            -> SmallVector<Value> {
          Value c = tensor::ExtractOp::create(b, l, counts, i);
          return {arith::MaxSIOp::create(b, l, acc[0], c)};
        })[0];
    Value w = arith::IndexCastOp::create(rewriter, loc,
                                         rewriter.getIndexType(), width);
    Value total = mulIdx(rewriter, loc, n, w);
    auto [out, outAddr] = allocI64(rewriter, loc, total);
    forRange(rewriter, loc, idx(rewriter, loc, 0), n, idx(rewriter, loc, 1),
             ValueRange{},
             [&](OpBuilder &b, Location l, Value i, ValueRange)
                 -> SmallVector<Value> {
               Value v = tensor::ExtractOp::create(b, l, flat, i);
               Value row = arith::AddIOp::create(
                   b, l, outAddr,
                   arith::IndexCastOp::create(
                       b, l, i64,
                       mulIdx(b, l, mulIdx(b, l, i, w), idx(b, l, 8))));
               callRuntime(b, l, op, "onnxc_rt_str_split", {i64},
                           {v, delim, maxs, row, width, site});
               return {};
             });
    Value y = bufferPrefix(rewriter, loc, out, total);
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    SmallVector<Value> ydims = dims;
    ydims.push_back(w);
    y = reshapeTo(rewriter, loc, y, ydims, yt);
    Value z = reshapeTo(rewriter, loc, counts, dims, zt);
    rewriter.replaceOp(op, {y, castTo(rewriter, loc, z, zt)});
    return success();
  }
};

/// The RE2 pattern `re` as a POSIX extended regular expression, or an
/// error saying which construct it cannot express.
FailureOr<std::string> re2ToPosix(StringRef re, std::string &error) {
  std::string out;
  bool inBracket = false;
  size_t bracketStart = 0;
  for (size_t i = 0; i < re.size(); ++i) {
    char c = re[i];
    if (inBracket) {
      if (c == ']' && i > bracketStart) {
        inBracket = false;
        out.push_back(c);
        continue;
      }
      if (c == '[' && i + 1 < re.size() && re[i + 1] == ':') {
        size_t end = re.find(":]", i + 2);
        if (end == StringRef::npos) {
          error = "an unterminated character class '[:'";
          return failure();
        }
        out += re.substr(i, end + 2 - i).str();
        i = end + 1;
        continue;
      }
      if (c == '\\') {
        if (i + 1 >= re.size()) {
          error = "a trailing '\\'";
          return failure();
        }
        char e = re[++i];
        switch (e) {
        case 'd': out += "0-9"; continue;
        case 'w': out += "[:alnum:]_"; continue;
        case 's': out += "[:space:]"; continue;
        case 't': out.push_back('\t'); continue;
        case 'n': out.push_back('\n'); continue;
        case 'r': out.push_back('\r'); continue;
        default:
          if (strchr(".*+?(){}|$/\\", e)) {
            out.push_back(e);
            continue;
          }
          error = std::string("'\\") + e + "' inside brackets";
          return failure();
        }
      }
      out.push_back(c);
      continue;
    }
    switch (c) {
    case '[':
      inBracket = true;
      out.push_back(c);
      bracketStart = i + 1;
      if (i + 1 < re.size() && re[i + 1] == '^') {
        out.push_back('^');
        ++i;
        bracketStart = i + 1;
      }
      continue;
    case '(':
      if (i + 1 < re.size() && re[i + 1] == '?') {
        if (i + 2 < re.size() && re[i + 2] == ':') {
          out.push_back('(');
          i += 2;
          continue;
        }
        error = "a group with flags or a name '(?...'";
        return failure();
      }
      out.push_back(c);
      continue;
    case '*':
    case '+':
    case '?':
    case '}':
      out.push_back(c);
      // Lazy and possessive forms: whether the whole string matches does
      // not depend on them.
      if (i + 1 < re.size() && re[i + 1] == '?')
        ++i;
      continue;
    case '\\': {
      if (i + 1 >= re.size()) {
        error = "a trailing '\\'";
        return failure();
      }
      char e = re[++i];
      switch (e) {
      case 'd': out += "[0-9]"; continue;
      case 'D': out += "[^0-9]"; continue;
      case 'w': out += "[[:alnum:]_]"; continue;
      case 'W': out += "[^[:alnum:]_]"; continue;
      case 's': out += "[[:space:]]"; continue;
      case 'S': out += "[^[:space:]]"; continue;
      case 't': out.push_back('\t'); continue;
      case 'n': out.push_back('\n'); continue;
      case 'r': out.push_back('\r'); continue;
      default:
        if (strchr(".[]{}()*+?|^$\\", e)) {
          out.push_back('\\');
          out.push_back(e);
          continue;
        }
        if (strchr("/-_,:;'\"!@#%&=<>~` ", e)) {
          out.push_back(e);
          continue;
        }
        error = std::string("the escape '\\") + e + "'";
        return failure();
      }
    }
    default:
      out.push_back(c);
    }
  }
  if (inBracket) {
    error = "an unterminated '['";
    return failure();
  }
  return out;
}

/// RegexFullMatch: Y[i] = X[i] matches the pattern as a whole.
struct RegexFullMatchLowering : OpConversionPattern<ONNX::RegexFullMatchOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ONNX::RegexFullMatchOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    if (!op.getPattern())
      return op.emitOpError("pattern is required");
    std::string error;
    FailureOr<std::string> posix = re2ToPosix(*op.getPattern(), error);
    if (failed(posix))
      return op.emitOpError("pattern '")
             << *op.getPattern() << "': " << error
             << " is not supported (the runtime's regular expressions are "
                "libc's POSIX extended ones; docs/strings.md)";
    {
      regex_t re;
      std::string anchored = "^(" + *posix + ")$";
      int rc = regcomp(&re, anchored.c_str(), REG_EXTENDED | REG_NOSUB);
      if (rc != 0) {
        char buf[256];
        regerror(rc, &re, buf, sizeof buf);
        return op.emitOpError("pattern '")
               << *op.getPattern() << "' does not compile: " << buf;
      }
      regfree(&re);
    }
    Type i64 = rewriter.getI64Type(), i8 = rewriter.getI8Type();
    Value x = adaptor.getX();
    SmallVector<Value> dims = dimValues(rewriter, loc, x);
    Value flat = flatten(rewriter, loc, x);
    Value n = getDimValue(rewriter, loc, flat, 0);
    auto [out, outAddr] = allocI64(rewriter, loc, n, i8);
    callRuntime(rewriter, loc, op, "onnxc_rt_regex_full_match", {},
                {tensorAddress(rewriter, loc, flat),
                 arith::IndexCastOp::create(rewriter, loc, i64, n), outAddr,
                 createMessageGlobal(rewriter, loc, *posix, moduleOf(rewriter, op)),
                 siteString(rewriter, loc, op)});
    Value bytes = bufferPrefix(rewriter, loc, out, n);
    Value bits = mapElements(
        rewriter, loc, bytes, rewriter.getI1Type(),
        [&](OpBuilder &b, Location l, Value v, ValueRange) -> Value {
          return arith::CmpIOp::create(b, l, arith::CmpIPredicate::ne, v,
                                       createIntConstant(b, l, i8, 0));
        });
    auto yt = convertedTensorType(getTypeConverter(), op.getY());
    Value y = reshapeTo(rewriter, loc, bits, dims, yt);
    rewriter.replaceOp(op, castTo(rewriter, loc, y, yt));
    return success();
  }
};

} // namespace

void mlir::onnxc::populateStringPatterns(
    TypeConverter &tc, RewritePatternSet &patterns) {
  MLIRContext *ctx = patterns.getContext();
  patterns.add<ElementwiseLowering>(tc, ctx,
                                    ONNX::StringConcatOp::getOperationName(),
                                    concatScalar);
  patterns.add<StringNormalizerLowering, StringSplitLowering,
               RegexFullMatchLowering>(tc, ctx);
}
