"""The C++ text a copy is compiled with: stand-ins for the TVM types copies use."""

PRELUDE = r"""
#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <iostream>
#include <map>
#include <set>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

namespace tvm {
// TVM's String converts to and from std::string; a subclass gives the same spelling.
struct String : std::string {
  String() = default;
  String(const std::string& s) : std::string(s) {}
  String(const char* s) : std::string(s) {}
  bool defined() const { return true; }
};
namespace runtime {
using tvm::String;
}
// The value of a name-keyed map the copy never reads (a GlobalVar, a Buffer, ...).
struct LintgvOpaque {};
template <typename K, typename V>
struct Map : std::unordered_map<K, V> {
  void Set(const K& k, const V& v) { (*this)[k] = v; }
};
namespace ffi {
using tvm::String;
template <typename K, typename V>
using Map = tvm::Map<K, V>;
}  // namespace ffi
struct Doc {
  std::string text;
  static Doc Text(const std::string& s) {
    Doc d;
    d.text = s;
    return d;
  }
};
struct LintgvSink {
  template <typename T>
  LintgvSink& operator<<(const T&) { return *this; }
};
}  // namespace tvm
namespace std {
template <>
struct hash<tvm::String> : hash<std::string> {};
}  // namespace std
#define TVM_DLL
#define TVM_FFI_ICHECK ICHECK
#define ICHECK_EQ(a, b) ICHECK((a) == (b))
#define TVM_FFI_ICHECK_EQ(a, b) ICHECK((a) == (b))
#define ICHECK_NE(a, b) ICHECK((a) != (b))
#define TVM_FFI_ICHECK_NE(a, b) ICHECK((a) != (b))
#define ICHECK_LT(a, b) ICHECK((a) < (b))
#define TVM_FFI_ICHECK_LT(a, b) ICHECK((a) < (b))
#define ICHECK_LE(a, b) ICHECK((a) <= (b))
#define TVM_FFI_ICHECK_LE(a, b) ICHECK((a) <= (b))
#define ICHECK_GT(a, b) ICHECK((a) > (b))
#define TVM_FFI_ICHECK_GT(a, b) ICHECK((a) > (b))
#define ICHECK_GE(a, b) ICHECK((a) >= (b))
#define TVM_FFI_ICHECK_GE(a, b) ICHECK((a) >= (b))
#define ICHECK(cond) \
  if (!(cond)) throw std::runtime_error("ICHECK failed: " #cond); else tvm::LintgvSink()
using namespace tvm;
using std::string;

static std::string lintgv_text(const std::string& s) { return s; }
static std::string lintgv_text(const tvm::Doc& d) { return d.text; }
"""
