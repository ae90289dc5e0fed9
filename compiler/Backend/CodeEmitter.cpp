//===- CodeEmitter.cpp - LLVM IR, the model ABI, objects ------------------===//
//
// Translates the LLVM-dialect module to LLVM IR, adds the symbols a model
// library exports (runtime/include/onnxc/runtime_abi.h):
//   const onnxc_model_info *M_info(void);
//   onnxc_status M_run(const onnxc_tensor *, int32_t, onnxc_tensor *, int32_t);
// makes everything else internal (several models link into one program),
// optimizes, and emits an object or assembly through a TargetMachine, in
// process.
//
//===----------------------------------------------------------------------===//

#include "compiler/Backend/Backend.h"

#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"

using namespace mlir;
using namespace mlir::onnxc;

std::unique_ptr<llvm::TargetMachine>
backend::createTargetMachine(const TargetOptions &options, std::string &error) {
  static bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    return true;
  }();
  (void)initialized;
  llvm::Triple triple(options.triple.empty() ? llvm::sys::getDefaultTargetTriple()
                                             : options.triple);
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return nullptr;
  std::string cpu = options.cpu;
  std::string features;
  bool host = options.triple.empty() ||
              triple == llvm::Triple(llvm::sys::getDefaultTargetTriple());
  if ((cpu.empty() || cpu == "native") && host) {
    cpu = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures f;
    for (auto &feature : llvm::sys::getHostCPUFeatures())
      f.AddFeature(feature.first(), feature.second);
    features = f.getString();
  } else if (cpu == "native") {
    error = "--mcpu=native needs the host triple";
    return nullptr;
  }
  // Ask a generic subtarget whether the CPU exists: creating one for an
  // unknown CPU makes LLVM print its own warnings.
  std::unique_ptr<llvm::MCSubtargetInfo> sti(
      target->createMCSubtargetInfo(triple, "", ""));
  if (!cpu.empty() && (!sti || !sti->isCPUStringValid(cpu))) {
    error = "unknown CPU '" + cpu + "' for " + triple.str();
    return nullptr;
  }
  llvm::CodeGenOptLevel level = options.optLevel == 0   ? llvm::CodeGenOptLevel::None
                                : options.optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                : options.optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                                        : llvm::CodeGenOptLevel::Aggressive;
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, cpu, features, targetOptions, llvm::Reloc::PIC_, std::nullopt,
      level));
  if (!tm)
    error = "cannot create a target machine for " + triple.str();
  return tm;
}

namespace {

/// Emits the model's metadata and exported entry points into `m`.
class ABIEmitter {
public:
  ABIEmitter(llvm::Module &m, const codegen::ModelSignature &sig)
      : m(m), ctx(m.getContext()), sig(sig), ptrTy(llvm::PointerType::get(ctx, 0)),
        i32(llvm::Type::getInt32Ty(ctx)), i64(llvm::Type::getInt64Ty(ctx)) {}

  /// Emits M_info, M_invoke and M_run (exported when `exported`: the
  /// training functions' are internal, reached through M_train_info);
  /// returns the info global and the invoke function in `info`, `invoke`.
  bool emit(llvm::Function *entry, std::string &error, bool exported = true,
            llvm::GlobalVariable **info = nullptr,
            llvm::Function **invoke = nullptr);

  /// M_train_info(): the onnxc_train_info of the training functions.
  void emitTrainInfo(llvm::ArrayRef<llvm::GlobalVariable *> infos,
                     llvm::ArrayRef<llvm::Function *> invokes);

private:
  llvm::Constant *string(llvm::StringRef s) {
    auto *init = llvm::ConstantDataArray::getString(ctx, s, true);
    auto *gv = new llvm::GlobalVariable(m, init->getType(), true,
                                        llvm::GlobalValue::PrivateLinkage, init,
                                        sig.name + ".str");
    gv->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
    return gv;
  }
  template <typename T>
  llvm::Constant *array(llvm::ArrayRef<T> values, const llvm::Twine &name) {
    if (values.empty())
      return llvm::ConstantPointerNull::get(ptrTy);
    auto *init = llvm::ConstantDataArray::get(ctx, values);
    return new llvm::GlobalVariable(m, init->getType(), true,
                                    llvm::GlobalValue::PrivateLinkage, init, name);
  }
  llvm::Constant *valueInfos(llvm::ArrayRef<codegen::ValueSignature> values,
                             llvm::StringRef what);

