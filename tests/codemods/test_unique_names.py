"""GV2xx in C++: a GetUniqueName copy replaced by one NameSupply member, across files."""

from pathlib import Path

import pytest

from lintgv import holding as holding_module
from lintgv.codemods.unique_names import Change, Skipped, plan_changes
from lintgv.config import Config
from lintgv.holding import CppParses, Holding
from lintgv.model import Applicability
from lintgv.parsing.cpp import ParsedCpp, parse_cpp
from lintgv.release import Release

FIXTURES = Path(__file__).parent.parent / "fixtures"


def _plan(files: dict[str, str]) -> tuple[list[Change], list[Skipped]]:
    paths = [Path(name) for name in files]
    return plan_changes(paths, lambda p: files.get(p.as_posix()))


def test_the_fixture_project_becomes_the_expected_one() -> None:
    source = FIXTURES / "fix_unique_names" / "src"
    expected = FIXTURES / "fix_unique_names_fixed" / "src"
    changes, skipped = plan_changes(sorted(source.iterdir()), lambda p: p.read_text())
    [change] = changes
    assert change.helper == "CodeGenBase::GetUniqueName"
    assert change.applicability == Applicability.UNSAFE
    assert change.sites == 4
    for path in source.iterdir():
        assert change.texts.get(path, path.read_text()) == (expected / path.name).read_text()
    # The printer's GetUniqueName only returns `Doc()`: a wrapper, as GV201 judges it.
    assert skipped == []


PRINTER_H = """\
class RelayPrinter {
 public:
  Doc GetUniqueName(const std::string& prefix);
  Doc AllocVar(const Var& var) { return GetUniqueName(var->name_hint); }

 private:
  /*! \\brief name allocation map */
  std::unordered_map<std::string, int> name_alloc_map_;
};
"""

PRINTER_CC = """\
#include "printer.h"

/*! \\brief get a unique name with the corresponding prefix */
Doc RelayPrinter::GetUniqueName(const std::string& prefix) {
  std::string unique_prefix = prefix;
  auto it = name_alloc_map_.find(prefix);
  if (it != name_alloc_map_.end()) {
    // numbered from one
    while (name_alloc_map_.count(unique_prefix = prefix + std::to_string(++it->second)) > 0) {
    }
  }
  name_alloc_map_[unique_prefix] = 0;
  return Doc::Text(unique_prefix);
}
"""


def test_a_copy_returning_a_doc_of_its_name_becomes_a_wrapper_of_the_supply() -> None:
    files = {"printer.h": PRINTER_H, "printer.cc": PRINTER_CC}
    [change], skipped = _plan(files)
    assert skipped == []
    assert change.title == (
        "Make RelayPrinter::GetUniqueName a wrapper of a NameSupply member `name_supply_`"
    )
    assert change.sites == 0  # its calls stay: they get a Doc
    assert change.texts[Path("printer.cc")] == (
        '#include "printer.h"\n\n'
        "/*! \\brief get a unique name with the corresponding prefix */\n"
        "Doc RelayPrinter::GetUniqueName(const std::string& prefix) {\n"
        "  return Doc::Text(name_supply_->FreshName(prefix));\n"
        "}\n"
    )
    header = change.texts[Path("printer.h")]
    assert header.startswith("#include <tvm/ir/name_supply.h>\n\n")
    assert '  tvm::NameSupply name_supply_ = tvm::NameSupply("");\n' in header
    assert "Doc GetUniqueName(const std::string& prefix);" in header
    assert "return GetUniqueName(var->name_hint);" in header
    # The wrapper is no copy: planning again on the result finds nothing to change.
    assert _plan({str(p): t for p, t in change.texts.items()}) == ([], [])


@pytest.mark.parametrize("where", ["first", "after"])
def test_a_copy_that_first_turns_dots_into_underscores_loses_nothing_as_a_wrapper(
    where: str,
) -> None:
    # Every release's supply does that itself (TVMScriptPrinter's copy starts so); done
    # after the uniquing it would be lost.
    by_value = PRINTER_CC.replace("const std::string& prefix", "std::string prefix")
    cleaning = "  std::replace(prefix.begin(), prefix.end(), '.', '_');\n"
    if where == "first":
        code = by_value.replace(
            "  std::string unique_prefix = prefix;\n",
            cleaning + "  std::string unique_prefix = prefix;\n",
        )
    else:
        code = by_value.replace(
            "  name_alloc_map_[unique_prefix] = 0;\n",
            "  name_alloc_map_[unique_prefix] = 0;\n" + cleaning,
        )
    header = PRINTER_H.replace("const std::string& prefix", "std::string prefix")
    changes, skipped = _plan({"printer.h": header, "printer.cc": code})
    if where == "first":
        assert skipped == []
        assert (
            "  return Doc::Text(name_supply_->FreshName(prefix));\n"
            in changes[0].texts[Path("printer.cc")]
        )
    else:
        assert changes == []
        assert [s.reason for s in skipped] == [
            "it does more than unique the name (`std::replace(prefix.begin(), prefix.end(), "
            "'.', '_');`); a wrapper would lose it"
        ]


