// Lower a function to a module-level global (a fixture of the VS Code test).
#include <tvm/ir/module.h>

namespace tvm {
namespace relay {

GlobalVar LowerToGlobal(IRModule mod, BaseFunc func, String name) {
  GlobalVar gv(name);
  mod->Add(gv, func);
  return gv;
}

}  // namespace relay
}  // namespace tvm
