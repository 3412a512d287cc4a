// A stub of TVM's NameSupply (0.10 to 0.24), for syntax-only compiles of fixed code.
#pragma once
#include <memory>
#include <tvm/ir/module.h>

namespace tvm {
struct NameSupplyNode {
  String FreshName(const String& name, bool add_prefix = true) { return name; }
  String ReserveName(const String& name, bool add_prefix = true) { return name; }
  bool ContainsName(const String& name, bool add_prefix = true) { return false; }
};
struct NameSupply {
  explicit NameSupply(const String& prefix) {}
  NameSupplyNode* operator->() const { return node.get(); }
  std::shared_ptr<NameSupplyNode> node = std::make_shared<NameSupplyNode>();
};
}  // namespace tvm
