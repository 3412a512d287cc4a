"""GV201-GV203 across files, through `lintgv check` as a subprocess.

A helper found only by its structure in one file makes its declaration and its call
sites in other files count; a known helper is reported in its header, its .cc and its
callers alike.
"""

import json
import subprocess
import sys
from pathlib import Path

# A renamed copy of GetUniqueBufferName: nothing in its name gives it away.
EXTRACTOR_H = """\
#ifndef EXTRACTOR_H_
#define EXTRACTOR_H_
class Extractor {
 public:
  std::string NameFor(std::string name);

 private:
  std::unordered_map<std::string, int> names_;
};
#endif
"""
EXTRACTOR_CC = """\
#include "extractor.h"
std::string Extractor::NameFor(std::string name) {
  if (names_.find(name) == names_.end()) {
    names_[name] = 1;
    return name;
  }
  names_[name] = names_[name] + 1;
  return name + std::to_string(names_[name]);
}
"""
PLANNER_CC = """\
#include "extractor.h"
void Plan(Extractor* e, const Var& v) {
  auto info = BufferInfo(e->NameFor(v->name_hint));
  e->NameFor("workspace");
}
"""
CODEGEN_H = """\
class CodeGenBase {
 protected:
  std::string GetUniqueName(std::string prefix);
};
"""
CODEGEN_CC = """\
#include "codegen_base.h"
std::string CodeGenBase::GetUniqueName(std::string prefix) {
  std::string name = prefix;
  for (int i = 1; name_alloc_map_.count(name); ++i) {
    name = prefix + std::to_string(i);
  }
  name_alloc_map_[name] = 0;
  return name;
}
"""
CODEGEN_C_CC = """\
#include "codegen_base.h"
void CodeGenC::ReserveKeywords() { GetUniqueName("extern"); }
"""
LABELS_PY = """\
def make_label(base, taken):
    label = base
    n = 0
    while label in taken:
        n += 1
        label = f"{base}_{n}"
    taken.add(label)
    return label


FIRST = make_label("main", set())
"""
USER_PY = """\
from .labels import make_label


def lower(names, fn):
    return make_label(fn.name, names)
"""


def _check(root: Path, *args: str) -> tuple[int, list[tuple[str, str, int, str]]]:
    result = subprocess.run(
        [sys.executable, "-m", "lintgv", "check", "--format", "json", "--no-cache", *args, "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    report = json.loads(result.stdout)
    assert report["errors"] == []
    found = [(f["code"], f["path"], f["line"], f["message"]) for f in report["findings"]]
    return result.returncode, sorted(found)


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def test_a_helper_found_by_structure_is_reported_where_it_is_declared_and_called(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "src/extractor.h": EXTRACTOR_H,
            "src/extractor.cc": EXTRACTOR_CC,
            "src/plan.cc": PLANNER_CC,
        },
    )
    code, found = _check(tmp_path, "--select", "GV2")
    assert code == 1
    assert [(c, p, line) for c, p, line, _ in found] == [
        ("GV201", "src/extractor.cc", 2),
        ("GV202", "src/extractor.h", 5),
        ("GV203", "src/plan.cc", 3),
        ("GV203", "src/plan.cc", 4),
    ]
    assert "only reserves the name" in found[3][3]
    assert "only reserves the name" not in found[2][3]


def test_without_the_definition_a_renamed_helper_is_not_known(tmp_path: Path) -> None:
    _write(tmp_path, {"src/extractor.h": EXTRACTOR_H, "src/plan.cc": PLANNER_CC})
    code, found = _check(tmp_path, "--select", "GV2")
    assert (code, found) == (0, [])


def test_a_known_helper_is_reported_in_its_header_definition_and_callers(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "src/codegen_base.h": CODEGEN_H,
            "src/codegen_base.cc": CODEGEN_CC,
            "src/codegen_c.cc": CODEGEN_C_CC,
        },
    )
    _, found = _check(tmp_path, "--select", "GV2")
    assert [(c, p, line) for c, p, line, _ in found] == [
        ("GV201", "src/codegen_base.cc", 2),
        ("GV202", "src/codegen_base.h", 3),
        ("GV203", "src/codegen_c.cc", 2),
    ]


