// A stub of TVM's IRModule, only as much as lintgv's fix examples use: for syntax-only
// compiles of fixed code (tests/codemods/test_fixes_compile.py). Not TVM's code.
#pragma once
#include <iostream>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#define ICHECK(condition) (condition) ? std::cerr : std::cerr
#define TVM_ATTRIBUTE_UNUSED __attribute__((unused))

namespace tvm {
using String = std::string;
namespace runtime { using String = std::string; }
namespace ffi { using String = std::string; }
struct Span {};
struct Type {};
namespace attr { inline constexpr const char* kGlobalSymbol = "global_symbol"; }
template <typename T>
struct Optional {
  T value() const { return T(); }
  bool defined() const { return false; }
  explicit operator bool() const { return false; }
};
template <typename T>
struct Array : std::vector<T> {};
struct BaseFuncNode {
  template <typename T>
  Optional<T> GetAttr(const char* key) const { return Optional<T>(); }
};
struct BaseFunc {
  const BaseFuncNode* operator->() const { return &node; }
  BaseFuncNode node;
};
struct Function : BaseFunc {};
struct PrimFunc : BaseFunc {};
struct GlobalVarNode { String name_hint; };
struct GlobalVar {
  GlobalVar() = default;
  explicit GlobalVar(String name, Type type = Type(), Span span = Span()) {}
  const GlobalVarNode* operator->() const { return &node; }
  GlobalVarNode node;
};
struct IRModuleNode {
  void Add(const GlobalVar& gv, const BaseFunc& f, bool update = false) {}
  GlobalVar GetGlobalVar(const String& name) const { return GlobalVar(name); }
  std::vector<std::pair<GlobalVar, BaseFunc>> functions;
};
struct IRModule {
  IRModuleNode* operator->() const { return node.get(); }
  bool defined() const { return true; }
  std::shared_ptr<IRModuleNode> node = std::make_shared<IRModuleNode>();
};
namespace relay { using tvm::GlobalVar; using tvm::Function; }
}  // namespace tvm