def test_a_copy_returning_something_else_is_left_with_the_reason() -> None:
    code = PRINTER_CC.replace(
        "return Doc::Text(unique_prefix);", "return Doc::Text(1, unique_prefix);"
    )
    changes, skipped = _plan({"printer.h": PRINTER_H, "printer.cc": code})
    assert changes == []
    assert [s.reason for s in skipped] == [
        "it returns `Doc`, not a string, and not as one call of its name "
        "(`return Doc::Text(name);`); a NameSupply returns String"
    ]


MEMBER = """\
struct Info {
  /*! \\brief The count map to make block names unique. */
  std::unordered_map<String, int> name_count;

  String GetUniqueName(const String& prefix) {
    String unique = prefix;
    while (name_count.count(unique)) unique = prefix + "_" + std::to_string(++name_count[prefix]);
    name_count[unique] = 0;
    return unique;
  }
};

void Lower(Info* info, const Op& op) {
  auto name = info->GetUniqueName(op->name);
}
"""


def test_an_in_class_copy_called_through_a_pointer_becomes_a_member() -> None:
    [change], _ = _plan({"info.cc": MEMBER})
    assert change.texts[Path("info.cc")] == (
        "#include <tvm/ir/name_supply.h>\n\n"
        "struct Info {\n"
        "  /*! \\brief The count map to make block names unique. */\n"
        '  tvm::NameSupply name_supply_ = tvm::NameSupply("");\n'
        "};\n\n"
        "void Lower(Info* info, const Op& op) {\n"
        "  auto name = info->name_supply_->FreshName(op->name);\n"
        "}\n"
    )


def test_from_tvm_0_25_the_member_is_a_unique_name_supply_from_its_own_header() -> None:
    config = Config(root=Path("."), release=Release(26, "0.26"))
    [change], _ = plan_changes([Path("info.cc")], lambda p: MEMBER, config_of=lambda path: config)
    text = change.texts[Path("info.cc")]
    assert text.startswith("#include <tvm/ir/unique_name_supply.h>\n\n")
    assert '  tvm::UniqueNameSupply name_supply_ = tvm::UniqueNameSupply("");\n' in text
    assert "NameSupply(" not in text.replace("UniqueNameSupply(", "")
    assert (
        change.title == "Replace Info::GetUniqueName with a UniqueNameSupply member `name_supply_`"
    )


def test_another_use_of_the_map_stops_the_change_and_says_where() -> None:
    code = MEMBER.replace(
        "void Lower(", "int Count(Info* info) { return info->name_count.size(); }\nvoid Lower("
    )
    changes, [skipped] = _plan({"info.cc": code})
    assert changes == []
    assert skipped.helper == "Info::GetUniqueName"
    assert skipped.reason.startswith(
        "the map `name_count` is also used at info.cc:13 (`info->name_count.size`)"
    )


def test_a_call_through_an_object_of_unknown_type_stops_the_change() -> None:
    code = MEMBER.replace("void Lower(Info* info", "void Lower(auto info")
    changes, [skipped] = _plan({"info.cc": code})
    assert changes == []
    assert skipped.reason == "cannot tell the type of `info` at info.cc:14"


def test_a_free_copy_with_a_global_map_is_left_to_a_human_saying_so() -> None:
    code = (
        "std::unordered_map<std::string, int> used;\n"
        "std::string GetUniqueName(std::string name) {\n"
        "  return name + std::to_string(used[name]++);\n}\n"
    )
    changes, [skipped] = _plan({"cache.cc": code})
    assert changes == []
    assert skipped.reason == "a free function: no class to keep a NameSupply member in"


