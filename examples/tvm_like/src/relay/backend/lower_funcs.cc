/*!
 * \file lower_funcs.cc
 * \brief Lower primitive functions into globals of the module.
 */
#include <tvm/ir/module.h>
#include <tvm/relay/function.h>

namespace tvm {
namespace relay {

class FunctionLowerer {
 public:
  explicit FunctionLowerer(IRModule mod) : mod_(mod) {}

  GlobalVar Lower(const Function& func, const String& name) {
    GlobalVar global_var(name);
    mod_->Add(global_var, func);
    return global_var;
  }

  GlobalVar LowerShared(const Function& func) {
    auto symbol = func->GetAttr<String>(tvm::attr::kGlobalSymbol);
    GlobalVar shared = tvm::GlobalVar(
        symbol.value());
    mod_->Add(shared, func);
    return shared;
  }

  Function Rename(Function func, const String& symbol) {
    // Overwrites the symbol the function was lowered under.
    return WithAttr(std::move(func), tvm::attr::kGlobalSymbol, symbol);
  }

  Function MakeInternal(Function func) {
    return WithoutAttr(std::move(func), tvm::attr::kGlobalSymbol);
  }

  // Null references, types and lookups are not constructions.
  bool Has(const GlobalVar& var, const Map<GlobalVar, BaseFunc>& funcs) const {
    GlobalVar unset;
    return funcs.count(var) && var.as<GlobalVarNode>() != nullptr && !unset.defined();
  }

 private:
  IRModule mod_;
};

}  // namespace relay
}  // namespace tvm
