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
# A function that builds a GlobalVar with nothing in scope, for the classes below it.
SCHED = (
    "#include <tvm/ir/module.h>\nnamespace tvm {\n"
    + MAKE_MODULE
    + "IRModule Sched(const PrimFunc& f, const std::string& name) "
    "{ return MakeModule(GlobalVar(name), f); }\n"
)


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
    # Declared first in the class (made before any other member), in its default section
    # (private in a class): in the header that defines the class, once for both methods.
    assert header.count("global_var_supply_") == 1
    assert "class Pass {\n" + member + " public:\n" in header
    assert "#include <tvm/ir/global_var_supply.h>" in header
    assert 'return ScheduleToModule(f, "visit", global_var_supply_); }' in source
    assert 'return ScheduleToModule(f, "again", global_var_supply_); }' in source
    # A class in the source file.
    assert "class Compiler {\n" + member + " public:\n" in source
    assert 'return ScheduleToModule(f, "run", global_var_supply_); }' in source
    # An initializer list does not see the class's members.
    assert 'first_(ScheduleToModule(f, "first", GlobalVarSupply(NameSupply(""))).defined())' in (
        source
    )
    # A struct (public by default); a const method can pass it too.
    assert "struct Builder {\n" + member in source
    assert 'return ScheduleToModule(f, "build", global_var_supply_); }' in source
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


def test_the_class_of_an_out_of_class_method_is_looked_up_by_namespace(project: Path) -> None:
    # A class of the same name in another namespace is not the method's class.
    other = project / "include" / "other.h"
    text = "namespace other {\nclass Pass {\n int y;\n};\n}  // namespace other\n"
    other.write_text(text)
    header, source, _ = _after(project)
    assert other.read_text() == text
    assert header.count("global_var_supply_ =") == 1
    assert 'ScheduleToModule(f, "visit", global_var_supply_)' in source


def test_a_method_whose_class_is_not_in_the_project_gets_no_member(project: Path) -> None:
    # `Pass` comes from a header outside the files checked; the project's only class of
    # that name is another namespace's.
    api = project / "include" / "api.h"
    start = api.read_text().index("class Pass {")
    api.write_text(api.read_text()[:start] + '#include "ext/pass.h"\n}  // namespace tvm\n')
    (project / "include" / "other.h").write_text("namespace other {\nclass Pass {};\n}\n")
    _, source, _ = _after(project)
    assert 'ScheduleToModule(f, "visit", GlobalVarSupply(NameSupply("")))' in source
    assert "Pass {};" in (project / "include" / "other.h").read_text()


def test_a_member_name_the_project_uses_already_is_not_taken(project: Path) -> None:
    source = project / "src" / "api.cc"
    source.write_text(
        source.read_text().replace(
            '{ return ScheduleToModule(f, "visit"); }',
            '{\n  int global_var_supply_ = 0;\n  return ScheduleToModule(f, "visit");\n}',
        )
    )
    header, text, _ = _after(project)
    assert "global_var_supply_ =" not in header
    assert 'ScheduleToModule(f, "visit", GlobalVarSupply(NameSupply("")))' in text


def _fixed_after_sched(tmp_path: Path, classes: str) -> str:
    """Return a file holding Sched and then `classes`, after `lintgv fix --unsafe`."""
    root = gv101_project(tmp_path / "sched", {"a.cc": SCHED + classes + "}  // namespace tvm\n"})
    run_fix(root, "--unsafe")
    return (root / "a.cc").read_text()


