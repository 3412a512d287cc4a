"""An editor's next version of a C++ document reuses what rules worked out for the
regions an edit did not touch, and finds exactly what a fresh check finds."""

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lintgv_server.memory import DocumentMemory

from lintgv.config import Config
from lintgv.engine import check
from lintgv.model import Language, SourceFile
from lintgv.parsing.cpp import parse_cpp
from lintgv.parsing.cpp_regions import RegionMemo
from lintgv.rules.gv101_direct_global_var import DirectGlobalVarCpp

BASE = """#include <tvm/ir/module.h>
#include <unordered_map>

namespace tvm {
namespace relay {

// Lift each function into a global of its own.
IRModule Lift(IRModule mod, const Array<Function>& funcs) {
  for (const Function& f : funcs) {
    GlobalVar gv = GlobalVar("lifted");
    mod->Add(gv, f);
  }
  return mod;
}

class Lowerer {
 public:
  GlobalVar Lower(const Function& func);

 private:
  GlobalVarSupply global_var_supply_;
};

GlobalVar Lowerer::Lower(const Function& func) { return GlobalVar("lowered"); }

std::string GetUniqueName(std::string name) {
  while (name_map_.count(name)) {
    name = name + std::to_string(counter_++);
  }
  name_map_[name] = 1;
  return name;
}

void Use() { auto s = GetUniqueName("x"); auto t = GetUniqueName("x"); }

TVM_REGISTER_GLOBAL("relay.Lift").set_body_typed([](IRModule m) { return Lift(m, {}); });

#ifdef TVM_LLVM_VERSION
static GlobalVar g = GlobalVar("llvm");
#endif
}  // namespace relay
}  // namespace tvm
"""
PIECES = [
    'GlobalVar x("f");',
    "  mod->Add(GlobalVar(name), f);\n",
    "\n",
    "{",
    "}",
    "é",
    "// note\n",
    "#define M(x) x\n",
    "MACRO(y)\n",
    "int y;",
    ")",
    "class Lowerer { GlobalVarSupply other_; };\n",
    "std::string Fresh(std::string n) { if (seen.count(n)) return n + std::to_string(i++); }\n",
]


def _versions(start: int, cut: int, pieces: list[str]) -> list[str]:
    edited = BASE[:start] + "".join(pieces) + BASE[start + cut :]
    return [BASE, edited, BASE, edited]


@settings(max_examples=120, deadline=None)
@given(
    st.integers(0, len(BASE)),
    st.integers(0, 60),
    st.lists(st.sampled_from(PIECES), max_size=3),
)
def test_each_version_checked_with_the_memo_matches_a_fresh_check(
    start: int, cut: int, pieces: list[str]
) -> None:
    path = Path("/project/src/lift.cc")
    config = Config(root=Path("/project"))
    memory = DocumentMemory()
    for text in _versions(start, cut, pieces):
        source = SourceFile(path, Language.CPP, text)
        assert check(source, config, reuse=memory) == check(source, config)


def test_an_untouched_region_is_not_checked_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = Config(root=tmp_path)
    memory = DocumentMemory()
    path = tmp_path / "lift.cc"
    checked: list[list[tuple[int, int]]] = []
    original = DirectGlobalVarCpp.check

    def spy(self: DirectGlobalVarCpp, ranges: list[tuple[int, int]]) -> None:
        lines = self.parsed.line_of_byte
        checked.append([(lines(start), lines(end)) for start, end in ranges])
        original(self, ranges)

    monkeypatch.setattr(DirectGlobalVarCpp, "check", spy)
    first = check(SourceFile(path, Language.CPP, BASE), config, reuse=memory)
    edited = BASE.replace("  return mod;\n}\n", '  GlobalVar late("late");\n  return mod;\n}\n', 1)
    second = check(SourceFile(path, Language.CPP, edited), config, reuse=memory)
    assert len(second.findings) == len(first.findings) + 1
    # The first version is checked whole; the second only in the function edited, and in
    # the out-of-class method, whose findings depend on a class elsewhere in the file.
    assert checked[0] == [(1, 42)]
    assert checked[1] == [(7, 15), (25, 25)]


def test_regions_join_declarations_that_share_a_line_and_comments_above_them() -> None:
    text = (
        "#include <a.h>\n#include <b.h>\n\nnamespace n {\n// About f.\n// More.\nint f();\n"
        "int g(); int h();\n\n// Alone.\n\nint k();\n}  // namespace n\n"
    )
    regions = parse_cpp(text).regions
    assert [(r.first_line, r.last_line) for r in regions] == [
        (1, 1),
        (2, 2),
        (5, 7),
        (8, 8),
        (10, 10),
        (12, 12),
        (13, 13),
    ]
    keys = [r.key for r in regions]
    moved = parse_cpp("\n\n" + text).regions
    assert [r.key for r in moved] == keys  # two lines down, the same regions
    assert [r.first_line for r in moved] == [r.first_line + 2 for r in regions]
    for changed in ("long k();", "  int k();"):  # other text, or the same at another column
        keys_now = [r.key for r in parse_cpp(text.replace("int k();", changed)).regions]
        assert [a == b for a, b in zip(keys_now, keys, strict=True)] == [True] * 5 + [False, True]


def test_a_rule_keeps_its_values_through_versions_it_did_not_run_on() -> None:
    memo = RegionMemo()
    memo.next_version()
    memo.table("GV101").put("region", ("finding",))
    memo.table("units").put("region", ())
    memo.next_version()
    assert memo.table("units").get("region") == ()
    memo.next_version()  # GV101 did not run on the version before: its values stay
    assert memo.table("GV101").get("region") == ("finding",)
    assert memo.table("units").get("region") == ()
    memo.next_version()
    memo.next_version()
    memo.table("units").get("other")  # units ran on a version that did not have the region
    memo.next_version()
    assert memo.table("units").get("region") is None