@pytest.mark.parametrize("access", ["public", "protected"])
def test_a_map_callers_can_reach_keeps_its_place(access: str) -> None:
    files = {
        "base.h": (
            "class Base {\n public:\n  std::string GetUniqueName(std::string p);\n\n"
            f" {access}:\n  std::unordered_map<std::string, int> names_;\n}};\n"
        ),
        "base.cc": (
            "std::string Base::GetUniqueName(std::string p) {\n  names_[p] = 0;\n  return p;\n}\n"
        ),
        "derived.cc": (
            'class Derived : public Base {\n  void F() { auto n = GetUniqueName("x"); }\n};\n'
        ),
    }
    [change], _ = _plan(files)
    assert change.texts[Path("base.h")] == (
        "#include <tvm/ir/name_supply.h>\n\n"
        f"class Base {{\n public:\n\n {access}:\n"
        '  tvm::NameSupply name_supply_ = tvm::NameSupply("");\n};\n'
    )
    assert change.texts[Path("base.cc")] == ""
    assert 'auto n = name_supply_->FreshName("x");' in change.texts[Path("derived.cc")]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        (
            "std::string unique_prefix = prefix;",
            "std::string unique_prefix = Sanitize(prefix);",
            "it returns `Doc::Text(unique_prefix)`, not the name it was asked for made unique",
        ),
        (
            "    // numbered from one\n",
            "    ++collisions_;\n",
            "it does more than unique the name (`if (it != name_alloc_map_.end()) {`); a "
            "wrapper would lose it",
        ),
        (
            "  name_alloc_map_[unique_prefix] = 0;\n",
            "  name_alloc_map_[unique_prefix] = 0;\n#ifdef TRACE\n  Log(unique_prefix);\n#endif\n",
            "it does more than unique the name (`#ifdef TRACE`); a wrapper would lose it",
        ),
        (
            "  return Doc::Text(unique_prefix);\n",
            "  if (unique_prefix.empty()) return Doc::Text(fallback_);\n"
            "  return Doc::Text(unique_prefix);\n",
            "it returns `Doc`, not a string, and not as one call of its name "
            "(`return Doc::Text(name);`); a NameSupply returns String",
        ),
        (
            "  return Doc::Text(unique_prefix);\n",
            "  Doc d = Doc::Text(unique_prefix);\n  return std::move(d);\n",
            "it returns `std::move(d)`, not the name it was asked for made unique",
        ),
    ],
)
def test_a_wrapper_that_would_lose_or_break_something_is_not_made(
    old: str, new: str, reason: str
) -> None:
    assert old in PRINTER_CC
    changes, skipped = _plan({"printer.h": PRINTER_H, "printer.cc": PRINTER_CC.replace(old, new)})
    assert changes == []
    assert [s.reason for s in skipped] == [reason]


def test_a_copy_asked_with_a_node_or_keeping_a_static_map_is_left() -> None:
    by_var = PRINTER_CC.replace(
        "(const std::string& prefix) {\n  std::string unique_prefix = prefix;",
        "(const Var& v) {\n  std::string prefix = v->name_hint;\n"
        "  std::string unique_prefix = prefix;",
    )
    header = PRINTER_H.replace("(const std::string& prefix)", "(const Var& v)")
    _, skipped = _plan({"printer.h": header, "printer.cc": by_var})
    assert [s.reason for s in skipped] == [
        "it is asked with a `Var`, not a string name; a NameSupply takes a string"
    ]
    static = PRINTER_H.replace("  std::unordered_map", "  static std::unordered_map")
    _, skipped = _plan({"printer.h": static, "printer.cc": PRINTER_CC})
    assert [s.reason for s in skipped] == [
        "its map `name_alloc_map_` is static, shared by every object; a supply member would not be"
    ]


def test_a_tab_indented_wrapper_keeps_its_tabs() -> None:
    header = (
        "class RelayPrinter {\n public:\n\tDoc GetUniqueName(const std::string& prefix) {\n"
        "\t\tstd::string u = prefix;\n\t\twhile (name_alloc_map_.count(u)) {\n"
        "\t\t\tu = prefix + std::to_string(++name_alloc_map_[prefix]);\n\t\t}\n"
        "\t\tname_alloc_map_[u] = 0;\n\t\treturn Doc::Text(u);\n\t}\n\n private:\n"
        "\tstd::unordered_map<std::string, int> name_alloc_map_;\n};\n"
    )
    [change], _ = _plan({"printer.h": header})
    assert (
        "\tDoc GetUniqueName(const std::string& prefix) {\n"
        "\t\treturn Doc::Text(name_supply_->FreshName(prefix));\n\t}\n"
    ) in change.texts[Path("printer.h")]