def test_static_methods_declared_in_if_blocks_and_templates_get_no_member(
    tmp_path: Path,
) -> None:
    after = _fixed_after_sched(
        tmp_path,
        "class Pass {\n public:\n#ifndef NO_ONCE\n  static IRModule Once(const PrimFunc& f);\n"
        "#endif\n  template <typename T> static IRModule Twice(const T& f);\n"
        "  static IRModule D(const PrimFunc& f), E(const PrimFunc& f);\n};\n"
        'IRModule Pass::Once(const PrimFunc& f) { return Sched(f, "once"); }\n'
        'IRModule Pass::E(const PrimFunc& f) { return Sched(f, "e"); }\n',
    )
    assert "global_var_supply_" not in after
    assert 'Sched(f, "once", GlobalVarSupply(NameSupply("")))' in after
    assert 'Sched(f, "e", GlobalVarSupply(NameSupply("")))' in after


def test_a_member_made_by_an_initializer_finds_the_supply_made(tmp_path: Path) -> None:
    # `ok_` is made by calling Build, which passes the member: declared first, the
    # member is made before `ok_`. A literal class (constexpr constructor) gets none.
    after = _fixed_after_sched(
        tmp_path,
        "class Pass {\n public:\n"
        "  explicit Pass(const PrimFunc& f) : ok_(Build(f).defined()) {}\n"
        '  IRModule Build(const PrimFunc& f) { return Sched(f, "b"); }\n\n private:\n'
        "  bool ok_;\n};\n"
        "struct Lit {\n  constexpr Lit() {}\n"
        '  IRModule Visit(const PrimFunc& f) { return Sched(f, "v"); }\n};\n',
    )
    member = 'GlobalVarSupply global_var_supply_ = GlobalVarSupply(NameSupply(""));'
    assert after.index(member) < after.index("explicit Pass(") < after.index("bool ok_;")
    assert after.count(member) == 1
    assert 'Sched(f, "v", GlobalVarSupply(NameSupply("")))' in after


PYTHON = """import tvm
from tvm.ir import GlobalVar


def make_var(name):
    return GlobalVar(name)


class TensorOps:
    def __init__(self, prelude, dtype):
        '''Keep the prelude.'''
        self.prelude = prelude
        self.main = self.define("main")
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
    # Set once, first in __init__ (after its docstring): before __init__ itself calls a
    # method that passes it.
    assert (
        "        '''Keep the prelude.'''\n"
        "        self.global_var_supply = GlobalVarSupply()\n        self.prelude = prelude\n"
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


PYTHON_REFUSED = """from dataclasses import dataclass
from typing import overload

from tvm.ir import GlobalVar


def make_var(name):
    return GlobalVar(name)


class Base:
    def __init__(self):
        self.n = 0

    def define(self, name):
        return make_var(name)


class Child(Base):
    def __init__(self):
        self.m = 1


@dataclass(frozen=True)
class Frozen:
    x: int

    def __init__(self, x):
        object.__setattr__(self, "x", x)

    def define(self, name):
        return make_var(name)


class Old:
    def __init__(self):
        self.n = 0

    def define(name):
        return make_var(name)

    define = staticmethod(define)


class Stubbed:
    @overload
    def __init__(self, x: int) -> None:
        ...

    @overload
    def __init__(self, x: str) -> None:
        ...

    def __init__(self, x):
        self.x = x

    def define(self, name):
        return make_var(name)
"""


def test_python_classes_that_cannot_keep_an_attribute_pass_a_new_supply(
    tmp_path: Path,
) -> None:
    root = gv101_project(tmp_path / "refused", {"ops.py": PYTHON_REFUSED})
    result = run_fix(root, "--unsafe")
    text = (root / "ops.py").read_text()
    # A class another derives from, a frozen dataclass and a method bound again by
    # `staticmethod(...)` keep no supply; the real __init__ of a class with @overload
    # stubs (the last one) sets it.
    assert text.count("self.global_var_supply = GlobalVarSupply()") == 1, result.stdout
    assert (
        "    def __init__(self, x):\n        self.global_var_supply = GlobalVarSupply()\n"
    ) in text
    assert text.count("return make_var(name, global_var_supply=GlobalVarSupply())") == 3
    assert "return make_var(name, global_var_supply=self.global_var_supply)" in text
