//===- OdsGen.cpp - ONNX schemas to MLIR ODS -----------------------------===//
//
// Reads libonnx's schema registry (ai.onnx, ai.onnx.ml,
// ai.onnx.preview.training), keeps the newest signature of every operator,
// applies the hand-written opset 18-25 patches (Patches.cpp) and writes:
//   --ods  ONNXOps.td       one ODS op per ONNX operator
//   --info ONNXOpInfo.inc   a C++ table of the same signatures, for the
//                           importer, the verifier and shape inference
//   --md   supported ops    a Markdown table of the dialect's operators
//
//===----------------------------------------------------------------------===//

#include "OpDesc.h"

#include "onnx/defs/schema.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

using namespace onnxc::odsgen;

namespace {

//===----------------------------------------------------------------------===//
// Reading libonnx
//===----------------------------------------------------------------------===//

AttrDesc readAttr(const onnx::OpSchema::Attribute &a) {
  AttrDesc d;
  d.name = a.name;
  d.kind = static_cast<AttrKind>(a.type);
  d.required = a.required;
  const onnx::AttributeProto &v = a.default_value;
  if (!a.required && v.type() != onnx::AttributeProto::UNDEFINED) {
    switch (v.type()) {
    case onnx::AttributeProto::INT:
      d.hasDefault = true, d.intDefault = v.i();
      break;
    case onnx::AttributeProto::FLOAT:
      d.hasDefault = true, d.floatDefault = v.f();
      break;
    case onnx::AttributeProto::STRING:
      d.hasDefault = true, d.stringDefault = v.s();
      break;
    case onnx::AttributeProto::INTS:
      d.hasDefault = true, d.intsDefault.assign(v.ints().begin(), v.ints().end());
      break;
    case onnx::AttributeProto::FLOATS:
      d.hasDefault = true,
      d.floatsDefault.assign(v.floats().begin(), v.floats().end());
      break;
    case onnx::AttributeProto::STRINGS:
      d.hasDefault = true,
      d.stringsDefault.assign(v.strings().begin(), v.strings().end());
      break;
    default:
      break; // tensor/graph defaults stay optional attributes
    }
  }
  return d;
}

ParamDesc readParam(const onnx::OpSchema::FormalParameter &p) {
  ParamDesc d;
  d.name = p.GetName();
  for (const std::string *t : p.GetTypes())
    d.types.push_back(*t);
  std::sort(d.types.begin(), d.types.end());
  switch (p.GetOption()) {
  case onnx::OpSchema::Single:
    d.option = ParamDesc::Single;
    break;
  case onnx::OpSchema::Optional:
    d.option = ParamDesc::Optional;
    break;
  case onnx::OpSchema::Variadic:
    d.option = ParamDesc::Variadic;
    d.minArity = p.GetMinArity();
    break;
  }
  d.typeParam = p.GetTypeStr();
  d.homogeneous = p.GetIsHomogeneous();
  return d;
}

OpDesc readSchema(const onnx::OpSchema &s) {
  OpDesc op;
  op.domain = s.domain();
  op.name = s.Name();
  op.sinceVersion = s.since_version();
  op.libonnxInferenceVersion = s.since_version();
  op.deprecated = s.deprecated();
  op.hasFunctionBody = s.HasFunction() || s.HasContextDependentFunction();
  for (const auto &p : s.inputs())
    op.inputs.push_back(readParam(p));
  for (const auto &p : s.outputs())
    op.outputs.push_back(readParam(p));
  for (const auto &[name, a] : s.attributes())
    op.attrs.push_back(readAttr(a));
  return op;
}

/// The newest non-deprecated signature of every operator in the three domains
/// (a deprecated op such as Upsample keeps the signature it had last).
std::vector<OpDesc> readRegistry() {
  std::map<std::pair<std::string, std::string>, const onnx::OpSchema *> newest;
  std::map<std::pair<std::string, std::string>, bool> deprecatedAtEnd;
  static const std::vector<onnx::OpSchema> all =
      onnx::OpSchemaRegistry::get_all_schemas_with_history();
  for (const onnx::OpSchema &s : all) {
    if (s.domain() != "" && s.domain() != "ai.onnx.ml" &&
        s.domain() != "ai.onnx.preview.training")
      continue;
    auto key = std::make_pair(s.domain(), s.Name());
    auto &lastDep = deprecatedAtEnd[key];
    auto &cur = newest[key];
    if (s.deprecated()) {
      if (!cur || s.since_version() > cur->since_version())
        lastDep = true;
      continue;
    }
    if (!cur || s.since_version() > cur->since_version()) {
      cur = &s;
      lastDep = false;
    }
  }
  std::vector<OpDesc> ops;
  // Older signatures whose semantics no upgrade can express keep their own
  // op: Scan-8 scans a batch axis that Scan-9 dropped.
  for (const onnx::OpSchema &s : all)
    if (s.domain().empty() && s.Name() == "Scan" && s.since_version() == 8) {
      ops.push_back(readSchema(s));
      ops.back().versionSuffix = "V8";
      ops.back().patchNote = "opset 8-only signature (batched Scan)";
    }
  for (auto &[key, s] : newest) {
    if (!s)
      continue;
    ops.push_back(readSchema(*s));
    ops.back().deprecated = deprecatedAtEnd[key];
  }
  return ops;
}

//===----------------------------------------------------------------------===//
// Writing ODS
//===----------------------------------------------------------------------===//

std::string elementConstraint(const std::string &t) {
  static const std::map<std::string, std::string> m = {
      {"float", "F32"},           {"double", "F64"},
      {"float16", "F16"},         {"bfloat16", "BF16"},
      {"int8", "I8"},             {"int16", "I16"},
      {"int32", "I32"},           {"int64", "I64"},
      {"uint8", "UI8"},           {"uint16", "UI16"},
      {"uint32", "UI32"},         {"uint64", "UI64"},
      {"bool", "I1"},             {"string", "ONNX_StringType"},
      {"complex64", "Complex<F32>"}, {"complex128", "Complex<F64>"},
      {"float8e4m3fn", "F8E4M3FN"}, {"float8e4m3fnuz", "F8E4M3FNUZ"},
      {"float8e5m2", "F8E5M2"},   {"float8e5m2fnuz", "F8E5M2FNUZ"},
      {"float4e2m1", "F4E2M1FN"},
      {"int4", "I<4>"},           {"uint4", "UI<4>"},
  };
  auto it = m.find(t);
  if (it == m.end()) {
    std::cerr << "onnxc-ods-gen: unknown element type '" << t << "'\n";
    std::exit(1);
  }
  return it->second;
}

/// Splits "seq(tensor(float))" into kind "seq" and inner "tensor(float)".
bool splitType(const std::string &t, std::string &kind, std::string &inner) {
  auto open = t.find('(');
  if (open == std::string::npos || t.back() != ')')
    return false;
  kind = t.substr(0, open);
  inner = t.substr(open + 1, t.size() - open - 2);
  return true;
}

std::string join(const std::vector<std::string> &v, const char *sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i)
    s += (i ? sep : "") + v[i];
  return s;
}

