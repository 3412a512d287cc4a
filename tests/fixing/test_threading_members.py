"""A caller with no supply to pass that is a method of a class the project defines passes
a supply member its class keeps (as TVM's compiler class does since PR 12066), through
`lintgv fix --unsafe`, in C++ and in Python; the C++ results compile against the stub
headers."""

import subprocess
from pathlib import Path

import pytest
from fix_cli import gv101_project, run_fix

STUBS = Path(__file__).parent.parent / "stubs"

HEADER = """#pragma once
#include <tvm/ir/module.h>

namespace tvm {
IRModule ScheduleToModule(const PrimFunc& f, const std::string& name);

class Pass {
 public:
  IRModule Visit(const PrimFunc& f);
  IRModule VisitAgain(const PrimFunc& f);
  static IRModule Once(const PrimFunc& f);
};
}  // namespace tvm
"""

SOURCE = """#include "api.h"

namespace tvm {
IRModule ScheduleToModule(const PrimFunc& f, const std::string& name) {
  return MakeModule(GlobalVar(name), f);
}

IRModule Pass::Visit(const PrimFunc& f) { return ScheduleToModule(f, "visit"); }

IRModule Pass::VisitAgain(const PrimFunc& f) { return ScheduleToModule(f, "again"); }

IRModule Pass::Once(const PrimFunc& f) { return ScheduleToModule(f, "once"); }

class Compiler {
 public:
  explicit Compiler(const PrimFunc& f) : first_(ScheduleToModule(f, "first").defined()) {}
  IRModule Run(const PrimFunc& f) { return ScheduleToModule(f, "run"); }

 private:
  bool first_;
  int runs_ = 0;
};

struct Builder {
  IRModule Build(const PrimFunc& f) const { return ScheduleToModule(f, "build"); }
};

class Holder {
 public:
  explicit Holder(const PrimFunc& f) : mod_(ScheduleToModule(f, "held")) {}
  IRModule Again(const PrimFunc& f) { return ScheduleToModule(f, "again2"); }

 private:
  IRModule mod_;
};
}  // namespace tvm
"""

MAKE_MODULE = "IRModule MakeModule(const GlobalVar& gv, const BaseFunc& f);\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    header = HEADER.replace("IRModule ScheduleToModule", MAKE_MODULE + "IRModule ScheduleToModule")
    return gv101_project(tmp_path / "members", {"include/api.h": header, "src/api.cc": SOURCE})


def _after(project: Path) -> tuple[str, str, str]:
    result = run_fix(project, "--unsafe")
    assert result.returncode == 0, result.stdout + result.stderr
    header = (project / "include" / "api.h").read_text()
    source = (project / "src" / "api.cc").read_text()
    return header, source, result.stdout


def test_methods_pass_a_member_their_class_keeps(project: Path) -> None:
    header, source, report = _after(project)
    member = '  GlobalVarSupply global_var_supply_ = GlobalVarSupply(NameSupply(""));\n'
    # A class defined in a header gets one member there, private, for both methods.
    assert header.count("global_var_supply_") == 1
    assert " private:\n" + member + "};" in header
    assert "#include <tvm/ir/global_var_supply.h>" in header
    assert 'return ScheduleToModule(f, "visit", global_var_supply_); }' in source
    assert 'return ScheduleToModule(f, "again", global_var_supply_); }' in source
    # A class in the source file: the member joins its private section.
    assert "  int runs_ = 0;\n" + member + "};" in source
    assert 'return ScheduleToModule(f, "run", global_var_supply_); }' in source
    # An initializer list runs before the member (declared last) is made.
    assert 'first_(ScheduleToModule(f, "first", GlobalVarSupply(NameSupply(""))).defined())' in (
        source
    )
    # A struct: public by default, no section added; a const method can pass it too.
    assert 'return ScheduleToModule(f, "build", global_var_supply_); }\n' + member + "};" in (
        source
    )
    # A module member serves a method; not an initializer list, which may run before it.
    assert 'return ScheduleToModule(f, "again2", GlobalVarSupply(mod_)); }' in source
    assert 'mod_(ScheduleToModule(f, "held", GlobalVarSupply(NameSupply(""))))' in source
    # A static method has no object to keep a supply: it passes a new, empty one.
    assert 'return ScheduleToModule(f, "once", GlobalVarSupply(NameSupply(""))); }' in source
    assert (
        "these callers are methods and pass a supply member their class keeps "
        "(`global_var_supply_`: new and empty, one per object, so a name asked for again "
        "in a later call gets a suffix): api.cc:8, api.cc:10, api.cc:17, api.cc:25"
    ) in report
    assert "pass a new, empty one: api.cc:12, api.cc:16, api.cc:30" in report


@pytest.mark.system("c++")
def test_the_members_compile_and_a_second_run_changes_nothing(project: Path) -> None:
    header, source, _ = _after(project)
    done = subprocess.run(
        [
            *("c++", "-std=c++17", "-fsyntax-only", f"-I{STUBS}"),
            *(f"-I{project / 'include'}", str(project / "src" / "api.cc")),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    again = run_fix(project, "--unsafe")
    assert (project / "include" / "api.h").read_text() == header
    assert (project / "src" / "api.cc").read_text() == source
    assert "Thread" not in again.stdout


def test_a_class_defined_twice_gets_no_member(project: Path) -> None:
    # Two classes named Pass (in #if branches, say): which one the method belongs to is
    # not clear, so its call passes a new, empty supply.
    other = project / "include" / "other.h"
    other.write_text("namespace other {\nclass Pass {\n int y;\n};\n}\n")
    header, source, _ = _after(project)
    assert "global_var_supply_ =" not in header
    assert 'ScheduleToModule(f, "visit", GlobalVarSupply(NameSupply("")))' in source


PYTHON = """import tvm
from tvm.ir import GlobalVar


def make_var(name):
    return GlobalVar(name)


class TensorOps:
    def __init__(self, prelude, dtype):
        self.prelude = prelude
        if dtype:
            self.dtype = dtype

    def define(self, name):
        return make_var(name)

    def helper(self, name):
        return make_var(name + "_h")

    def __init_subclass__(cls):
        make_var(cls.__name__)

    @staticmethod
    def once(name):
        return make_var(name)


class Slotted:
    __slots__ = ("x",)

    def __init__(self):
        self.x = 1

    def define(self, name):
        return make_var(name)
"""


def test_python_methods_pass_an_attribute_their_init_sets(tmp_path: Path) -> None:
    root = gv101_project(tmp_path / "py", {"ops.py": PYTHON})
    result = run_fix(root, "--unsafe")
    assert result.returncode == 0, result.stdout + result.stderr
    text = (root / "ops.py").read_text()
    # Set once, at the end of __init__ (after its last statement, an `if` block).
    assert (
        "        if dtype:\n            self.dtype = dtype\n"
        "        self.global_var_supply = GlobalVarSupply()\n\n    def define"
    ) in text
    assert text.count("self.global_var_supply = GlobalVarSupply()") == 1
    assert "return make_var(name, global_var_supply=self.global_var_supply)" in text
    assert 'return make_var(name + "_h", global_var_supply=self.global_var_supply)' in text
    # No instance to keep it: a class method, a static method, a class with __slots__.
    assert "make_var(cls.__name__, global_var_supply=GlobalVarSupply())" in text
    assert text.count("make_var(name, global_var_supply=GlobalVarSupply())") == 2
    assert "from tvm.ir.supply import GlobalVarSupply" in text
    compile(text, "ops.py", "exec")
    again = run_fix(root, "--unsafe")
    assert (root / "ops.py").read_text() == text
    assert "Thread" not in again.stdout
