"""Running unique-name copies beside NameSupply.fresh_name (fixtures in TVM's style)."""

from pathlib import Path

import pytest

from lintgv.codemods.unique_name_copies import Project
from lintgv.rewrite_validation import cpp_copy, run_copy
from lintgv.runtime.copies.outcome import CopyRun
from lintgv.runtime.copies.python_harness import run_python_copy
from lintgv.runtime.copies.sequence import SEQUENCE, supply_names

pytestmark = pytest.mark.system("c++", "bwrap")

COPIES = Path(__file__).parent / "copies"
SUPPLY_LIKE = (COPIES / "supply_like.cc").read_text()
NO_UNDERSCORE = (COPIES / "no_underscore.cc").read_text()

FREE_FUNCTION = """\
#include <string>
#include <unordered_map>

static std::string Underscored(std::string s) {
  for (auto& c : s) if (c == '.') c = '_';
  return s;
}

std::string GetUniqueName(std::string name, std::unordered_map<std::string, int>* names) {
  name = Underscored(name);
  while (names->count(name)) {
    name = name + "_" + std::to_string((*names)[name]++);
  }
  (*names)[name] = 1;
  return name;
}
"""

FOREIGN_MEMBER = """\
#include <string>

class Renamer {
 public:
  std::string GetUniqueName(const std::string& name) { return table_->Lookup(name); }

 private:
  NameTable* table_;
};
"""

# Returns a reference to a member it keeps the name in.
REFERENCE = """\
#include <string>
#include <unordered_map>

class Namer {
 public:
  const std::string& GetUniqueName(const std::string& prefix) {
    last_ = prefix;
    while (names_.count(last_)) last_ = prefix + "_" + std::to_string(++names_[prefix]);
    names_[last_] = 0;
    return last_;
  }

 private:
  std::unordered_map<std::string, int> names_;
  std::string last_;
};
"""


def run_cpp(tmp_path: Path, text: str, line: int, version: str = "0.25") -> CopyRun:
    path = tmp_path / "copy.cc"
    path.write_text(text)
    project = Project([path], lambda p: p.read_text())
    return run_copy(cpp_copy(project, path, line), tvm_version=version)


def test_copy_that_behaves_like_name_supply_has_no_differences(tmp_path: Path) -> None:
    run = run_cpp(tmp_path, SUPPLY_LIKE, 17)
    assert run.ran, run.reason
    assert run.names == supply_names("0.25")
    assert run.summary().startswith("same names")


def test_empty_name_differs_from_releases_before_024(tmp_path: Path) -> None:
    run = run_cpp(tmp_path, SUPPLY_LIKE, 17, version="0.16")
    assert [(d.given, d.copy, d.supply) for d in run.differences] == [
        ("", "v", ""),
        ("", "v_1", "_1"),
    ]


def test_copy_without_underscore_shows_first_differences(tmp_path: Path) -> None:
    run = run_cpp(tmp_path, NO_UNDERSCORE, 17)
    assert run.ran, run.reason
    assert str(run.differences[0]) == "x1 → x_1"
    assert run.summary(limit=2).endswith(f"x1 → x_1, x2 → x_2 (+{len(run.differences) - 2} more)")


def test_free_function_gets_its_map_and_helpers(tmp_path: Path) -> None:
    run = run_cpp(tmp_path, FREE_FUNCTION, 9)
    assert run.ran, run.reason
    assert run.helper == "GetUniqueName"
    assert run.names is not None and run.names[:3] == ("x", "x_1", "x_2")


def test_copy_returning_a_reference_runs(tmp_path: Path) -> None:
    run = run_cpp(tmp_path, REFERENCE, 6)
    assert run.ran, run.reason
    assert run.helper == "Namer::GetUniqueName"
    assert run.names is not None and run.names[:3] == ("x", "x_1", "x_2")