/// The ODS type constraint accepting every ONNX type string in `types`.
std::string typeConstraint(const std::vector<std::string> &types) {
  std::vector<std::string> tensorElts, seqInner, optInner;
  bool anyMap = false;
  for (const std::string &t : types) {
    std::string kind, inner;
    if (!splitType(t, kind, inner)) {
      std::cerr << "onnxc-ods-gen: cannot parse type '" << t << "'\n";
      std::exit(1);
    }
    if (kind == "tensor" || kind == "sparse_tensor") {
      std::string e = elementConstraint(inner);
      if (std::find(tensorElts.begin(), tensorElts.end(), e) == tensorElts.end())
        tensorElts.push_back(e);
    } else if (kind == "seq") {
      seqInner.push_back(inner);
    } else if (kind == "optional") {
      optInner.push_back(inner);
    } else if (kind == "map") {
      anyMap = true;
    } else {
      std::cerr << "onnxc-ods-gen: unknown type kind '" << t << "'\n";
      std::exit(1);
    }
  }
  std::vector<std::string> alts;
  if (!tensorElts.empty())
    alts.push_back("TensorOf<[" + join(tensorElts, ", ") + "]>");
  if (!seqInner.empty())
    alts.push_back("ONNX_SeqOf<[" + typeConstraint(seqInner) + "]>");
  if (!optInner.empty())
    alts.push_back("ONNX_OptOf<[" + typeConstraint(optInner) + "]>");
  if (anyMap)
    alts.push_back("ONNX_MapType");
  if (alts.size() == 1)
    return alts[0];
  return "AnyTypeOf<[" + join(alts, ", ") + "]>";
}

std::string quote(const std::string &s) {
  std::string r = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      r += '\\';
    r += c;
  }
  return r + "\"";
}

std::string formatFloat(double f) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", f);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  return s;
}

