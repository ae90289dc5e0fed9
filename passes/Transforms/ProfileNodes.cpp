//===- ProfileNodes.cpp - The --onnxc-profile-nodes pass ------------------===//
//
// onnxc --profile: the ops of each ONNX node (or of the nodes fused into one
// kernel) between onnxc_rt_prof_begin(site) and onnxc_rt_prof_end(site)
// (runtime/src/profile.c), the body of a Loop/Scan's loop between an
// iteration site's; Passes.td describes the grouping.
//
//===----------------------------------------------------------------------===//

#include "passes/Transforms/Passes.h"

#include "lib/Support/NodeLocation.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Debug.h"

namespace mlir::onnxc {
#define GEN_PASS_DEF_PROFILENODES
#include "passes/Transforms/Passes.h.inc"
} // namespace mlir::onnxc

using namespace mlir;
using namespace mlir::onnxc;

#define DEBUG_TYPE "onnxc-profile-nodes"

namespace {

constexpr StringLiteral kBegin = "onnxc_rt_prof_begin";
constexpr StringLiteral kEnd = "onnxc_rt_prof_end";

/// The ONNX nodes a location names, each once: a fused location (the ops
/// fusion merged) names several. Fusion lists the last op first (its
/// location is the one diagnostics name): the nodes come out in the order
/// they ran.
void collectNodes(Location loc, SmallVectorImpl<NodeInfo> &nodes) {
  if (auto f = dyn_cast<FusedLoc>(loc);
      f && !isa_and_nonnull<StringAttr>(f.getMetadata())) {
    for (Location l : llvm::reverse(f.getLocations()))
      collectNodes(l, nodes);
    return;
  }
  NodeInfo info = getNodeInfo(loc);
  if (info.opType.empty())
    return;
  for (const NodeInfo &n : nodes)
    if (n.name == info.name && n.opType == info.opType)
      return;
  nodes.push_back(std::move(info));
}

/// The nodes' components: nodes that share an op (fused into one kernel)
/// are timed as one, with every op of any of them, so that each node is
/// in exactly one site. Names and op types in the order of first
/// appearance.
struct NodeGroups {
  llvm::StringMap<unsigned> index; // "name\0op" -> node
  SmallVector<NodeInfo> nodes;
  SmallVector<unsigned> parent;
  DenseMap<unsigned, std::string> keys; // root -> its site text (cached)

  unsigned find(unsigned i) {
    while (parent[i] != i)
      i = parent[i] = parent[parent[i]];
    return i;
  }
  /// The nodes of `op`'s location, added and united.
  SmallVector<unsigned> add(Operation *op) {
    SmallVector<NodeInfo> found;
    collectNodes(op->getLoc(), found);
    SmallVector<unsigned> ids;
    for (NodeInfo &n : found) {
      std::string id = n.name + '\0' + n.opType;
      auto [it, fresh] = index.try_emplace(id, nodes.size());
      if (fresh) {
        nodes.push_back(n);
        parent.push_back(it->second);
      }
      ids.push_back(it->second);
    }
    for (unsigned i = 1; i < ids.size(); ++i) {
      unsigned a = find(ids[0]), b = find(ids[i]);
      // The earlier node stays the root: names in order of appearance.
      if (a != b)
        parent[std::max(a, b)] = std::min(a, b);
    }
    return ids;
  }
  /// The site text of `op`'s component without its kind byte:
  /// "a+b\0A+B\0"; empty when its location names no node.
  std::string key(Operation *op) {
    SmallVector<NodeInfo> found;
    collectNodes(op->getLoc(), found);
    if (found.empty())
      return "";
    unsigned root = find(index.lookup(found.front().name + '\0' +
                                      found.front().opType));
    auto it = keys.find(root);
    if (it != keys.end())
      return it->second;
    std::string names, ops;
    for (unsigned i = 0; i < nodes.size(); ++i) {
      if (find(i) != root)
        continue;
      if (!names.empty()) {
        names += "+";
        ops += "+";
      }
      names += nodes[i].name.empty() ? "?" : nodes[i].name;
      ops += nodes[i].opType;
    }
    return keys[root] = names + '\0' + ops + '\0';
  }
};

/// Ops that take no time of their own: they join the group around them
/// but neither start nor end one.
bool isTransparent(Operation *op) {
  if (isa<memref::AllocOp, memref::AllocaOp, memref::DeallocOp,
          memref::AssumeAlignmentOp>(op))
    return true;
  return op->getNumRegions() == 0 && isMemoryEffectFree(op);
}

/// Region ops whose regions hold other nodes' ops (a Loop, Scan or If
/// body).
bool isStructured(Operation *op) {
  return isa<scf::ForOp, scf::WhileOp, scf::IfOp, scf::ParallelOp,
             scf::ExecuteRegionOp, scf::IndexSwitchOp>(op);
}

struct Instrumenter {
  ModuleOp module;
  OpBuilder b;
  llvm::StringMap<std::string> globals; // site text -> its global
  bool declared = false;
  NodeGroups groups;