  llvm::Module &m;
  llvm::LLVMContext &ctx;
  const codegen::ModelSignature &sig;
  llvm::PointerType *ptrTy;
  llvm::IntegerType *i32, *i64;
};

llvm::Constant *ABIEmitter::valueInfos(llvm::ArrayRef<codegen::ValueSignature> values,
                                       llvm::StringRef what) {
  // struct onnxc_value_info { const char *name; int32_t dtype, rank;
  //                           const int64_t *dims; const int32_t *symbols;
  //                           int32_t kind, payload_kind, key_dtype; }
  // (ONNXC_ABI_VERSION 2)
  auto *infoTy =
      llvm::StructType::get(ctx, {ptrTy, i32, i32, ptrTy, ptrTy, i32, i32, i32});
  if (values.empty())
    return llvm::ConstantPointerNull::get(ptrTy);
  std::vector<llvm::Constant *> elems;
  for (const codegen::ValueSignature &v : values) {
    elems.push_back(llvm::ConstantStruct::get(
        infoTy, {string(v.onnxName), llvm::ConstantInt::get(i32, v.dtype),
                 llvm::ConstantInt::get(i32, v.rank()),
                 array(llvm::ArrayRef<int64_t>(v.dims), sig.name + "." + what + ".dims"),
                 array(llvm::ArrayRef<int32_t>(v.symbols),
                       sig.name + "." + what + ".symbols"),
                 llvm::ConstantInt::get(i32, static_cast<int32_t>(v.kind)),
                 llvm::ConstantInt::get(
                     i32, static_cast<int32_t>(v.payloadKind)),
                 llvm::ConstantInt::get(i32, v.keyDtype)}));
  }
  auto *arrTy = llvm::ArrayType::get(infoTy, elems.size());
  return new llvm::GlobalVariable(m, arrTy, true, llvm::GlobalValue::PrivateLinkage,
                                  llvm::ConstantArray::get(arrTy, elems),
                                  sig.name + "." + what);
}

bool ABIEmitter::emit(llvm::Function *entry, std::string &error, bool exported,
                      llvm::GlobalVariable **infoOut,
                      llvm::Function **invokeOut) {
  // One argument per memref of the inputs (a sequence is two, an optional
  // one more than its value: runtime_abi.h), after the results struct.
  size_t expectedArgs = sig.outputs.empty() ? 0 : 1;
  for (const codegen::ValueSignature &v : sig.inputs)
    expectedArgs += v.numMemrefs();
  if (entry->arg_size() != expectedArgs) {
    error = "the lowered entry function takes " + std::to_string(entry->arg_size()) +
            " arguments, the model's signature needs " + std::to_string(expectedArgs);
    return false;
  }
  // struct onnxc_model_info { const char *name; int32_t num_inputs,
  //   num_outputs; const onnxc_value_info *inputs, *outputs;
  //   int32_t num_symbols; const char *const *symbol_names; }
  std::vector<llvm::Constant *> symbolNames;
  for (const std::string &s : sig.symbolNames)
    symbolNames.push_back(string(s));
  llvm::Constant *symbols = llvm::ConstantPointerNull::get(ptrTy);
  if (!symbolNames.empty()) {
    auto *arrTy = llvm::ArrayType::get(ptrTy, symbolNames.size());
    symbols = new llvm::GlobalVariable(m, arrTy, true,
                                       llvm::GlobalValue::PrivateLinkage,
                                       llvm::ConstantArray::get(arrTy, symbolNames),
                                       sig.name + ".symbol_names");
  }
  auto *modelTy =
      llvm::StructType::get(ctx, {ptrTy, i32, i32, ptrTy, ptrTy, i32, ptrTy});
  auto *info = new llvm::GlobalVariable(
      m, modelTy, true, llvm::GlobalValue::InternalLinkage,
      llvm::ConstantStruct::get(
          modelTy, {string(sig.name), llvm::ConstantInt::get(i32, sig.inputs.size()),
                    llvm::ConstantInt::get(i32, sig.outputs.size()),
                    valueInfos(sig.inputs, "inputs"), valueInfos(sig.outputs, "outputs"),
                    llvm::ConstantInt::get(i32, sig.symbolNames.size()), symbols}),
      sig.name + ".info");

  llvm::IRBuilder<> b(ctx);
  llvm::GlobalValue::LinkageTypes linkage =
      exported ? llvm::GlobalValue::ExternalLinkage
               : llvm::GlobalValue::InternalLinkage;
  // const onnxc_model_info *M_info(void)
  auto *infoFn = llvm::Function::Create(llvm::FunctionType::get(ptrTy, false),
                                        linkage, sig.name + "_info", m);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "", infoFn));
  b.CreateRet(info);

  // void M_invoke(void **args): args[i] -> the entry's i-th parameter (the
  // runtime lays the flattened memrefs out in the same order).
  auto *invoke = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), {ptrTy}, false),
      llvm::GlobalValue::InternalLinkage, sig.name + "_invoke", m);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "", invoke));
  std::vector<llvm::Value *> args;
  for (size_t i = 0; i < expectedArgs; ++i) {
    llvm::Value *slot = b.CreateConstInBoundsGEP1_64(ptrTy, invoke->getArg(0), i);
    args.push_back(b.CreateLoad(ptrTy, slot));
  }
  b.CreateCall(entry, args);
  b.CreateRetVoid();

  // onnxc_status M_run(const onnxc_tensor *, int32_t, onnxc_tensor *, int32_t)
  llvm::FunctionCallee runModel = m.getOrInsertFunction(
      "onnxc_run_model",
      llvm::FunctionType::get(i32, {ptrTy, ptrTy, ptrTy, i32, ptrTy, i32}, false));
  auto *run = llvm::Function::Create(
      llvm::FunctionType::get(i32, {ptrTy, i32, ptrTy, i32}, false), linkage,
      sig.name + "_run", m);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "", run));
  b.CreateRet(b.CreateCall(runModel, {info, invoke, run->getArg(0), run->getArg(1),
                                      run->getArg(2), run->getArg(3)}));
  if (infoOut)
    *infoOut = info;
  if (invokeOut)
    *invokeOut = invoke;
  return true;
}

