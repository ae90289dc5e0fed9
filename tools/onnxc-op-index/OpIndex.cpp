//===- OpIndex.cpp - docs/op-index.md: every place of every op ------------===//
//
// onnxc-op-index --src DIR [-o FILE]
//
// Writes docs/op-index.md: one row per op of the onnx dialect with the
// places its logic lives in, read from the compiler's own tables (what
// runs), located in the sources by a scan (where it is written):
//
//   verifier   dialects/ONNX/IR: getVerifierTable()
//   inference  passes/ONNX/Inference: getInferenceRules(), else the libonnx
//              schema version the bridge calls (OpInfo), else none
//   lowering   passes/Conversion/ONNXToLinalg: the root op of every pattern
//              populateONNXToLinalgConversionPatterns adds
//   gradient   passes/ONNX/Autodiff: getGradientRules(), getGradientExpansions()
//   tests      test/: the FileCheck tests and the numeric tests that name it
//   counts     docs/supported-ops.md: lowers, node tests passed (static, dynamic)
//
// Fails (exit 1, one line each) when a string-keyed verifier, inference
// rule, gradient rule or pattern names an op the dialect does not have: the
// build runs it (target onnxc-op-index-check) and test/docs/op-index.test
// compares its output with the committed docs/op-index.md.
//
//===----------------------------------------------------------------------===//

#include "dialects/ONNX/IR/ONNXDialect.h"
#include "dialects/ONNX/IR/OpInfo.h"
#include "dialects/ONNX/IR/VerifyUtils.h"
#include "passes/Conversion/ONNXToLinalg/ONNXToLinalg.h"
#include "passes/ONNX/Autodiff/GradientBuilder.h"
#include "passes/ONNX/Inference/InferenceImpl.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::onnxc;
namespace cl = llvm::cl;

