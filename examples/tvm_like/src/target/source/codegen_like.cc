/*!
 * \file codegen_like.cc
 */
#include "codegen_like.h"

namespace tvm {
namespace codegen {

std::string CodeGenLike::GetUniqueName(std::string prefix) {
  for (size_t i = 0; i < prefix.size(); ++i) {
    if (prefix[i] == '.') prefix[i] = '_';
  }
  auto it = name_alloc_map_.find(prefix);
  if (it != name_alloc_map_.end()) {
    while (true) {
      std::ostringstream os;
      os << prefix << (++it->second);
      std::string name = os.str();
      if (name_alloc_map_.count(name) == 0) {
        prefix = name;
        break;
      }
    }
  }
  name_alloc_map_[prefix] = 0;
  return prefix;
}

std::string CodeGenLike::AllocVarID(const std::string& hint) {
  std::string name = GetUniqueName(hint);
  GetUniqueName("extern_" + hint);
  return name;
}

}  // namespace codegen
}  // namespace tvm
