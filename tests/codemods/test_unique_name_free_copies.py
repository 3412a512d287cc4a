"""GV2xx in C++: a free GetUniqueName that takes its map from each caller becomes a
NameSupply in place of each caller's map, across files (TVM's relay::tec shape)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from lintgv.codemods.unique_names import Change, Skipped, plan_changes
from lintgv.config import Config
from lintgv.model import Applicability
from lintgv.release import Release
from lintgv.rewrite_validation import copy_of_change

FIXTURES = Path(__file__).parent.parent / "fixtures"
SOURCE = FIXTURES / "fix_free_unique_name" / "src"
EXPECTED = FIXTURES / "fix_free_unique_name_fixed" / "src"

MAP = "std::unordered_map<std::string, int>"
COPY = """\
#include <string>
#include <unordered_map>

std::string GetUniqueName(std::string name, std::unordered_map<std::string, int>* name_map) {
  auto it = name_map->find(name);
  if (it == name_map->end()) {
    (*name_map)[name] = 1;
    return name;
  }
  return name + "_" + std::to_string(it->second++);
}
"""


def _plan(files: dict[str, str]) -> tuple[list[Change], list[Skipped]]:
    return plan_changes([Path(name) for name in files], lambda p: files.get(p.as_posix()))


def _fixture_change() -> Change:
    changes, skipped = plan_changes(sorted(SOURCE.iterdir()), lambda p: p.read_text())
    assert skipped == []
    [change] = changes
    return change


def test_the_fixture_project_becomes_the_expected_one() -> None:
    change = _fixture_change()
    assert change.helper == "tvm::tec::GetUniqueName"
    assert change.title == (
        "Replace tvm::tec::GetUniqueName with a NameSupply in place of each caller's map"
    )
    assert change.applicability == Applicability.UNSAFE
    assert change.sites == 3
    assert {p.name for p in change.texts} == {"cache.h", "cache.cc", "compiler.cc", "tasks.cc"}
    for path in SOURCE.iterdir():
        assert change.texts.get(path, path.read_text()) == (EXPECTED / path.name).read_text()


@pytest.mark.system("c++")
@pytest.mark.parametrize("name", ["cache.cc", "compiler.cc", "tasks.cc"])
def test_each_changed_file_compiles(
    tmp_path: Path, name: str, syntax_errors: Callable[[Path], str]
) -> None:
    for path in EXPECTED.iterdir():
        (tmp_path / path.name).write_text(path.read_text())
    assert syntax_errors(tmp_path / name) == ""


def test_the_change_keeps_the_copy_for_the_name_proof() -> None:
    copy = _fixture_change().copy
    assert copy is not None
    harness = copy_of_change(copy)
    assert (harness.helper, harness.path.name, harness.line) == ("GetUniqueName", "cache.cc", 15)
    assert harness.blocked is None
    # The harness keeps the map and hands it over as each caller did.
    assert harness.members == (("lintgv_arg1", "std::unordered_map<std::string, int>"),)
    assert harness.arguments == ("&h->lintgv_arg1",)


def test_from_release_0_25_the_supply_is_a_unique_name_supply() -> None:
    files = {
        "copy.cc": COPY,
        "use.cc": (
            "void Use() {\n  std::unordered_map<std::string, int> names;\n"
            '  GetUniqueName("a", &names);\n}\n'
        ),
    }
    config = Config(root=Path("."), release=Release(26, "0.26"))
    [change], _ = plan_changes(
        [Path(p) for p in files], lambda p: files[p.as_posix()], config_of=lambda _: config
    )
    assert change.texts[Path("use.cc")] == (
        "#include <tvm/ir/unique_name_supply.h>\n\n"
        'void Use() {\n  tvm::UniqueNameSupply name_supply = tvm::UniqueNameSupply("");\n'
        '  name_supply->ReserveName("a");\n}\n'
    )


def test_a_taken_supply_name_gives_way_to_one_made_of_the_map() -> None:
    files = {
        "copy.cc": COPY,
        "use.cc": (
            "std::string Use(int name_supply) {\n"
            "  std::unordered_map<std::string, int> seen;\n"
            '  return GetUniqueName("a", &seen);\n}\n'
        ),
    }
    [change], _ = _plan(files)
    text = change.texts[Path("use.cc")]
    assert '  tvm::NameSupply seen_supply = tvm::NameSupply("");\n' in text
    assert '  return seen_supply->FreshName("a");\n' in text


@pytest.mark.parametrize(
    ("caller", "reason"),
    [
        (
            "std::string Use(std::unordered_map<std::string, int>* names) {\n"
            '  return GetUniqueName("a", names);\n}\n',
            "the call at use.cc:2 hands on a map it did not declare (`names`)",
        ),
        (
            "std::string Use(std::unordered_map<std::string, int>& names) {\n"
            '  return GetUniqueName("a", &names);\n}\n',
            "the call at use.cc:2 hands on the map `names` its caller gave",
        ),
        (
            "int Use() {\n  std::unordered_map<std::string, int> names;\n"
            '  GetUniqueName("a", &names);\n  return names.size();\n}\n',
            "the map `names` is also used at use.cc:4 (`names.size`); replace it by hand",
        ),
        (
            "void Use() {\n  std::unordered_map<std::string, int> names, other;\n"
            '  GetUniqueName("a", &names);\n}\n',
            "the map `names` at use.cc:2 is not declared alone as a name → counter map",
        ),
        (
            "void Use() {\n  static std::unordered_map<std::string, int> names;\n"
            '  GetUniqueName("a", &names);\n}\n',
            "the map `names` at use.cc:2 is static, shared by every caller; a supply in its "
            "place would not be",
        ),
        (
            "auto renamer = &GetUniqueName;\n",
            "`GetUniqueName` is used at use.cc:1 other than in a call",
        ),
        (
            "void Use() {\n  std::unordered_map<std::string, int> names;\n"
            '  names["b"] = 2;\n  GetUniqueName("a", &names);\n}\n',
            'the map `names` is also used at use.cc:3 (`names["b"]`); replace it by hand',
        ),
        (
            "std::string Use() {\n"
            '  std::unordered_map<std::string, int> names = {{"main", 1}};\n'
            '  return GetUniqueName("a", &names);\n}\n',
            "the map `names` at use.cc:2 starts with entries, which a new supply would not",
        ),
        (
            'class C {\n  std::string A() { return GetUniqueName("a", &names_); }\n'
            '  std::unordered_map<std::string, int> names_{{"main", 1}};\n};\n',
            "the map `names_` at use.cc:3 starts with entries, which a new supply would not",
        ),
        (
            "std::string Use(Ctx* ctx) {\n"
            "  std::unordered_map<std::string, int>& names = ctx->names;\n"
            '  return GetUniqueName("a", &names);\n}\n',
            "the map `names` at use.cc:2 refers to a map kept elsewhere",
        ),
        (
            "void Use() {\n  std::unordered_map<std::string, int> names;\n"
            '  auto f = [names]() mutable { return GetUniqueName("a", &names); };\n}\n',
            "the map `names` is captured by value at use.cc:3; a supply in its place would be "
            "shared, not copied",
        ),
        (
            "#define UNIQ(x, m) GetUniqueName(x, m)\n",
            "`GetUniqueName` is named in a macro at use.cc:1",
        ),
        (
            "#define TAKEN(x) names[x]\nvoid Use() {\n"
            "  std::unordered_map<std::string, int> names;\n"
            '  GetUniqueName("a", &names);\n}\n',
            "the map `names` is named in a macro at use.cc:1",
        ),
        (
            'class C {\n  std::string A() { return GetUniqueName("a", &names_); }\n'
            "  std::unordered_map<std::string, int> names_;\n"
            "  size_t first_ = names_.size();\n};\n",
            "the map `names_` is also used at use.cc:4 (`names_.size`); replace it by hand",
        ),
        (
            'class C {\n  std::string A() { return GetUniqueName("a", &names_); }\n'
            "  std::unordered_map<std::string, int> names_;\n};\n"
            "int Count(C* c) { return c->names_.size(); }\n",
            "the map `names_` is used through another object at use.cc:5; replace it by hand",
        ),
        (
            "namespace elsewhere {\nvoid Use() {\n  std::unordered_map<std::string, int> m;\n"
            '  other::GetUniqueName("a", &m);\n}\n}\n',
            "cannot tell which `GetUniqueName` the call at use.cc:4 calls",
        ),
    ],
    ids=[
        "pointer-handed-on",
        "parameter-handed-on",
        "other-use",
        "declared-with-another",
        "static",
        "address-taken",
        "other-mark",
        "initial-entries",
        "member-initial-entries",
        "a-reference",
        "captured-by-value",
        "in-a-macro",
        "map-in-a-macro",
        "used-outside-methods",
        "through-another-object",
        "unknown-function",
    ],
)
def test_what_a_supply_cannot_replace_stops_the_change(caller: str, reason: str) -> None:
    changes, [skipped] = _plan({"copy.cc": COPY, "use.cc": caller})
    assert changes == []
    assert (skipped.helper, skipped.path, skipped.line) == ("GetUniqueName", Path("copy.cc"), 4)
    assert skipped.reason == reason


def test_a_same_named_method_with_its_own_parameters_is_not_a_call_of_the_copy() -> None:
    printer = (
        'class Printer {\n public:\n  std::string Name() { return GetUniqueName("x"); }\n'
        "  std::string GetUniqueName(const std::string& prefix);\n};\n"
    )
    files = {
        "copy.cc": COPY,
        "printer.h": printer,
        "use.cc": (
            "void Use() {\n  std::unordered_map<std::string, int> names;\n"
            '  GetUniqueName("a", &names);\n}\n'
        ),
    }
    [change], _ = _plan(files)
    assert Path("printer.h") not in change.texts
    assert change.sites == 1


@pytest.mark.parametrize("extra", ["std::string prefix, ", "int* count, "])
def test_a_free_copy_taking_more_than_name_and_map_is_left_to_a_human(extra: str) -> None:
    code = COPY.replace("(std::string name, ", f"(std::string name, {extra}")
    changes, [skipped] = _plan({"copy.cc": code})
    assert changes == []
    assert skipped.reason == (
        "a free function that takes its map from each caller with more than a name"
    )


def test_a_free_copy_taking_the_map_by_value_is_left_to_a_human() -> None:
    code = COPY.replace("int>* name_map", "int> name_map").replace("->", ".")
    changes, [skipped] = _plan({"copy.cc": code})
    assert changes == []
    assert skipped.reason == "a free function that takes a copy of its callers' map"


def test_two_maps_in_one_place_get_two_supplies_and_one_include() -> None:
    caller = (
        "std::string Use(const std::string& x) {\n"
        "  std::unordered_map<std::string, int> a;\n"
        "  std::unordered_map<std::string, int> b;\n"
        "  return GetUniqueName(x, &a) + GetUniqueName(x, &b);\n}\n"
    )
    [change], _ = _plan({"copy.cc": COPY, "use.cc": caller})
    assert change.texts[Path("use.cc")] == (
        "#include <tvm/ir/name_supply.h>\n\n"
        "std::string Use(const std::string& x) {\n"
        '  tvm::NameSupply name_supply = tvm::NameSupply("");\n'
        '  tvm::NameSupply b_supply = tvm::NameSupply("");\n'
        "  return name_supply->FreshName(x) + b_supply->FreshName(x);\n}\n"
    )


def test_a_mutable_map_gives_way_to_a_mutable_supply() -> None:
    caller = (
        "class C {\n public:\n"
        "  std::string A(const std::string& x) const { return GetUniqueName(x, &names_); }\n"
        "  void Reset() const { names_.clear(); }\n\n private:\n"
        "  mutable std::unordered_map<std::string, int> names_;\n};\n"
    )
    [change], _ = _plan({"copy.cc": COPY, "use.cc": caller})
    text = change.texts[Path("use.cc")]
    assert '  mutable tvm::NameSupply name_supply_ = tvm::NameSupply("");\n' in text
    assert '  void Reset() const { name_supply_ = tvm::NameSupply(""); }\n' in text


def test_a_shadowing_map_in_an_inner_block_is_the_one_replaced() -> None:
    caller = (
        "std::string Use(const std::string& x) {\n"
        "  std::unordered_map<std::string, int> m;\n"
        '  m["keep"] = 2;\n'
        "  {\n    std::unordered_map<std::string, int> m;\n"
        "    return GetUniqueName(x, &m);\n  }\n}\n"
    )
    [change], _ = _plan({"copy.cc": COPY, "use.cc": caller})
    text = change.texts[Path("use.cc")]
    assert '  std::unordered_map<std::string, int> m;\n  m["keep"] = 2;\n' in text
    assert '    tvm::NameSupply name_supply = tvm::NameSupply("");\n' in text


def test_calls_of_other_functions_of_that_name_are_left_alone() -> None:
    # Another namespace's function, a class's static method, and a method that hides
    # the copy inside its own class: none of them is the copy.
    files = {
        "copy.cc": f"namespace tvm {{\n{COPY}}}\n",
        "other.h": (
            "namespace other {\n"
            "std::string GetUniqueName(std::string n, std::unordered_map<std::string, int>* m);\n"
            "}\n"
        ),
        "use.cc": (
            "namespace tvm {\nstruct Util {\n"
            f"  static std::string GetUniqueName(std::string n, {MAP}* m);\n"
            f'  std::string Own() {{ {MAP} m; return GetUniqueName("o", &m); }}\n'
            "};\n"
            "std::string Use(const std::string& x) {\n"
            "  std::unordered_map<std::string, int> mine, theirs, util;\n"
            "  std::unordered_map<std::string, int> ours;\n"
            "  return GetUniqueName(x, &ours) + other::GetUniqueName(x, &theirs) +\n"
            "         Util::GetUniqueName(x, &util);\n}\n}\n"
        ),
    }
    [change], _ = _plan(files)
    assert change.sites == 1
    assert Path("other.h") not in change.texts
    text = change.texts[Path("use.cc")]
    assert "name_supply->FreshName(x) + other::GetUniqueName(x, &theirs) +" in text
    assert "Util::GetUniqueName(x, &util);" in text
    assert 'return GetUniqueName("o", &m); }' in text


def test_a_derived_class_s_own_map_of_that_name_is_not_the_base_s() -> None:
    caller = (
        "class Base {\n public:\n"
        "  std::string Lower(const std::string& x) { return GetUniqueName(x, &name_map_); }\n"
        " protected:\n  std::unordered_map<std::string, int> name_map_;\n};\n"
        "class Derived : public Base {\n public:\n"
        "  void Mark(const std::string& x) { name_map_[x] = 1; }\n"
        " private:\n  std::unordered_map<std::string, int> name_map_;\n};\n"
    )
    [change], _ = _plan({"copy.cc": COPY, "use.cc": caller})
    text = change.texts[Path("use.cc")]
    assert "  void Mark(const std::string& x) { name_map_[x] = 1; }\n" in text
    assert text.count("std::unordered_map<std::string, int> name_map_;") == 1


def test_a_supply_name_a_base_class_uses_is_not_taken_again() -> None:
    header = (
        'class Base {\n protected:\n  NameSupply name_supply_ = NameSupply("base");\n};\n'
        "class Derived : public Base {\n public:\n  std::string Lower(const std::string& x);\n"
        "  std::string Other(const std::string& x);\n"
        " private:\n  std::unordered_map<std::string, int> name_map_;\n};\n"
    )
    source = (
        '#include "derived.h"\n'
        "std::string Derived::Lower(const std::string& x) {\n"
        "  return GetUniqueName(x, &name_map_);\n}\n"
        "std::string Derived::Other(const std::string& x) { return name_supply_->FreshName(x); }\n"
    )
    [change], _ = _plan({"copy.cc": COPY, "derived.h": header, "derived.cc": source})
    assert (
        '  tvm::NameSupply name_map_supply_ = tvm::NameSupply("");\n'
        in change.texts[Path("derived.h")]
    )
    assert "{ return name_supply_->FreshName(x); }" in change.texts[Path("derived.cc")]
    assert "  return name_map_supply_->FreshName(x);\n" in change.texts[Path("derived.cc")]


def test_outside_namespace_tvm_the_supply_is_named_with_its_namespace() -> None:
    caller = (
        "namespace mine {\nstd::string Use(const std::string& x) {\n"
        f"  {MAP} m;\n  return GetUniqueName(x, &m);\n}}\n}}\n"
    )
    [change], _ = _plan({"copy.cc": COPY, "use.cc": caller})
    assert '  tvm::NameSupply name_supply = tvm::NameSupply("");\n' in change.texts[Path("use.cc")]


def test_copies_of_one_name_in_two_namespaces_are_two_changes() -> None:
    copies = f"namespace a {{\n{COPY}}}\nnamespace b {{\n{COPY}}}\n"
    caller = (
        "std::string Use(const std::string& x) {\n"
        f"  {MAP} ma;\n  {MAP} mb;\n"
        "  return a::GetUniqueName(x, &ma) + b::GetUniqueName(x, &mb);\n}\n"
    )
    changes, skipped = _plan({"copies.h": copies, "use.cc": caller})
    assert skipped == []
    assert sorted(c.helper for c in changes) == ["a::GetUniqueName", "b::GetUniqueName"]