std::string attrConstraint(const AttrDesc &a) {
  std::string base;
  switch (a.kind) {
  case AttrKind::Int:
    base = "I64Attr";
    break;
  case AttrKind::Float:
    base = "F32Attr";
    break;
  case AttrKind::String:
    base = "StrAttr";
    break;
  case AttrKind::Ints:
    base = "DenseI64ArrayAttr";
    break;
  case AttrKind::Floats:
    base = "DenseF32ArrayAttr";
    break;
  case AttrKind::Strings:
    base = "StrArrayAttr";
    break;
  case AttrKind::Tensor:
  case AttrKind::SparseTensor:
    base = "ElementsAttr";
    break;
  case AttrKind::Tensors:
  case AttrKind::SparseTensors:
    base = "TypedArrayAttrBase<ElementsAttr, \"array of tensors\">";
    break;
  case AttrKind::TypeProto:
    base = "TypeAttr";
    break;
  case AttrKind::TypeProtos:
    base = "TypeArrayAttr";
    break;
  default:
    std::cerr << "onnxc-ods-gen: unsupported attribute kind for " << a.name
              << "\n";
    std::exit(1);
  }
  if (a.required)
    return base;
  if (!a.hasDefault)
    return "OptionalAttr<" + base + ">";
  if (a.kind == AttrKind::String)
    return "DefaultValuedStrAttr<StrAttr, " + quote(a.stringDefault) + ">";
  std::string v;
  switch (a.kind) {
  case AttrKind::Int:
    v = std::to_string(a.intDefault);
    break;
  case AttrKind::Float:
    v = formatFloat(a.floatDefault);
    break;
  case AttrKind::Ints: {
    std::vector<std::string> parts;
    for (long long i : a.intsDefault)
      parts.push_back(std::to_string(i));
    v = "{" + join(parts, ", ") + "}";
    break;
  }
  case AttrKind::Floats: {
    std::vector<std::string> parts;
    for (double f : a.floatsDefault)
      parts.push_back(formatFloat(f) + "f");
    v = "{" + join(parts, ", ") + "}";
    break;
  }
  case AttrKind::Strings: {
    std::vector<std::string> parts;
    for (const std::string &s : a.stringsDefault)
      parts.push_back("\\\"" + s + "\\\"");
    v = "{" + join(parts, ", ") + "}";
    break;
  }
  default:
    return "OptionalAttr<" + base + ">";
  }
  return "DefaultValuedAttr<" + base + ", \"" + v + "\">";
}

/// TableGen def prefix and MLIR op-name prefix per domain.
std::string domainPrefix(const std::string &domain, bool forCpp) {
  if (domain == "ai.onnx.ml")
    return forCpp ? "ML" : "ml.";
  if (domain == "ai.onnx.preview.training")
    return forCpp ? "Training" : "training.";
  return "";
}

bool isNonDeterministic(const OpDesc &op) {
  static const std::set<std::string> names = {
      "RandomNormal",      "RandomUniform", "RandomNormalLike",
      "RandomUniformLike", "Multinomial",   "Bernoulli",
      "Dropout"};
  return op.domain.empty() && names.count(op.name);
}

/// Regions in a fixed order: then_branch before else_branch, else by name.
std::vector<const AttrDesc *> graphAttrs(const OpDesc &op) {
  std::vector<const AttrDesc *> g;
  for (const AttrDesc &a : op.attrs)
    if (a.kind == AttrKind::Graph)
      g.push_back(&a);
  std::stable_sort(g.begin(), g.end(), [](const AttrDesc *a, const AttrDesc *b) {
    return a->name == "then_branch" && b->name != "then_branch";
  });
  return g;
}

std::string camel(const std::string &s) {
  std::string r;
  bool up = true;
  for (char c : s) {
    if (c == '_') {
      up = true;
      continue;
    }
    r += up ? (char)toupper(c) : c;
    up = false;
  }
  return r;
}

void checkNames(const OpDesc &op) {
  // ODS derives accessors getX from argument names; two names with the same
  // accessor would not compile.
  std::map<std::string, std::string> seen;
  auto add = [&](const std::string &n) {
    std::string c = camel(n);
    auto [it, fresh] = seen.emplace(c, n);
    if (!fresh) {
      std::cerr << "onnxc-ods-gen: " << op.name << ": names '" << n << "' and '"
                << it->second << "' collide\n";
      std::exit(1);
    }
  };
  for (auto &p : op.inputs)
    add(p.name);
  for (auto &a : op.attrs)
    add(a.name);
}

