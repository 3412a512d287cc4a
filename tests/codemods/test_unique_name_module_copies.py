"""GV2xx in C++: IRModuleNode's own GetUniqueName, unique among the module's functions,
becomes a GlobalVarSupply made from the module at each call (as TVM's #12066 did)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv.codemods.unique_names import Change, Skipped, plan_changes
from lintgv.config import Config
from lintgv.model import Applicability

HEADER = """\
class IRModuleNode : public Object {
 public:
  GlobalVar GetGlobalVar(const String& name) const;

  /*!
   * \\brief Returns a version of \\p name which is unique amongst all functions.
   */
  String GetUniqueName(const String& name);

  String Main() { return GetUniqueName("main"); }

  /*! \\brief A map from string names to global variables. */
  Map<String, GlobalVar> global_var_map_;
};
"""

SOURCE = """\
#include <tvm/ir/module.h>

namespace tvm {

String IRModuleNode::GetUniqueName(const String& name) {
  String result = name;
  int suffix = 0;
  while (true) {
    auto it = global_var_map_.find(result);
    if (it == global_var_map_.end()) {
      return result;
    }
    std::ostringstream os;
    os << name << "_" << ++suffix;
    result = os.str();
  }
}

}  // namespace tvm
"""

CALLER = """\
#include <tvm/ir/module.h>

namespace tvm {

GlobalVar Bind(IRModule mod, const String& given) {
  String gv_name = given;
  if (gv_name.empty()) {
    gv_name = mod->GetUniqueName("main");
  }
  return GlobalVar(gv_name);
}

}  // namespace tvm
"""


def _plan(files: dict[str, str], version: str | None = None) -> tuple[list[Change], list[Skipped]]:
    config = Config(root=Path("."), tvm_version=version) if version else Config(root=Path("."))
    return plan_changes(
        [Path(name) for name in files],
        lambda p: files.get(p.as_posix()),
        config_of=lambda _: config,
    )


def test_calls_ask_a_supply_made_from_the_module_and_the_copy_goes() -> None:
    [change], skipped = _plan({"module.h": HEADER, "module.cc": SOURCE, "bind.cc": CALLER})
    assert skipped == []
    assert change.helper == "IRModuleNode::GetUniqueName"
    assert change.title == (
        "Replace IRModuleNode::GetUniqueName with a GlobalVarSupply made from the module at "
        "each call"
    )
    assert change.applicability == Applicability.UNSAFE
    assert change.evidence.startswith("the supply turns a dot in a name into an underscore")
    assert change.sites == 2
    assert change.texts[Path("bind.cc")] == CALLER.replace(
        "#include <tvm/ir/module.h>\n",
        "#include <tvm/ir/global_var_supply.h>\n#include <tvm/ir/module.h>\n",
    ).replace(
        'mod->GetUniqueName("main")', 'GlobalVarSupply(mod)->FreshGlobal("main", false)->name_hint'
    )
    assert change.texts[Path("module.h")] == (
        "#include <tvm/ir/global_var_supply.h>\n\n"
        + HEADER.replace(HEADER[HEADER.index("  /*!") : HEADER.index("  String Main")], "").replace(
            'return GetUniqueName("main");',
            'return GlobalVarSupply(GetRef<IRModule>(this))->FreshGlobal("main", false)'
            "->name_hint;",
        )
    )
    assert change.texts[Path("module.cc")] == (
        "#include <tvm/ir/module.h>\n\nnamespace tvm {\n\n}  // namespace tvm\n"
    )


@pytest.mark.system("c++")
def test_a_rewritten_call_compiles(tmp_path: Path, syntax_errors: Callable[[Path], str]) -> None:
    [change], _ = _plan({"module.h": HEADER, "module.cc": SOURCE, "bind.cc": CALLER})
    source = tmp_path / "bind.cc"
    source.write_text(change.texts[Path("bind.cc")])
    assert syntax_errors(source) == ""


def test_from_release_0_25_there_is_no_global_var_supply_to_ask() -> None:
    changes, [skipped] = _plan({"module.h": HEADER, "module.cc": SOURCE}, version="0.25")
    assert changes == []
    assert skipped.reason.startswith(
        "it makes a name unique among the module's functions, and this TVM release has no "
        "GlobalVarSupply"
    )


def test_a_call_through_an_object_of_unknown_type_stops_the_change() -> None:
    caller = CALLER.replace("mod->GetUniqueName", "Global()->GetUniqueName")
    changes, [skipped] = _plan({"module.h": HEADER, "module.cc": SOURCE, "bind.cc": caller})
    assert changes == []
    assert skipped.reason == "cannot tell the type of `Global()` at bind.cc:8"


def test_a_copy_that_writes_the_module_names_is_left_as_it_was() -> None:
    writes = SOURCE.replace(
        "      return result;", "      global_var_map_.Set(result, {});\n      return result;"
    )
    changes, [skipped] = _plan({"module.h": HEADER, "module.cc": writes})
    assert changes == []
    assert skipped.reason == "it keeps no single name → counter map member"


def test_the_same_shape_in_another_class_is_not_taken_for_the_module() -> None:
    other = HEADER.replace("IRModuleNode", "LibraryNode")
    changes, [skipped] = _plan(
        {"module.h": other, "module.cc": SOURCE.replace("IRModuleNode", "LibraryNode")}
    )
    assert changes == []
    assert skipped.reason == "it keeps no single name → counter map member"