  explicit Instrumenter(ModuleOp module)
      : module(module), b(module.getContext()) {
    module.walk([&](Operation *op) { groups.add(op); });
  }

  Value site(Location loc, StringRef text) {
    auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    auto it = globals.find(text);
    if (it != globals.end())
      return LLVM::AddressOfOp::create(b, loc, ptrTy, it->second);
    Value v = createMessageGlobal(b, loc, text, module);
    globals[text] = v.getDefiningOp<LLVM::AddressOfOp>().getGlobalName().str();
    return v;
  }

  void call(StringRef fn, Location loc, StringRef text) {
    auto ptrTy = LLVM::LLVMPointerType::get(b.getContext());
    if (!declared) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      for (StringRef name : {kBegin, kEnd})
        if (!module.lookupSymbol(name))
          func::FuncOp::create(b, module.getLoc(), name,
                               b.getFunctionType({ptrTy}, {}))
              .setPrivate();
      declared = true;
    }
    func::CallOp::create(b, loc, fn, TypeRange{}, ValueRange{site(loc, text)});
  }

  /// Wraps [first, last] of one block with the calls of `text`'s site.
  void wrap(Operation *first, Operation *last, StringRef text) {
    b.setInsertionPoint(first);
    call(kBegin, first->getLoc(), text);
    b.setInsertionPointAfter(last);
    call(kEnd, last->getLoc(), text);
  }

  /// Instruments `block`'s ops; `enclosing` holds the keys of the region
  /// ops around it (their ops inside are theirs: no event of their own).
  /// Returns whether it added an event.
  bool instrument(Block &block, SmallVectorImpl<std::string> &enclosing) {
    struct Group {
      std::string key;
      Operation *first, *last;
    };
    SmallVector<Group> runs;
    std::optional<Group> current;
    auto flush = [&]() {
      if (current)
        runs.push_back(*current);
      current.reset();
    };
    bool added = false;
    for (Operation &op : block) {
      if (op.hasTrait<OpTrait::IsTerminator>())
        break;
      std::string key = groups.key(&op);
      if (isStructured(&op)) {
        bool own = !key.empty() && !llvm::is_contained(enclosing, key);
        if (own)
          enclosing.push_back(key);
        for (Region &region : op.getRegions())
          for (Block &inner : region) {
            bool nested = instrument(inner, enclosing);
            added |= nested;
            // Per iteration: the body of a loop of a node that holds
            // other nodes.
            bool body = (isa<scf::ForOp, scf::ParallelOp>(op)) ||
                        (isa<scf::WhileOp>(op) && region.getRegionNumber() == 1);
            if (own && nested && body && &inner.front() != inner.getTerminator())
              wrap(&inner.front(), inner.getTerminator()->getPrevNode(),
                   "I" + key);
          }
        if (own)
          enclosing.pop_back();
      } else if (isTransparent(&op)) {
        continue;
      }
      if (key.empty() || llvm::is_contained(enclosing, key))
        continue;
      if (current && current->key == key) {
        current->last = &op;
        continue;
      }
      flush();
      current = Group{key, &op, &op};
    }
    flush();
    for (const Group &g : runs)
      wrap(g.first, g.last, "N" + g.key);
    return added || !runs.empty();
  }
};

struct ProfileNodesPass
    : public onnxc::impl::ProfileNodesBase<ProfileNodesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    Instrumenter inst(module);
    SmallVector<func::FuncOp> funcs;
    for (auto f : module.getOps<func::FuncOp>())
      if (!f.isExternal())
        funcs.push_back(f);
    for (func::FuncOp f : funcs) {
      LLVM_DEBUG(llvm::dbgs() << DEBUG_TYPE ": @" << f.getSymName() << "\n");
      SmallVector<std::string> enclosing;
      for (Block &block : f.getBody())
        inst.instrument(block, enclosing);
    }
  }
};

} // namespace