@pytest.mark.parametrize(
    ("old", "new", "reason"),
    [
        (
            "  std::string unique_prefix = prefix;\n",
            '  std::string unique_prefix = prefix;\n  unique_prefix += "_v";\n',
            'it does more than unique the name (`unique_prefix += "_v";`); a wrapper would lose it',
        ),
        (
            "  std::string unique_prefix = prefix;\n",
            "  std::lock_guard<std::mutex> lock(mu_);\n  std::string unique_prefix = prefix;\n",
            "it does more than unique the name (`std::lock_guard<std::mutex> lock(mu_);`); a "
            "wrapper would lose it",
        ),
        (
            "  std::string unique_prefix = prefix;\n",
            "  int& calls = calls_;\n  calls += 1;\n  std::string unique_prefix = prefix;\n",
            "it does more than unique the name (`int& calls = calls_;`); a wrapper would lose it",
        ),
    ],
)
def test_a_wrapper_keeps_nothing_the_copy_did_first(old: str, new: str, reason: str) -> None:
    assert old in PRINTER_CC
    changes, skipped = _plan({"printer.h": PRINTER_H, "printer.cc": PRINTER_CC.replace(old, new)})
    assert changes == []
    assert [s.reason for s in skipped] == [reason]


def test_a_map_declared_with_other_members_is_left() -> None:
    header = PRINTER_H.replace("int> name_alloc_map_;", "int> name_alloc_map_, other_map_;")
    changes, skipped = _plan({"printer.h": header, "printer.cc": PRINTER_CC})
    assert changes == []
    assert [s.reason for s in skipped] == [
        "its map `name_alloc_map_` is declared together with other members"
    ]


REFERENCE_H = """\
class Namer {
 public:
  const std::string& GetUniqueName(const std::string& prefix);

 private:
  std::unordered_map<std::string, int> name_map_;
  std::string last_;
};
"""

REFERENCE_CC = """\
#include "namer.h"

const std::string& Namer::GetUniqueName(const std::string& prefix) {
  last_ = prefix;
  while (name_map_.count(last_)) last_ = prefix + "_" + std::to_string(++name_map_[prefix]);
  name_map_[last_] = 0;
  return last_;
}

void Use(Namer* namer) { std::string name = namer->GetUniqueName("x"); }
"""


def test_a_copy_returning_a_reference_is_replaced_with_its_declaration() -> None:
    # Its name and the name its class declares are past the `&`.
    [change], skipped = _plan({"namer.h": REFERENCE_H, "namer.cc": REFERENCE_CC})
    assert skipped == []
    assert change.helper == "Namer::GetUniqueName"
    assert change.texts[Path("namer.cc")] == (
        '#include "namer.h"\n\n'
        'void Use(Namer* namer) { std::string name = namer->name_supply_->FreshName("x"); }\n'
    )
    header = change.texts[Path("namer.h")]
    assert "GetUniqueName" not in header and "name_map_" not in header
    assert ' public:\n  tvm::NameSupply name_supply_ = tvm::NameSupply("");\n' in header


def test_plans_over_the_same_files_share_their_parses_while_the_texts_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A migration plans again after each change: a file whose text is the same is not
    # parsed again, one whose text changed is, and the plan is the one a fresh planner
    # makes.
    parsed: list[str] = []  # the texts parsed, in order

    def counted(text: str) -> ParsedCpp:
        parsed.append(text)
        return parse_cpp(text)

    monkeypatch.setattr(holding_module, "parse_cpp", counted)
    source = FIXTURES / "fix_unique_names" / "src"
    texts = {path: path.read_text() for path in sorted(source.iterdir())}
    holding, parses = Holding(), CppParses()
    first = plan_changes(list(texts), texts.get, holding=holding, parses=parses)
    read = {text: path for path, text in texts.items() if text in parsed}
    assert read
    changed = next(iter(read.values()))
    texts[changed] = texts[changed] + "\n// edited\n"
    parsed.clear()
    again = plan_changes(list(texts), texts.get, holding=holding, parses=parses)
    assert parsed == [texts[changed]]
    fresh = plan_changes(list(texts), texts.get)
    assert [(c.helper, c.texts, c.sites) for c in again[0]] == [
        (c.helper, c.texts, c.sites) for c in fresh[0]
    ]
    assert again[1] == fresh[1]
    assert [c.texts for c in again[0]] != [c.texts for c in first[0]]