void ABIEmitter::emitTrainInfo(llvm::ArrayRef<llvm::GlobalVariable *> infos,
                               llvm::ArrayRef<llvm::Function *> invokes) {
  // struct onnxc_train_info { const onnxc_model_info *init, *step, *infer;
  //   onnxc_invoke_fn init_invoke, step_invoke, infer_invoke;
  //   int32_t num_state, num_updates; }
  auto *trainTy = llvm::StructType::get(
      ctx, {ptrTy, ptrTy, ptrTy, ptrTy, ptrTy, ptrTy, i32, i32});
  auto *info = new llvm::GlobalVariable(
      m, trainTy, true, llvm::GlobalValue::InternalLinkage,
      llvm::ConstantStruct::get(
          trainTy, {infos[0], infos[1], infos[2], invokes[0], invokes[1],
                    invokes[2], llvm::ConstantInt::get(i32, sig.numState),
                    llvm::ConstantInt::get(i32, sig.numUpdates)}),
      sig.name + ".train_info");
  // const onnxc_train_info *M_train_info(void)
  auto *fn = llvm::Function::Create(llvm::FunctionType::get(ptrTy, false),
                                    llvm::GlobalValue::ExternalLinkage,
                                    sig.name + "_train_info", m);
  llvm::IRBuilder<> b(ctx);
  b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "", fn));
  b.CreateRet(info);
  // The training API (runtime/src/train.c) comes into the library with the
  // model: nothing in the model calls it, so a kept reference pulls it out
  // of the runtime archive.
  llvm::FunctionCallee create = m.getOrInsertFunction(
      "onnxc_train_create", llvm::FunctionType::get(i32, {ptrTy, ptrTy}, false));
  auto *ref = new llvm::GlobalVariable(
      m, ptrTy, true, llvm::GlobalValue::InternalLinkage,
      llvm::cast<llvm::Constant>(create.getCallee()), sig.name + ".train_api");
  llvm::appendToUsed(m, {ref});
}

