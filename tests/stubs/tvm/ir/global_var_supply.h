// A stub of TVM's GlobalVarSupply (0.10 to 0.24), for syntax-only compiles of fixed code.
#pragma once
#include <memory>
#include <tvm/ir/module.h>
#include <tvm/ir/name_supply.h>

namespace tvm {
struct GlobalVarSupplyNode {
  GlobalVar FreshGlobal(String name, bool add_prefix = true) { return GlobalVar(name); }
  GlobalVar UniqueGlobalFor(const String& name, bool add_prefix = true) { return GlobalVar(name); }
};
struct GlobalVarSupply {
  explicit GlobalVarSupply(const IRModule& mod) {}
  explicit GlobalVarSupply(const NameSupply& names) {}
  GlobalVarSupplyNode* operator->() const { return node.get(); }
  std::shared_ptr<GlobalVarSupplyNode> node = std::make_shared<GlobalVarSupplyNode>();
};
}  // namespace tvm