def test_copy_using_other_members_could_not_execute(tmp_path: Path) -> None:
    run = run_cpp(tmp_path, FOREIGN_MEMBER, 5)
    assert not run.ran
    assert run.reason is not None and "does not compile on its own" in run.reason
    assert "could not execute" in run.summary()


PY_METHOD = '''\
import collections


class NameTable:
    """Hands out readable, unique names."""

    def __init__(self, prefix=""):
        self.prefix = prefix
        self.counts = collections.defaultdict(int)

    def get_unique_name(self, name):
        name = name.replace(".", "_") or "v"
        if name not in self.counts:
            self.counts[name] = 0
            return name
        while True:
            self.counts[name] += 1
            candidate = f"{name}_{self.counts[name]}"
            if candidate not in self.counts:
                self.counts[candidate] = 0
                return candidate
'''

PY_FUNCTION = """\
import tvm


def unique_name(name, taken):
    i = 0
    candidate = name
    while candidate in taken:
        i += 1
        candidate = name + str(i)
    taken[candidate] = True
    return candidate
"""


def run_python(tmp_path: Path, text: str, line: int, **kwargs: float) -> CopyRun:
    path = tmp_path / "copy.py"
    return run_python_copy(path, text, line, supply_names("0.25"), **kwargs)


def test_python_method_runs_on_a_stand_in(tmp_path: Path) -> None:
    run = run_python(tmp_path, PY_METHOD, 11)
    assert run.ran, run.reason
    assert run.helper == "NameTable.get_unique_name"
    assert run.differences == ()


def test_python_function_gets_a_shared_map(tmp_path: Path) -> None:
    run = run_python(tmp_path, PY_FUNCTION, 4)
    assert run.ran, run.reason
    assert run.names is not None and run.names[:4] == ("x", "x1", "x2", "x11")
    assert str(run.differences[0]) == "x1 → x_1"


def test_python_copy_that_never_returns_is_stopped(tmp_path: Path) -> None:
    endless = "def get_unique_name(name):\n    while True:\n        pass\n"
    run = run_python(tmp_path, endless, 1, seconds=1)
    assert not run.ran
    # The wall clock or the CPU limit, whichever the machine's load trips first.
    assert run.reason in ("it ran longer than 1 s", "it used more than 1 s of CPU")


def test_python_copy_calling_other_methods_could_not_execute(tmp_path: Path) -> None:
    text = (
        "class P:\n    def get_unique_name(self, name):\n"
        "        return self._mangle(name)\n\n    def _mangle(self, name):\n        return name\n"
    )
    run = run_python(tmp_path, text, 2)
    assert run.reason == "it calls other methods of `P`: _mangle"


def test_python_errors_are_shown_as_names(tmp_path: Path) -> None:
    text = "def get_unique_name(name):\n    return name[0]\n"
    run = run_python(tmp_path, text, 1)
    assert run.names is not None
    assert run.names[SEQUENCE.index("")] == "<error: IndexError: string index out of range>"


def test_python_copy_whose_every_call_fails_could_not_execute(tmp_path: Path) -> None:
    # `os` is not among the imports the sandbox keeps: every call raises NameError, which
    # tells nothing of the copy's names (it is not "names differ" at 17 of 17).
    text = (
        "import os\n\n\ndef get_unique_name(name, taken):\n"
        "    name = os.path.basename(name)\n    taken[name] = True\n    return name\n"
    )
    run = run_python(tmp_path, text, 4)
    assert not run.ran
    assert run.reason == "every call failed: NameError: name 'os' is not defined"


def test_cpp_copy_whose_every_call_throws_could_not_execute(tmp_path: Path) -> None:
    text = (
        "#include <stdexcept>\n#include <string>\n#include <unordered_map>\n"
        "std::string GetUniqueName(std::string name, std::unordered_map<std::string, int>* m) {\n"
        '  throw std::runtime_error("no names here");\n'
        "}\n"
    )
    run = run_cpp(tmp_path, text, 4)
    assert not run.ran
    assert run.reason is not None and run.reason.startswith("every call failed: ")