/// The lowered entry function returns one struct of every result's memref
/// descriptor, which its C-interface wrapper stores through its first
/// argument. With hundreds of results, the return and the stores after the
/// call form one basic block of thousands of memory operations with every
/// descriptor live across the model's calls: LLVM's instruction selection
/// and scheduling are superlinear in it (one Split of 400 outputs took
/// 12 to 50 s at -O2, 1000 more than 120 s). This makes the entry
/// function take the wrapper's pointer and store each descriptor as soon
/// as it is computed (where the SSA value is defined, which dominates the
/// return): the wrapper calls it with its pointer and stores nothing. The C
/// interface is unchanged. A failed run-time check leaves some stored, but
/// the runtime reads the results only after a successful call. Does
/// nothing when the wrapper or the entry function does not have the
/// expected form (one call whose struct result is stored, one return).
void storeResultsEarly(llvm::Function *wrapper) {
  if (wrapper->arg_size() == 0 || !wrapper->getArg(0)->getType()->isPointerTy())
    return;
  llvm::Argument *out = wrapper->getArg(0);
  llvm::CallInst *call = nullptr;
  llvm::StoreInst *store = nullptr;
  for (llvm::User *u : out->users())
    if (auto *st = llvm::dyn_cast<llvm::StoreInst>(u))
      if (st->getPointerOperand() == out)
        if (auto *c = llvm::dyn_cast<llvm::CallInst>(st->getValueOperand()))
          if (c->hasOneUse() && !store) {
            store = st;
            call = c;
          }
  if (!call)
    return;
  llvm::Function *entry = call->getCalledFunction();
  auto *retTy = entry ? llvm::dyn_cast<llvm::StructType>(entry->getReturnType())
                      : nullptr;
  if (!retTy || entry->isDeclaration() || !entry->hasOneUse() ||
      entry->isVarArg())
    return;
  llvm::ReturnInst *ret = nullptr;
  for (llvm::BasicBlock &bb : *entry)
    if (auto *r = llvm::dyn_cast<llvm::ReturnInst>(bb.getTerminator())) {
      if (ret)
        return;
      ret = r;
    }
  if (!ret)
    return;

  // The value of each field of the returned struct: its insertvalue chain.
  unsigned n = retTy->getNumElements();
  llvm::SmallVector<llvm::Value *> fields(n, nullptr);
  llvm::Value *agg = ret->getReturnValue();
  while (auto *iv = llvm::dyn_cast<llvm::InsertValueInst>(agg)) {
    if (iv->getNumIndices() != 1)
      return;
    unsigned i = iv->getIndices()[0];
    if (!fields[i])
      fields[i] = iv->getInsertedValueOperand();
    agg = iv->getAggregateOperand();
  }
  llvm::LLVMContext &ctx = entry->getContext();
  if (!llvm::isa<llvm::PoisonValue, llvm::UndefValue>(agg))
    return;

  // The new entry: the results pointer first, then the same parameters.
  llvm::SmallVector<llvm::Type *> params{out->getType()};
  for (llvm::Type *t : entry->getFunctionType()->params())
    params.push_back(t);
  auto *fn = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(ctx), params, false),
      entry->getLinkage(), entry->getName() + ".out", entry->getParent());
  fn->splice(fn->begin(), entry);
  for (unsigned i = 0; i < entry->arg_size(); ++i) {
    fn->getArg(i + 1)->takeName(entry->getArg(i));
    entry->getArg(i)->replaceAllUsesWith(fn->getArg(i + 1));
  }
  llvm::Argument *dst = fn->getArg(0);
  llvm::IRBuilder<> b(ctx);
  for (unsigned i = 0; i < n; ++i) {
    llvm::Value *v = fields[i];
    if (!v)
      continue;
    if (auto *inst = llvm::dyn_cast<llvm::Instruction>(v)) {
      if (llvm::isa<llvm::PHINode>(inst))
        b.SetInsertPoint(inst->getParent(),
                         inst->getParent()->getFirstInsertionPt());
      else
        b.SetInsertPoint(inst->getNextNode());
    } else {
      b.SetInsertPoint(&fn->getEntryBlock(),
                       fn->getEntryBlock().getFirstInsertionPt());
    }
    b.CreateStore(v, b.CreateStructGEP(retTy, dst, i));
  }
  // The return and its (now unused) insertvalue chain.
  llvm::Value *chain = ret->getReturnValue();
  b.SetInsertPoint(ret);
  b.CreateRetVoid();
  ret->eraseFromParent();
  while (auto *iv = llvm::dyn_cast<llvm::InsertValueInst>(chain)) {
    if (!iv->use_empty())
      break;
    chain = iv->getAggregateOperand();
    iv->eraseFromParent();
  }

  // The wrapper passes its pointer and stores nothing.
  b.SetInsertPoint(call);
  llvm::SmallVector<llvm::Value *> args{out};
  args.append(call->arg_begin(), call->arg_end());
  b.CreateCall(fn, args);
  store->eraseFromParent();
  call->eraseFromParent();
  fn->takeName(entry);
  entry->eraseFromParent();
}

} // namespace

