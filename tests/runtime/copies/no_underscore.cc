#include <sstream>
#include <string>
#include <unordered_map>

namespace tvm {
namespace codegen {

class SourcePrinter {
 public:
  std::string GetUniqueName(std::string name);

 private:
  /*! \brief name -> how many times it was handed out */
  std::unordered_map<std::string, int> name_count_;
};

std::string SourcePrinter::GetUniqueName(std::string name) {
  for (size_t i = 0; i < name.size(); ++i) {
    if (name[i] == '.') name[i] = '_';
  }
  if (name.empty()) name = "v";
  auto it = name_count_.find(name);
  if (it == name_count_.end()) {
    name_count_[name] = 0;
    return name;
  }
  std::string candidate = name;
  while (name_count_.count(candidate)) {
    std::ostringstream os;
    os << name << (++it->second);
    candidate = os.str();
  }
  name_count_[candidate] = 0;
  return candidate;
}

}  // namespace codegen
}  // namespace tvm
