"""GV2xx in C++: IRModuleNode's own GetUniqueName, unique among the module's functions,
becomes a GlobalVarSupply made from the module at each call (as TVM's #12066 did)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv.codemods.unique_names import Change, Skipped, plan_changes
from lintgv.config import Config, apply_settings
from lintgv.model import Applicability

HEADER = """\
namespace tvm {

class IRModuleNode : public Object {
 public:
  GlobalVar GetGlobalVar(const String& name) const;

  /*!
   * \\brief Returns a version of \\p name which is unique amongst all functions.
   */
  String GetUniqueName(const String& name);

  String Main();

  /*! \\brief A map from string names to global variables. */
  Map<String, GlobalVar> global_var_map_;
};

}  // namespace tvm
"""

COPY = """\
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

"""

SOURCE = f"""\
#include <tvm/ir/module.h>

namespace tvm {{

{COPY}String IRModuleNode::Main() {{ return GetUniqueName("main"); }}

}}  // namespace tvm
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

FILES = {"module.h": HEADER, "module.cc": SOURCE, "bind.cc": CALLER}


def _plan(files: dict[str, str], version: str | None = None) -> tuple[list[Change], list[Skipped]]:
    config = apply_settings(
        Config(root=Path(".")), {"tvm-version": version} if version else {}, None
    )
    return plan_changes(
        [Path(name) for name in files],
        lambda p: files.get(p.as_posix()),
        config_of=lambda _: config,
    )


def _left(files: dict[str, str], version: str | None = None) -> str:
    """Return why the copy is left as it is, when it is."""
    changes, [skipped] = _plan(files, version)
    assert changes == []
    assert skipped.helper == "IRModuleNode::GetUniqueName"
    return skipped.reason


def test_calls_ask_a_supply_made_from_the_module_and_the_copy_goes() -> None:
    [change], skipped = _plan(FILES)
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
    declaration = HEADER[HEADER.index("  /*!") : HEADER.index("  String Main")]
    assert change.texts[Path("module.h")] == HEADER.replace(declaration, "")
    assert change.texts[Path("module.cc")] == (
        SOURCE.replace(COPY, "")
        .replace(
            "#include <tvm/ir/module.h>\n",
            "#include <tvm/ir/global_var_supply.h>\n#include <tvm/ir/module.h>\n",
        )
        .replace(
            'return GetUniqueName("main");',
            'return GlobalVarSupply(GetRef<IRModule>(this))->FreshGlobal("main", false)'
            "->name_hint;",
        )
    )


@pytest.mark.system("c++")
def test_a_rewritten_call_compiles(tmp_path: Path, syntax_errors: Callable[[Path], str]) -> None:
    [change], _ = _plan(FILES)
    source = tmp_path / "bind.cc"
    source.write_text(change.texts[Path("bind.cc")])
    assert syntax_errors(source) == ""


@pytest.mark.parametrize(
    ("function", "call"),
    [
        ("String Use(IRModuleNode* node)", "GetRef<IRModule>(node)"),
        ("String Use(IRModuleNode& node)", "GetRef<IRModule>(&node)"),
    ],
)
def test_a_call_through_the_node_makes_the_module_of_it(function: str, call: str) -> None:
    operator = "->" if "*" in function else "."
    use = f'namespace tvm {{\n{function} {{ return node{operator}GetUniqueName("a"); }}\n}}\n'
    [change], _ = _plan({**FILES, "use.cc": use})
    assert (
        f'{{ return GlobalVarSupply({call})->FreshGlobal("a", false)->name_hint; }}'
        in (change.texts[Path("use.cc")])
    )


def test_a_derived_class_s_own_method_of_that_name_is_left_alone() -> None:
    derived = (
        "namespace tvm {\nclass MyModuleNode : public IRModuleNode {\n public:\n"
        '  String GetUniqueName(const String& n) { return "my_" + n; }\n'
        '  String Use() { return GetUniqueName("x"); }\n};\n}\n'
    )
    [change], _ = _plan({**FILES, "mine.h": derived})
    assert Path("mine.h") not in change.texts


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        (
            {"use.cc": 'String Use(IRModule m) { auto mod = m; return mod->GetUniqueName("b"); }'},
            "cannot tell what `mod` at use.cc:1 is, or name it as an IRModule",
        ),
        (
            {"use.cc": 'String Use() { return Global()->GetUniqueName("b"); }\n'},
            "cannot tell what `Global()` at use.cc:1 is, or name it as an IRModule",
        ),
        (
            {
                "module.h": HEADER.replace(
                    "String Main();", 'String Main() { return GetUniqueName("m"); }'
                )
            },
            "it is called at module.h:12, in the header or class body that defines "
            "`IRModuleNode`, where no GlobalVarSupply can be made; move that call out first",
        ),
        (
            {"module.h": HEADER.replace("String Main();", "String GetUniqueName(int n);")},
            "`IRModuleNode` declares 2 methods named `GetUniqueName`; an overloaded copy is "
            "left to a human",
        ),
        (
            {"use.cc": "#define NAME(m, x) m->GetUniqueName(x)\nvoid Use(IRModule mod);\n"},
            "`GetUniqueName` is named in a macro at use.cc:1",
        ),
    ],
    ids=["auto", "unknown", "in-class", "overloaded", "macro"],
)
def test_what_the_rewrite_cannot_see_through_stops_the_change(
    extra: dict[str, str], reason: str
) -> None:
    assert _left({**FILES, **extra}) == reason


def test_from_release_0_25_there_is_no_global_var_supply_to_ask() -> None:
    assert _left(FILES, version="0.25").startswith(
        "it makes a name unique among the module's functions, and this TVM release has no "
        "GlobalVarSupply"
    )


def test_a_copy_that_writes_the_module_names_is_left_as_it_was() -> None:
    writes = SOURCE.replace(
        "      return result;", "      global_var_map_.Set(result, {});\n      return result;"
    )
    assert _left({"module.h": HEADER, "module.cc": writes}) == (
        "it keeps no single name → counter map member"
    )


def test_a_copy_with_a_counter_that_also_reads_the_module_names_is_left_as_it_was() -> None:
    header = HEADER.replace(
        "  Map<String, GlobalVar>",
        "  std::unordered_map<std::string, int> used_;\n  Map<String, GlobalVar>",
    )
    source = SOURCE.replace(
        "    std::ostringstream os;", "    used_[result] = 1;\n    std::ostringstream os;"
    )
    assert _left({"module.h": header, "module.cc": source}) == (
        "it also looks names up among the module's functions (`global_var_map_`), which a "
        "NameSupply member would not"
    )


@pytest.mark.parametrize("rename", ["LibraryNode", "mylib"])
def test_the_same_shape_outside_tvm_s_class_is_not_taken_for_the_module(rename: str) -> None:
    header, source = HEADER, SOURCE
    if rename == "mylib":
        header, source = (
            header.replace("namespace tvm", "namespace mylib"),
            source.replace("namespace tvm", "namespace mylib"),
        )
    else:
        header, source = (
            header.replace("IRModuleNode", rename),
            source.replace("IRModuleNode", rename),
        )
    changes, [skipped] = _plan({"module.h": header, "module.cc": source})
    assert changes == []
    assert skipped.reason == "it keeps no single name → counter map member"