std::unique_ptr<llvm::Module>
backend::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &llvmContext,
                           const codegen::ModelSignature &signature,
                           llvm::TargetMachine &tm) {
  std::unique_ptr<llvm::Module> m = translateModuleToLLVMIR(module, llvmContext);
  if (!m) {
    module.emitError("cannot translate the lowered model to LLVM IR");
    return nullptr;
  }
  m->setDataLayout(tm.createDataLayout());
  m->setTargetTriple(tm.getTargetTriple());
  std::string entryName = "_mlir_ciface_" + entryFunctionName(signature.name);
  llvm::Function *entry = m->getFunction(entryName);
  if (!entry) {
    module.emitError("the lowered model has no function ") << entryName;
    return nullptr;
  }
  // Only M_info and M_run are exported: the rest becomes internal so that
  // several models can be linked into one program.
  for (llvm::Function &f : *m)
    if (!f.isDeclaration())
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  for (llvm::GlobalVariable &g : m->globals())
    if (!g.isDeclaration())
      g.setLinkage(llvm::GlobalValue::InternalLinkage);
  storeResultsEarly(entry);
  std::string error;
  ABIEmitter abi(*m, signature);
  if (!abi.emit(entry, error)) {
    module.emitError(error);
    return nullptr;
  }
  // The training functions: internal M_train_*_info / _invoke, reached
  // through the exported M_train_info.
  if (!signature.training.empty()) {
    SmallVector<llvm::GlobalVariable *> infos;
    SmallVector<llvm::Function *> invokes;
    for (const codegen::ModelSignature &t : signature.training) {
      std::string name = "_mlir_ciface_" + entryFunctionName(t.name);
      llvm::Function *f = m->getFunction(name);
      if (f)
        storeResultsEarly(f);
      llvm::GlobalVariable *info = nullptr;
      llvm::Function *invoke = nullptr;
      if (!f || !ABIEmitter(*m, t).emit(f, error, /*exported=*/false, &info,
                                        &invoke)) {
        module.emitError(f ? error : "the lowered model has no function " + name);
        return nullptr;
      }
      infos.push_back(info);
      invokes.push_back(invoke);
    }
    abi.emitTrainInfo(infos, invokes);
  }
  std::string verifyErrors;
  llvm::raw_string_ostream os(verifyErrors);
  if (llvm::verifyModule(*m, &os)) {
    module.emitError("invalid LLVM IR: ") << verifyErrors;
    return nullptr;
  }
  return m;
}

void backend::optimizeModule(llvm::Module &module, llvm::TargetMachine &tm,
                             unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel == 0   ? llvm::OptimizationLevel::O0
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                                  : llvm::OptimizationLevel::O3;
  llvm::ModulePassManager mpm = optLevel == 0
                                    ? pb.buildO0DefaultPipeline(level)
                                    : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

bool backend::emitCode(llvm::Module &module, llvm::TargetMachine &tm,
                       llvm::raw_pwrite_stream &os, bool assembly,
                       std::string &error) {
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr,
                             assembly ? llvm::CodeGenFileType::AssemblyFile
                                      : llvm::CodeGenFileType::ObjectFile)) {
    error = "the target cannot emit this file type";
    return false;
  }
  pm.run(module);
  return true;
}