def test_a_python_helper_found_by_structure_is_reported_at_every_call(tmp_path: Path) -> None:
    _write(tmp_path, {"pkg/labels.py": LABELS_PY, "pkg/user.py": USER_PY})
    _, found = _check(tmp_path, "--select", "GV2")
    assert [(c, p, line) for c, p, line, _ in found] == [
        ("GV201", "pkg/labels.py", 1),
        ("GV203", "pkg/labels.py", 11),
        ("GV203", "pkg/user.py", 5),
    ]


def test_the_supply_paths_are_not_checked(tmp_path: Path) -> None:
    _write(tmp_path, {"src/ir/name_supply.cc": CODEGEN_CC})
    assert _check(tmp_path, "--select", "GV2") == (0, [])


# Another class with a method of the same name, in another file: not the helper.
PRINTER_CC = """\
#include "extractor.h"
class Printer {
 public:
  std::string NameFor(const Var& v) { return v->name_hint; }
  void Print(const Var& v) { os_ << NameFor(v); }
};
void Show(Printer* p, Extractor* e, const Var& v) {
  p->NameFor(v);
  auto n = e->NameFor(v->name_hint);
}
"""


def test_a_same_named_method_of_another_class_is_not_the_helper(tmp_path: Path) -> None:
    _write(
        tmp_path,
        {
            "src/extractor.h": EXTRACTOR_H,
            "src/extractor.cc": EXTRACTOR_CC,
            "src/printer.cc": PRINTER_CC,
        },
    )
    _, found = _check(tmp_path, "--select", "GV2")
    # Printer::NameFor's declaration and calls are not reported; the call on an
    # `Extractor*` is.
    assert [(c, p, line) for c, p, line, _ in found] == [
        ("GV201", "src/extractor.cc", 2),
        ("GV202", "src/extractor.h", 5),
        ("GV203", "src/printer.cc", 9),
    ]


# A short name: helpers are known by identity, so no name is too short to follow.
UNIQ_CC = """\
std::string Uniq(std::string name, std::set<std::string>* used) {
  std::string n = name;
  for (int i = 1; used->count(n); ++i) n = name + std::to_string(i);
  used->insert(n);
  return n;
}
"""
UNIQ_USER_CC = """\
std::string Uniq(std::string name, std::set<std::string>* used);
void Lower(std::set<std::string>* used) { auto a = Uniq("main", used); }
"""


def test_a_free_helper_with_a_short_name_is_followed_into_other_files(tmp_path: Path) -> None:
    _write(tmp_path, {"src/uniq.cc": UNIQ_CC, "src/lower.cc": UNIQ_USER_CC})
    _, found = _check(tmp_path, "--select", "GV2")
    assert [(c, p, line) for c, p, line, _ in found] == [
        ("GV201", "src/uniq.cc", 1),
        ("GV202", "src/lower.cc", 1),
        ("GV203", "src/lower.cc", 2),
    ]


# A Python helper of one module and a same-named function of another.
OTHER_LABELS_PY = """\
def make_label(base, taken):
    return base.upper()
"""
OTHER_USER_PY = """\
from .other import make_label


def show(fn):
    return make_label(fn.name, set())
"""


def test_a_python_call_counts_only_when_it_resolves_to_the_helpers_module(
    tmp_path: Path,
) -> None:
    _write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/labels.py": LABELS_PY,
            "pkg/user.py": USER_PY,
            "pkg/other.py": OTHER_LABELS_PY,
            "pkg/show.py": OTHER_USER_PY,
        },
    )
    _, found = _check(tmp_path, "--select", "GV2")
    assert [(c, p, line) for c, p, line, _ in found] == [
        ("GV201", "pkg/labels.py", 1),
        ("GV203", "pkg/labels.py", 11),
        ("GV203", "pkg/user.py", 5),
    ]
