//===- NodeLocation.cpp - ONNX nodes in the locations of later stages -----===//

#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Location.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;

namespace mlir::onnxc {

Location tagOpType(Location loc, StringRef opType) {
  return FusedLoc::get(loc.getContext(), {loc},
                       StringAttr::get(loc.getContext(), opType));
}

/// The first NameLoc's name inside `loc`.
static std::string findName(Location loc) {
  if (auto n = dyn_cast<NameLoc>(loc))
    return n.getName().str();
  if (auto f = dyn_cast<FusedLoc>(loc))
    for (Location l : f.getLocations()) {
      std::string name = findName(l);
      if (!name.empty())
        return name;
    }
  return "";
}

NodeInfo getNodeInfo(Location loc) {
  // The importer's form: NameLoc(node, FusedLoc<"OpType">[file]).
  if (auto n = dyn_cast<NameLoc>(loc)) {
    NodeInfo info = getNodeInfo(n.getChildLoc());
    if (!info.opType.empty() && info.name.empty())
      info.name = n.getName().str();
    return info;
  }
  auto f = dyn_cast<FusedLoc>(loc);
  if (!f)
    return {};
  if (auto type = dyn_cast_or_null<StringAttr>(f.getMetadata()))
    return {findName(loc), type.getValue().str()};
  for (Location l : f.getLocations()) {
    NodeInfo info = getNodeInfo(l);
    if (!info.opType.empty())
      return info;
  }
  return {};
}

static std::string escape(StringRef s) {
  std::string out;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u == 0x7f) {
      static const char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    } else {
      out += c;
    }
  }
  return out;
}

std::string nodeLabel(Location loc) {
  NodeInfo info = getNodeInfo(loc);
  if (info.opType.empty())
    return "";
  if (info.name.empty())
    return escape(info.opType);
  return "node '" + escape(info.name) + "' (" + escape(info.opType) + ")";
}

Value createMessageGlobal(OpBuilder &b, Location loc, StringRef text,
                          Operation *moduleOp) {
  auto module = dyn_cast_or_null<ModuleOp>(moduleOp);
  if (!module) {
    Operation *scope = b.getInsertionBlock()->getParentOp();
    module = isa<ModuleOp>(scope) ? cast<ModuleOp>(scope)
                                  : scope->getParentOfType<ModuleOp>();
  }
  std::string bytes = text.str();
  bytes.push_back('\0');
  LLVM::GlobalOp global;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    unsigned index = 0;
    for (auto g : module.getOps<LLVM::GlobalOp>()) {
      if (!g.getSymName().starts_with("__onnxc_msg"))
        continue;
      ++index;
      if (auto s = dyn_cast_or_null<StringAttr>(g.getValueOrNull()))
        if (s.getValue() == bytes)
          global = g;
    }
    if (!global) {
      while (module.lookupSymbol(("__onnxc_msg" + Twine(index)).str()))
        ++index;
      auto arrTy = LLVM::LLVMArrayType::get(b.getI8Type(), bytes.size());
      global = LLVM::GlobalOp::create(
          b, loc, arrTy, /*isConstant=*/true, LLVM::Linkage::Internal,
          ("__onnxc_msg" + Twine(index)).str(), b.getStringAttr(bytes));
    }
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

} // namespace mlir::onnxc
