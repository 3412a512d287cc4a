// A stub of TVM's UniqueNameSupply (0.25 on), for syntax-only compiles of fixed code.
#pragma once
#include <memory>
#include <tvm/ir/module.h>

namespace tvm {
struct UniqueNameSupplyNode {
  String FreshName(const String& name, bool add_prefix = true, bool add_underscore = true) {
    return name;
  }
  String ReserveName(const String& name, bool add_prefix = true) { return name; }
  bool ContainsName(const String& name, bool add_prefix = true) { return false; }
};
struct UniqueNameSupply {
  explicit UniqueNameSupply(const String& prefix = "") {}
  template <typename Iterator, typename Name>
  UniqueNameSupply(Iterator begin, Iterator end, Name name) {}
  UniqueNameSupplyNode* operator->() const { return node.get(); }
  std::shared_ptr<UniqueNameSupplyNode> node = std::make_shared<UniqueNameSupplyNode>();
};
}  // namespace tvm
