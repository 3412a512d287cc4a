/*!
 * \file codegen_like.h
 * \brief A C-like code generator that names variables itself.
 */
#ifndef TVM_LIKE_TARGET_SOURCE_CODEGEN_LIKE_H_
#define TVM_LIKE_TARGET_SOURCE_CODEGEN_LIKE_H_

#include <string>
#include <unordered_map>

namespace tvm {
namespace codegen {

class CodeGenLike {
 public:
  std::string AllocVarID(const std::string& hint);

 protected:
  std::string GetUniqueName(std::string prefix);

 private:
  std::unordered_map<std::string, int> name_alloc_map_;
};

}  // namespace codegen
}  // namespace tvm

#endif  // TVM_LIKE_TARGET_SOURCE_CODEGEN_LIKE_H_
