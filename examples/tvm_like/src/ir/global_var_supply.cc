/*!
 * \file global_var_supply.cc
 * \brief The supply itself makes GlobalVars: allow-listed by its file name.
 */
#include <tvm/ir/global_var_supply.h>

namespace tvm {

GlobalVar GlobalVarSupplyNode::FreshGlobal(String name, bool add_prefix) {
  String final_name = name_supply_->FreshName(name, add_prefix);
  GlobalVar var = GlobalVar(final_name);
  name_to_var_map_.Set(final_name, var);
  return var;
}

}  // namespace tvm