namespace {

struct SourceFile {
  std::string path; ///< relative to the source root
  std::string text;
};

/// The files under `root`/`dir` whose names end in one of `exts`, sorted.
std::vector<SourceFile> readTree(llvm::StringRef root, llvm::StringRef dir,
                                 llvm::ArrayRef<llvm::StringRef> exts) {
  std::vector<SourceFile> files;
  llvm::SmallString<256> top(root);
  llvm::sys::path::append(top, dir);
  std::error_code ec;
  for (llvm::sys::fs::recursive_directory_iterator it(top, ec), end;
       it != end && !ec; it.increment(ec)) {
    llvm::StringRef p = it->path();
    if (!llvm::any_of(exts, [&](llvm::StringRef e) { return p.ends_with(e); }))
      continue;
    auto buf = llvm::MemoryBuffer::getFile(p);
    if (!buf)
      continue;
    std::string rel = p.drop_front(root.size()).ltrim('/').str();
    files.push_back({rel, (*buf)->getBuffer().str()});
  }
  llvm::sort(files, [](const SourceFile &a, const SourceFile &b) {
    return a.path < b.path;
  });
  return files;
}

/// "file.cpp:function" of the registration of `key` ("onnx.Conv") in one of
/// `files`: `rules["onnx.Conv"] = inferConv<...>;`, `t.add("onnx.X", fn);`
/// or a loop over a list holding the name (the function follows it); else
/// the first file that names it.
std::string locateRegistration(const std::vector<SourceFile> &files,
                               llvm::StringRef key) {
  std::string quoted = ("\"" + key + "\"").str();
  static const char *fn = "([A-Za-z_][A-Za-z0-9_:]*)";
  static llvm::Regex direct(std::string("^\"[^\"]*\"[[:space:]]*(\\][[:space:]]*=|,)"
                                        "[[:space:]]*") + fn);
  static llvm::Regex inLoop(std::string("(\\][[:space:]]*=|add\\([[:space:]]*"
                                        "[A-Za-z_]+[[:space:]]*,)[[:space:]]*") + fn);
  std::string fallback;
  for (const SourceFile &f : files) {
    std::string file = llvm::sys::path::filename(f.path).str();
    for (size_t pos = f.text.find(quoted); pos != std::string::npos;
         pos = f.text.find(quoted, pos + 1)) {
      if (fallback.empty())
        fallback = file;
      // The statement: from the name to the next ';'.
      size_t stmtEnd = f.text.find(';', pos);
      llvm::StringRef stmt = llvm::StringRef(f.text).slice(
          pos, stmtEnd == std::string::npos ? pos + 300 : stmtEnd);
      llvm::SmallVector<llvm::StringRef> m;
      if (direct.match(stmt, &m) || inLoop.match(stmt, &m))
        return file + ":" + m[2].str();
    }
  }
  return fallback.empty() ? "?" : fallback;
}

/// The file among `files` that defines class or struct `name`.
std::string locateClass(const std::vector<SourceFile> &files,
                        llvm::StringRef name) {
  llvm::Regex def(("(struct|class)[[:space:]]+" + name + "[[:space:]]*[:{<]").str());
  for (const SourceFile &f : files)
    if (def.match(f.text))
      return llvm::sys::path::filename(f.path).str();
  return "?";
}

/// "ConvLowering" of "(anonymous namespace)::ConvLowering<mlir::...>".
std::string className(llvm::StringRef debugName) {
  llvm::StringRef s = debugName;
  size_t lt = s.find('<');
  if (lt != llvm::StringRef::npos)
    s = s.take_front(lt);
  size_t colons = s.rfind("::");
  if (colons != llvm::StringRef::npos)
    s = s.drop_front(colons + 2);
  return s.str();
}

/// The op names ("onnx.X") a test file mentions: in MLIR ("onnx.X"), in ONNX
/// text (`y = X(...)`, `y = X<...>(...)`, `ai.onnx.ml.X`) and in Python
/// generators (`make_node("X"`).
std::set<std::string> opsMentioned(const SourceFile &f,
                                   const llvm::StringSet<> &known) {
  std::set<std::string> ops;
  llvm::StringRef text = f.text;
  static llvm::Regex mlirName("\"(onnx\\.[A-Za-z0-9_.]+)\"");
  static llvm::Regex textNode(
      "=[[:space:]]*([A-Za-z][A-Za-z0-9_.]*)[[:space:]]*[<(]");
  static llvm::Regex pyNode("make_node\\([[:space:]]*[\"']([A-Za-z0-9_]+)[\"']");
  auto scan = [&](llvm::Regex &re, auto toOp) {
    llvm::StringRef rest = text;
    llvm::SmallVector<llvm::StringRef> m;
    while (re.match(rest, &m)) {
      std::string op = toOp(m[1]);
      if (known.contains(op))
        ops.insert(op);
      rest = rest.drop_front(m[0].data() + m[0].size() - rest.data());
    }
  };
  scan(mlirName, [](llvm::StringRef s) { return s.str(); });
  auto fromOnnx = [](llvm::StringRef s) {
    if (s.consume_front("ai.onnx.preview.training."))
      return ("onnx.training." + s).str();
    if (s.consume_front("ai.onnx.ml."))
      return ("onnx.ml." + s).str();
    return ("onnx." + s).str();
  };
  scan(textNode, fromOnnx);
  scan(pyNode, fromOnnx);
  return ops;
}

/// Tests that run code and compare numbers, by directory under test/.
bool isNumericTest(llvm::StringRef path) {
  for (llvm::StringRef dir : {"test/numeric/", "test/e2e/", "test/examples/",
                              "test/tools/onnxc/codegen/", "test/embed/"})
    if (path.starts_with(dir))
      return true;
  return false;
}

std::string joinLimited(const std::vector<std::string> &items, size_t limit) {
  std::string out;
  for (size_t i = 0; i < items.size() && i < limit; ++i)
    out += (i ? ", " : "") + ("`" + items[i] + "`");
  if (items.size() > limit)
    out += " +" + std::to_string(items.size() - limit);
  return out;
}

/// op -> the convert-onnx-to-linalg patterns rooted at it, as
/// "File.cpp:PatternClass"; `checkKey` reports a pattern keyed by an
/// unknown op.
std::map<std::string, std::vector<std::string>> collectLowerings(
    MLIRContext &ctx, const std::string &src,
    llvm::function_ref<bool(llvm::StringRef, llvm::StringRef)> checkKey) {
  auto lowerSources =
      readTree(src, "passes/Conversion/ONNXToLinalg", {".cpp", ".h"});
  auto lowerCppSources = readTree(src, "passes/Conversion/ONNXToLinalg", {".cpp"});
  std::map<std::string, std::vector<std::string>> lowering;
  TypeConverter tc;
  populateONNXToLinalgTypeConversion(tc);
  RewritePatternSet patterns(&ctx);
  populateONNXToLinalgConversionPatterns(tc, patterns);
  for (const auto &p : patterns.getNativePatterns()) {
    std::optional<OperationName> root = p->getRootKind();
    if (!root)
      continue;
    std::string opName = root->getStringRef().str();
    if (!checkKey("a convert-onnx-to-linalg pattern", opName))
      continue;
    std::string cls = className(p->getDebugName());
    std::string file = locateClass(lowerSources, cls);
    // A pattern class shared through a header (ElementwiseLowering in
    // Elementwise.h, keyed by op name): the file that instantiates it for
    // the op.
    if (!llvm::StringRef(file).ends_with(".cpp")) {
      std::string typed =
          ("ONNX::" + llvm::StringRef(opName).rsplit('.').second + "Op::").str();
      file = "?";
      for (const SourceFile &f : lowerCppSources)
        if (f.text.find(typed) != std::string::npos ||
            f.text.find("\"" + opName + "\"") != std::string::npos) {
          file = llvm::sys::path::filename(f.path).str();
          break;
        }
    }
    std::string place = file + ":" + cls;
    auto &places = lowering[opName];
    if (!llvm::is_contained(places, place))
      places.push_back(place);
  }
  return lowering;
}

/// op -> the lit files and the numeric test sources under test/ that name
/// it.
void collectTests(const std::string &src, const llvm::StringSet<> &known,
                  std::map<std::string, std::vector<std::string>> &litTests,
                  std::map<std::string, std::vector<std::string>> &numericTests) {
  for (const SourceFile &f :
       readTree(src, "test", {".mlir", ".test", ".onnxtxt", ".py"})) {
    llvm::StringRef p = f.path;
    if (p.starts_with("test/numeric/conformance/") ||
        p.starts_with("test/docs/") ||
        p.starts_with("test/Utils/") || p.starts_with("test/fuzz/"))
      continue;
    std::string rel = p.drop_front(5).str();
    for (const std::string &op : opsMentioned(f, known))
      (isNumericTest(p) ? numericTests : litTests)[op].push_back(rel);
  }
}

/// op -> "lowers, static, dynamic" from docs/supported-ops.md (| domain |
/// op | imports | lowers | static | dynamic |).
std::map<std::string, std::string> readNodeTestCounts(const std::string &src) {
  std::map<std::string, std::string> counts;
  if (auto buf = llvm::MemoryBuffer::getFile(src + "/docs/supported-ops.md")) {
    llvm::SmallVector<llvm::StringRef> lines;
    (*buf)->getBuffer().split(lines, '\n');
    for (llvm::StringRef line : lines) {
      llvm::SmallVector<llvm::StringRef> cells;
      line.split(cells, '|');
      if (cells.size() < 8 || !cells[1].trim().starts_with("ai.onnx"))
        continue;
      llvm::StringRef domain = cells[1].trim();
      std::string prefix = domain == "ai.onnx"      ? "onnx."
                           : domain == "ai.onnx.ml" ? "onnx.ml."
                                                    : "onnx.training.";
      counts[prefix + cells[2].trim().str()] =
          (cells[4].trim() + ", " + cells[5].trim() + ", " + cells[6].trim())
              .str();
    }
  }
  return counts;
}

/// The prose and the table head of docs/op-index.md.
void writeIndexHeader(llvm::raw_ostream &os) {
  os << "# Op index\n\n"
     << "<!-- Generated by tools/onnxc-op-index; do not edit. -->\n\n"
     << "Every place of every op of the onnx dialect, from the compiler's own\n"
     << "tables (what runs) located in the sources. Refresh it after adding a\n"
     << "verifier, rule, pattern or test:\n\n"
     << "    build/bin/onnxc-op-index --src . -o docs/op-index.md\n\n"
     << "(`test/docs/op-index.test` fails while it is stale; the build fails\n"
     << "when a verifier, inference rule, gradient rule or pattern names an op\n"
     << "the dialect does not have.) Columns:\n\n"
     << "- **verifier**: the op's own checks (`dialects/ONNX/IR/ops/`), beyond\n"
     << "  the signature checks every op gets (`Verify.cpp`);\n"
     << "- **inference**: onnxc's rule (`passes/ONNX/Inference/`) where one\n"
     << "  exists, else libonnx's inference function of that schema version,\n"
     << "  else none (results keep the types the importer gave them);\n"
     << "- **lowering**: the convert-onnx-to-linalg patterns rooted at the op\n"
     << "  (`passes/Conversion/ONNXToLinalg/`); int8 ops may also become\n"
     << "  runtime kernel calls at `-O1` and up (`ONNXToUkernel/`);\n"
     << "- **gradient**: its rule for onnx-autodiff (`passes/ONNX/Autodiff/`);\n"
     << "- **lit tests**, **numeric tests**: the files under `test/` that name\n"
     << "  it (numeric: those that run code: `numeric` (but its conformance\n"
     << "  scripts), `e2e`, `examples`, `tools/onnxc/codegen`, `embed`); the\n"
     << "  first three, then how many more;\n"
     << "- **lowers; node tests**: from [supported-ops.md](supported-ops.md):\n"
     << "  whether it lowers, and the ONNX node tests passed, static and\n"
     << "  dynamic.\n\n"
     << "| op | verifier | inference | lowering | gradient | lit tests | "
        "numeric tests | lowers; node tests |\n"
     << "|---|---|---|---|---|---|---|---|\n";
}

/// Rewrites onnxc-ods-gen's table `in` (build/docs/dialect-ops-schema.md)
/// into `outPath` with its inference column set to what runs.
bool rewriteDialectOps(
    const std::string &in, const std::string &outPath,
    llvm::function_ref<std::string(const ONNX::OpInfo &)> inferenceOf) {
  auto buf = llvm::MemoryBuffer::getFile(in);
  if (!buf) {
    llvm::errs() << "onnxc-op-index: error: cannot read " << in << "\n";
    return false;
  }
  std::error_code ec;
  llvm::ToolOutputFile out(outPath, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "onnxc-op-index: error: " << outPath << ": "
                 << ec.message() << "\n";
    return false;
  }
  llvm::SmallVector<llvm::StringRef> lines;
  (*buf)->getBuffer().split(lines, '\n');
  for (size_t i = 0; i < lines.size(); ++i) {
    llvm::StringRef line = lines[i];
    if (i + 1 == lines.size() && line.empty())
      break;
    llvm::SmallVector<llvm::StringRef> cells;
    line.split(cells, '|');
    const ONNX::OpInfo *info = nullptr;
    if (cells.size() == 7 && cells[1].trim().starts_with("ai.onnx"))
      info = ONNX::lookupOpInfo(cells[1].trim() == "ai.onnx" ? ""
                                                             : cells[1].trim(),
                                cells[2].trim());
    if (!info) {
      out.os() << line << "\n";
      continue;
    }
    cells[4] = "";
    std::string inference = " " + inferenceOf(*info) + " ";
    for (size_t c = 0; c + 1 < cells.size(); ++c)
      out.os() << cells[c] << "|" << (c == 3 ? llvm::StringRef(inference) : "");
    out.os() << cells.back() << "\n";
  }
  out.keep();
  return true;
}

} // namespace

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::opt<std::string> srcDir("src", cl::desc("onnxc's source root"),
                              cl::Required);
  cl::opt<std::string> output("o", cl::desc("Output file (default: stdout)"),
                              cl::init("-"));
  cl::opt<std::string> dialectOpsIn(
      "dialect-ops",
      cl::desc("The table onnxc-ods-gen writes from the schemas: its "
               "inference column is rewritten with what actually runs"));
  cl::opt<std::string> dialectOpsOut(
      "dialect-ops-out", cl::desc("Where the rewritten table goes"));
  cl::list<std::string> checkNames(
      "check-name", cl::desc("Also check that this op name exists (tests)"));
  cl::ParseCommandLineOptions(argc, argv, "onnxc-op-index: writes docs/op-index.md\n");

  DialectRegistry registry;
  registry.insert<ONNX::ONNXDialect>();
  MLIRContext ctx(registry);
  ctx.loadAllAvailableDialects();

  llvm::StringSet<> known;
  for (const ONNX::OpInfo &info : ONNX::getAllOpInfos())
    known.insert(info.opName);
  for (RegisteredOperationName name : ctx.getRegisteredOperations())
    if (name.getDialectNamespace() == "onnx")
      known.insert(name.getStringRef());

  bool failedCheck = false;
  auto checkKey = [&](llvm::StringRef table, llvm::StringRef key) {
    if (known.contains(key))
      return true;
    llvm::errs() << "onnxc-op-index: error: " << table << " names '" << key
                 << "', which is not an op of the onnx dialect\n";
    failedCheck = true;
    return false;
  };

  std::string src = srcDir;
  auto verifySources = readTree(src, "dialects/ONNX/IR", {".cpp"});
  auto inferSources = readTree(src, "passes/ONNX/Inference", {".cpp"});
  auto gradSources = readTree(src, "passes/ONNX/Autodiff", {".cpp"});

  // op -> place, per table.
  std::map<std::string, std::string> verifier, rule, gradient;
  for (const auto &e : ONNX::verify::getVerifierTable().fns)
    if (checkKey("the verifier table", e.getKey()))
      verifier[e.getKey().str()] = locateRegistration(verifySources, e.getKey());
  for (const auto &e : getInferenceRules())
    if (checkKey("the inference rules", e.getKey()))
      rule[e.getKey().str()] = locateRegistration(inferSources, e.getKey());
  for (const auto &e : autodiff::getGradientRules())
    if (checkKey("the gradient rules", e.getKey()))
      gradient[e.getKey().str()] = locateRegistration(gradSources, e.getKey());
  for (const auto &e : autodiff::getGradientExpansions())
    if (checkKey("the gradient expansions", e.getKey()))
      gradient[e.getKey().str()] =
          "expansion " + locateRegistration(gradSources, e.getKey());

  std::map<std::string, std::vector<std::string>> lowering =
      collectLowerings(ctx, src, checkKey);

  std::map<std::string, std::vector<std::string>> litTests, numericTests;
  collectTests(src, known, litTests, numericTests);

  std::map<std::string, std::string> counts = readNodeTestCounts(src);

  for (const std::string &name : checkNames)
    checkKey("--check-name", name);
  if (failedCheck)
    return 1;

  // The inference column: onnxc's rule where one exists, else libonnx's
  // function, else none (the order inferOpTypes tries them in).
  auto inferenceOf = [&](const ONNX::OpInfo &info) -> std::string {
    std::string op = info.opName;
    if (rule.count(op))
      return "onnxc `" + rule[op] + "`";
    if (info.libonnxInferenceVersion)
      return "libonnx " + std::to_string(info.libonnxInferenceVersion);
    return "none";
  };

  if (!dialectOpsIn.empty() &&
      !rewriteDialectOps(dialectOpsIn, dialectOpsOut, inferenceOf))
    return 1;

  std::error_code ec;
  llvm::ToolOutputFile out(output, ec, llvm::sys::fs::OF_Text);
  if (ec) {
    llvm::errs() << "onnxc-op-index: error: " << output << ": " << ec.message()
                 << "\n";
    return 1;
  }
  llvm::raw_ostream &os = out.os();
  writeIndexHeader(os);
  std::vector<const ONNX::OpInfo *> infos;
  for (const ONNX::OpInfo &info : ONNX::getAllOpInfos())
    infos.push_back(&info);
  llvm::sort(infos, [](const ONNX::OpInfo *a, const ONNX::OpInfo *b) {
    return llvm::StringRef(a->opName) < llvm::StringRef(b->opName);
  });
  auto code = [](const std::string &s) { return s.empty() ? s : "`" + s + "`"; };
  for (const ONNX::OpInfo *info : infos) {
    std::string op = info->opName;
    std::string inference = inferenceOf(*info);
    std::vector<std::string> lowers = lowering[op];
    std::string lowerCell;
    for (const std::string &l : lowers)
      lowerCell += (lowerCell.empty() ? "" : ", ") + code(l);
    os << "| " << op << " | " << code(verifier[op]) << " | " << inference
       << " | " << lowerCell << " | " << code(gradient[op]) << " | "
       << joinLimited(litTests[op], 3) << " | "
       << joinLimited(numericTests[op], 3) << " | " << counts[op] << " |\n";
  }
  out.keep();
  return 0;
}