/// ODS result names must differ from argument names; results only need
/// positions, so a clash is renamed.
std::string resultName(const OpDesc &op, const ParamDesc &p) {
  std::string c = camel(p.name);
  for (auto &i : op.inputs)
    if (camel(i.name) == c)
      return p.name + "_out";
  for (auto &a : op.attrs)
    if (camel(a.name) == c)
      return p.name + "_out";
  return p.name;
}

void emitOds(const std::vector<OpDesc> &ops, std::ostream &os) {
  os << "// Generated by onnxc-ods-gen from the libonnx schema registry. Do not "
        "edit.\n\n#ifndef ONNXC_ONNX_OPS_TD\n#define ONNXC_ONNX_OPS_TD\n\n"
        "include \"dialects/ONNX/IR/ONNXBase.td\"\n\n";
  for (const OpDesc &op : ops) {
    checkNames(op);
    std::string defName = "ONNX_" + domainPrefix(op.domain, true) + op.name +
                          op.versionSuffix + "Op";
    std::string mnemonic =
        domainPrefix(op.domain, false) + op.name + op.versionSuffix;
    std::vector<std::string> traits;
    auto regions = graphAttrs(op);
    if (!regions.empty())
      traits.push_back("RecursiveMemoryEffects");
    else if (!isNonDeterministic(op))
      traits.push_back("Pure");
    os << "def " << defName << " : ONNX_Op<\"" << mnemonic << "\", ["
       << join(traits, ", ") << "]> {\n";
    os << "  let summary = \"ONNX " << (op.domain.empty() ? "" : op.domain + " ")
       << op.name << " (signature of opset " << op.sinceVersion << ")\";\n";
    std::vector<std::string> args;
    for (const ParamDesc &p : op.inputs) {
      std::string c = typeConstraint(p.types);
      if (p.option == ParamDesc::Optional)
        c = "AnyTypeOf<[" + c + ", NoneType]>";
      else if (p.option == ParamDesc::Variadic)
        c = "Variadic<" + c + ">";
      args.push_back(c + ":$" + p.name);
    }
    for (const AttrDesc &a : op.attrs)
      if (a.kind != AttrKind::Graph)
        args.push_back(attrConstraint(a) + ":$" + a.name);
    os << "  let arguments = (ins";
    for (size_t i = 0; i < args.size(); ++i)
      os << (i ? ",\n" : "\n") << "    " << args[i];
    os << ");\n";
    os << "  let results = (outs";
    for (size_t i = 0; i < op.outputs.size(); ++i) {
      const ParamDesc &p = op.outputs[i];
      std::string c = typeConstraint(p.types);
      if (p.option == ParamDesc::Optional)
        c = "AnyTypeOf<[" + c + ", NoneType]>";
      else if (p.option == ParamDesc::Variadic)
        c = "Variadic<" + c + ">";
      os << (i ? ",\n" : "\n") << "    " << c << ":$" << resultName(op, p);
    }
    os << ");\n";
    if (!regions.empty()) {
      os << "  let regions = (region";
      for (size_t i = 0; i < regions.size(); ++i)
        os << (i ? ", " : " ") << "SizedRegion<1>:$" << regions[i]->name;
      os << ");\n";
    }
    os << "}\n\n";
  }
  os << "#endif // ONNXC_ONNX_OPS_TD\n";
}

//===----------------------------------------------------------------------===//
// Writing the C++ info table
//===----------------------------------------------------------------------===//

void emitInfo(const std::vector<OpDesc> &ops, std::ostream &os) {
  os << "// Generated by onnxc-ods-gen. Do not edit.\n"
        "// Expects ParamInfo, AttrInfo and OpInfo from ONNXOpInfo.h.\n\n";
  auto paramArray = [&](const std::string &name,
                        const std::vector<ParamDesc> &ps) {
    if (ps.empty())
      return;
    os << "static const ParamInfo " << name << "[] = {";
    for (auto &p : ps) {
      const char *opt = p.option == ParamDesc::Single     ? "ParamInfo::Single"
                        : p.option == ParamDesc::Optional ? "ParamInfo::Optional"
                                                          : "ParamInfo::Variadic";
      // Only named type parameters bind values together ("T", not an
      // inline "tensor(int64)": patches may widen one inline type alone).
      bool named = !p.typeParam.empty() &&
                   p.typeParam.find('(') == std::string::npos;
      os << "{" << quote(p.name) << ", " << opt << ", " << p.minArity << ", "
         << (named ? quote(p.typeParam) : "nullptr") << ", "
         << (p.homogeneous ? "true" : "false") << "}, ";
    }
    os << "};\n";
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    const OpDesc &op = ops[i];
    paramArray("kIn" + std::to_string(i), op.inputs);
    paramArray("kOut" + std::to_string(i), op.outputs);
    if (!op.attrs.empty()) {
      os << "static const AttrInfo kAttr" << i << "[] = {";
      int region = 0;
      auto regions = graphAttrs(op);
      for (auto &a : op.attrs) {
        int regionIndex = -1;
        if (a.kind == AttrKind::Graph)
          for (size_t r = 0; r < regions.size(); ++r)
            if (regions[r] == &a)
              regionIndex = (int)r;
        (void)region;
        os << "{" << quote(a.name) << ", " << (int)a.kind << ", "
           << (a.required ? "true" : "false") << ", " << regionIndex << "}, ";
      }
      os << "};\n";
    }
  }
  os << "\nstatic const OpInfo kOpInfos[] = {\n";
  for (size_t i = 0; i < ops.size(); ++i) {
    const OpDesc &op = ops[i];
    std::string idx = std::to_string(i);
    os << "  {"
       << quote("onnx." + domainPrefix(op.domain, false) + op.name +
                op.versionSuffix)
       << ", " << quote(op.domain) << ", " << quote(op.name) << ", "
       << op.sinceVersion << ", " << op.libonnxInferenceVersion << ", "
       << (op.inputs.empty() ? "nullptr" : "kIn" + idx) << ", "
       << op.inputs.size() << ", "
       << (op.outputs.empty() ? "nullptr" : "kOut" + idx) << ", "
       << op.outputs.size() << ", "
       << (op.attrs.empty() ? "nullptr" : "kAttr" + idx) << ", "
       << op.attrs.size() << ", " << (op.deprecated ? "true" : "false") << ", "
       << (op.hasFunctionBody ? "true" : "false") << ", "
       << quote(op.patchNote) << "},\n";
  }
  os << "};\n";
}

//===----------------------------------------------------------------------===//
// Writing the supported-ops table
//===----------------------------------------------------------------------===//

void emitMarkdown(const std::vector<OpDesc> &ops, std::ostream &os) {
  os << "| domain | op | signature (opset) | inference | notes |\n"
        "|---|---|---|---|---|\n";
  for (const OpDesc &op : ops) {
    std::string inference =
        op.libonnxInferenceVersion ? "libonnx " + std::to_string(op.libonnxInferenceVersion)
                                   : "onnxc";
    std::string notes = op.patchNote;
    if (op.deprecated)
      notes += (notes.empty() ? "" : "; ") + std::string("deprecated in ONNX");
    os << "| " << (op.domain.empty() ? "ai.onnx" : op.domain) << " | "
       << op.name + op.versionSuffix << " | " << op.sinceVersion << " | " << inference << " | "
       << notes << " |\n";
  }
}

} // namespace

int main(int argc, char **argv) {
  std::string odsPath, infoPath, mdPath;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string flag = argv[i];
    if (flag == "--ods")
      odsPath = argv[i + 1];
    else if (flag == "--info")
      infoPath = argv[i + 1];
    else if (flag == "--md")
      mdPath = argv[i + 1];
    else {
      std::cerr << "usage: onnxc-ods-gen [--ods F] [--info F] [--md F]\n";
      return 1;
    }
  }
  std::vector<OpDesc> ops = readRegistry();
  applyOpsetPatches(ops);
  std::sort(ops.begin(), ops.end(), [](const OpDesc &a, const OpDesc &b) {
    return std::tie(a.domain, a.name, a.versionSuffix) <
           std::tie(b.domain, b.name, b.versionSuffix);
  });
  auto write = [](const std::string &path, auto emit) {
    if (path.empty())
      return true;
    std::ostringstream ss;
    emit(ss);
    // Leave the file untouched when nothing changed: no needless rebuilds.
    std::ifstream in(path, std::ios::binary);
    std::stringstream old;
    old << in.rdbuf();
    if (in && old.str() == ss.str())
      return true;
    std::ofstream out(path, std::ios::binary);
    out << ss.str();
    return bool(out);
  };
  if (!write(odsPath, [&](std::ostream &os) { emitOds(ops, os); }) ||
      !write(infoPath, [&](std::ostream &os) { emitInfo(ops, os); }) ||
      !write(mdPath, [&](std::ostream &os) { emitMarkdown(ops, os); })) {
    std::cerr << "onnxc-ods-gen: cannot write output\n";
    return 1;
  }
  return 0;
}
