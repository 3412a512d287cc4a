"""A GlobalVarSupply parameter threaded into a Python function that builds a GlobalVar
with nothing in scope to name it (stage three of `lintgv fix --unsafe`), through the CLI;
the fixed package is then imported and run against a small stand-in for TVM."""

import ast
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fix_cli import run_fix

PASSES = '''\
"""Passes."""
import tvm
from tvm import IRModule


def make_global(name, kind="fn"):
    return tvm.ir.GlobalVar(name)


def lower(mod: IRModule):
    gv = make_global("main")
    mod[gv] = kind_of(gv)
    return mod


def kind_of(gv):
    return gv.name_hint
'''
DRIVER = """\
from pkg.passes import make_global
import pkg.passes as p


def build(mod):
    first = make_global("f", kind="x")
    second = make_global("f")
    return first, second


def helper():
    return p.make_global("g")
"""
# A stand-in for the TVM API the fixed code calls: a supply that names as NameSupply does.
TVM_STUB = {
    "tvm/__init__.py": "from . import ir\nfrom .ir import IRModule\n",
    "tvm/ir/__init__.py": textwrap.dedent(
        """\
        class GlobalVar:
            def __init__(self, name_hint):
                self.name_hint = name_hint


        class IRModule(dict):
            pass
        """
    ),
    "tvm/ir/supply.py": textwrap.dedent(
        """\
        from tvm.ir import GlobalVar


        class GlobalVarSupply:
            def __init__(self, value=None):
                self.taken = {gv.name_hint for gv in (value or {})}

            def fresh_global(self, name, add_prefix=True):
                fresh, index = name, 0
                while fresh in self.taken:
                    index += 1
                    fresh = f"{name}_{index}"
                self.taken.add(fresh)
                return GlobalVar(fresh)
        """
    ),
}


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    package = root / "python" / "pkg"
    package.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.lintgv]\ntvm-version = "0.16"\n')
    (package / "__init__.py").write_text("")
    (package / "passes.py").write_text(PASSES)
    (package / "driver.py").write_text(DRIVER)
    for name, text in TVM_STUB.items():
        stub = tmp_path / "stubs" / name
        stub.parent.mkdir(parents=True, exist_ok=True)
        stub.write_text(text)
    return root


def _run_fixed(project: Path, program: str) -> subprocess.CompletedProcess[str]:
    """Run `program` against the fixed package, with the stand-in TVM on the path."""
    return subprocess.run(
        [sys.executable, "-c", program],
        env={"PYTHONPATH": f"{project.parent / 'stubs'}:{project / 'python'}"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def _texts(root: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted((root / "python" / "pkg").glob("*.py"))}


def test_the_function_and_every_caller_get_the_supply(project: Path) -> None:
    result = run_fix(project, "--unsafe")
    assert result.returncode == 0, result.stdout + result.stderr
    texts = _texts(project)
    passes, driver = texts["passes.py"], texts["driver.py"]
    # Keyword-only: a call passing `kind` by position still binds it to `kind`.
    assert 'def make_global(name, kind="fn", *, global_var_supply: GlobalVarSupply):' in passes
    assert "return global_var_supply.fresh_global(name, False)" in passes
    assert 'make_global("main", global_var_supply=GlobalVarSupply(mod))' in passes
    assert "from tvm.ir.supply import GlobalVarSupply" in passes
    # A caller with a module makes a supply of it, one for all its calls; one with
    # nothing passes a new one.
    assert "    global_var_supply = GlobalVarSupply(mod)\n    first = make_global(" in driver
    assert 'make_global("f", kind="x", global_var_supply=global_var_supply)' in driver
    assert 'second = make_global("f", global_var_supply=global_var_supply)' in driver
    assert 'p.make_global("g", global_var_supply=GlobalVarSupply())' in driver
    assert "from tvm.ir.supply import GlobalVarSupply" in driver
    assert "pkg.passes.make_global (4 calls updated" in result.stdout
    assert "pass a new, empty one: driver.py:12" in result.stdout
    for text in texts.values():
        ast.parse(text)


def test_the_fixed_package_runs_and_a_second_run_changes_nothing(project: Path) -> None:
    run_fix(project, "--unsafe")
    after = _texts(project)
    program = (
        "import json\nfrom tvm.ir import IRModule\nfrom pkg import driver, passes\n"
        "mod = passes.lower(IRModule())\n"
        "first, second = driver.build(mod)\n"
        "print(json.dumps([sorted(mod.values()), first.name_hint, second.name_hint,"
        " driver.helper().name_hint]))\n"
    )
    ran = _run_fixed(project, program)
    assert ran.returncode == 0, ran.stderr
    # build's two calls share one supply of the module: the second `f` is made unique.
    assert json.loads(ran.stdout) == [["main"], "f", "f_1", "g"]
    again = run_fix(project, "--unsafe")
    assert _texts(project) == after
    assert "Thread" not in again.stdout


def test_without_unsafe_nothing_is_threaded(project: Path) -> None:
    before = _texts(project)
    run_fix(project)
    assert _texts(project) == before


@pytest.mark.parametrize(
    ("extra", "reason"),
    [
        ("\nHANDLERS = [make_global]\n", "make_global is used other than by a call"),
        ("\nfrom functools import partial\nNAMED = partial(make_global, kind='y')\n", "used other"),
    ],
)
def test_a_use_that_is_not_a_call_stops_the_change(project: Path, extra: str, reason: str) -> None:
    driver = project / "python" / "pkg" / "driver.py"
    driver.write_text(DRIVER + extra)
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    assert _texts(project) == before
    assert reason in result.stdout
    assert "driver.py:1" in result.stdout


def test_a_decorated_function_is_left_as_it_is(project: Path) -> None:
    passes = project / "python" / "pkg" / "passes.py"
    passes.write_text(
        PASSES.replace("def make_global", "@tvm.register_func('make')\ndef make_global")
    )
    result = run_fix(project, "--unsafe")
    assert "decorated with @tvm.register_func: its callers are not in the code" in result.stdout
    assert "tvm.ir.GlobalVar(name)" in passes.read_text()


def test_a_method_is_threaded_through_self_and_refused_on_another_receiver(
    project: Path,
) -> None:
    passes = project / "python" / "pkg" / "passes.py"
    method = (
        "\n\nclass Namer:\n"
        "    def fresh(self, name):\n"
        "        return tvm.ir.GlobalVar(name)\n\n"
        "    def run(self, mod):\n"
        "        return self.fresh('main')\n"
    )
    passes.write_text(PASSES + method)
    result = run_fix(project, "--unsafe")
    assert "self.fresh('main', global_var_supply=GlobalVarSupply(mod))" in passes.read_text()
    assert "pkg.passes.Namer.fresh (1 call updated" in result.stdout

    (project / "python" / "pkg" / "other.py").write_text(
        "def use(namer):\n    return namer.fresh('x')\n"
    )
    passes.write_text(PASSES + method)
    result = run_fix(project, "--unsafe")
    assert "fresh is used other than by a call it can update: other.py:2" in result.stdout
    assert "        return tvm.ir.GlobalVar(name)\n\n    def run(self, mod):" in passes.read_text()


def test_without_a_config_the_project_is_the_path_given_not_the_working_folder(
    project: Path,
) -> None:
    (project / "pyproject.toml").unlink()
    elsewhere = project.parent / "elsewhere" / "use.py"
    elsewhere.parent.mkdir()
    user = "from pkg.passes import make_global\n\n\ndef use():\n    return make_global('z')\n"
    elsewhere.write_text(user)
    result = subprocess.run(
        [sys.executable, "-m", "lintgv", "fix", "--no-cache", "--unsafe", "project"],
        cwd=project.parent,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert "pkg.passes.make_global (4 calls updated" in result.stdout, result.stdout
    assert elsewhere.read_text() == user


def test_a_function_that_uses_the_parameter_s_name_is_left_as_it_is(project: Path) -> None:
    passes = project / "python" / "pkg" / "passes.py"
    passes.write_text(
        PASSES.replace(
            "    return tvm.ir.GlobalVar(name)",
            "    global_var_supply = None\n    return tvm.ir.GlobalVar(name)",
        )
    )
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    assert "make_global uses the name global_var_supply already" in result.stdout
    assert _texts(project) == before


# Uses a change cannot follow, each found by a red team on an earlier version, where the
# change left a call without its argument or a file that did not compile.
REFUSED = {
    "an alias": ("driver", "from pkg.passes import make_global as g\n", "imported under another"),
    "a star import": ("driver", "from pkg.passes import *\n", "a star import"),
    "getattr": ("driver", "F = getattr(p, 'make_global')\n", "named in a string"),
    "a shadowing parameter": (
        "passes",
        "\n\ndef apply(mod, make_global=str):\n    return make_global('x')\n",
        "binds the name",
    ),
    "a redefinition": (
        "passes",
        "\n\ndef make_global(name):\n    return name\n",
        "another definition of that name",
    ),
    "a call passing the keyword": (
        "passes",
        "\n\ndef again(mod, s):\n    return make_global('a', global_var_supply=s)\n",
        "passes global_var_supply already",
    ),
    "a bare generator argument": (
        "passes",
        "\n\ndef many(mod):\n    return make_global(n for n in 'ab')\n",
        "would not compile: passes.py:",
    ),
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_a_use_the_change_cannot_follow_stops_it(project: Path, case: str) -> None:
    module, extra, reason = REFUSED[case]
    path = project / "python" / "pkg" / f"{module}.py"
    path.write_text((DRIVER if module == "driver" else PASSES) + extra)
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    assert reason in result.stdout, result.stdout
    assert _texts(project) == before


def test_a_call_in_a_default_value_gets_a_new_supply_not_the_function_s_module(
    project: Path,
) -> None:
    # A default value runs where the function is defined, where `mod` is not bound.
    passes = project / "python" / "pkg" / "passes.py"
    passes.write_text(PASSES + "\n\ndef build(mod, gv=make_global('x')):\n    return gv\n")
    run_fix(project, "--unsafe")
    assert "gv=make_global('x', global_var_supply=GlobalVarSupply())" in passes.read_text()
    ran = _run_fixed(project, "import pkg.passes")
    assert ran.returncode == 0, ran.stderr


def test_a_call_in_a_loop_uses_one_supply_for_every_turn(project: Path) -> None:
    passes = project / "python" / "pkg" / "passes.py"
    many = "\n\ndef many(mod, names):\n    return [make_global(n) for n in names]\n"
    passes.write_text(PASSES + many)
    run_fix(project, "--unsafe")
    text = passes.read_text()
    assert "    global_var_supply = GlobalVarSupply(mod)\n    return [make_global(n, " in text
    program = (
        "from tvm.ir import IRModule\nfrom pkg import passes\n"
        "print([gv.name_hint for gv in passes.many(IRModule(), ['x', 'x'])])\n"
    )
    ran = _run_fixed(project, program)
    assert ran.stdout.strip() == "['x', 'x_1']", ran.stderr


def test_a_fifo_among_the_callers_files_is_never_opened(project: Path) -> None:
    # Callers are looked for in every Python file; one that is not text is searched as
    # bytes, and a pipe named like a source file must not be read (it would block).
    os.mkfifo(project / "python" / "pkg" / "zz.py")
    result = run_fix(project, "--unsafe")
    assert "pkg.passes.make_global (4 calls updated" in result.stdout
    assert "zz.py: a named pipe (FIFO), not a regular file; not checked" in result.stdout


STUB = """\
from tvm.ir import GlobalVar, IRModule

def make_global(name: str, kind: str = ...) -> GlobalVar: ...
def lower(mod: IRModule) -> IRModule: ...

class Namer:
    def fresh(self, name: str) -> GlobalVar: ...
    def run(self, mod: IRModule) -> GlobalVar: ...
"""
METHOD = (
    "\n\nclass Namer:\n"
    "    def fresh(self, name):\n"
    "        return tvm.ir.GlobalVar(name)\n\n"
    "    def run(self, mod):\n"
    "        return self.fresh('main')\n"
)


def test_the_module_s_stub_declares_the_new_parameter_too(project: Path) -> None:
    (project / "python" / "pkg" / "passes.py").write_text(PASSES + METHOD)
    stub = project / "python" / "pkg" / "passes.pyi"
    stub.write_text(STUB)
    result = run_fix(project, "--unsafe")
    assert "pkg.passes.make_global (4 calls updated" in result.stdout, result.stdout
    assert "pkg.passes.Namer.fresh (1 call updated" in result.stdout
    text = stub.read_text()
    assert text.startswith(
        "from tvm.ir import GlobalVar, IRModule\nfrom tvm.ir.supply import GlobalVarSupply\n"
    )
    assert (
        "def make_global(name: str, kind: str = ..., *, global_var_supply: GlobalVarSupply)"
        " -> GlobalVar: ..."
    ) in text
    assert (
        "    def fresh(self, name: str, *, global_var_supply: GlobalVarSupply) -> GlobalVar: ..."
    ) in text
    assert "def lower(mod: IRModule) -> IRModule: ..." in text
    ast.parse(text)
    again = run_fix(project, "--unsafe")
    assert stub.read_text() == text
    assert "Thread" not in again.stdout


def test_overloads_in_the_stub_stop_the_change(project: Path) -> None:
    stub = project / "python" / "pkg" / "passes.pyi"
    overloads = (
        "from typing import overload\nfrom tvm.ir import GlobalVar\n\n"
        "@overload\ndef make_global(name: str) -> GlobalVar: ...\n"
        "@overload\ndef make_global(name: str, kind: str) -> GlobalVar: ...\n"
    )
    stub.write_text(overloads)
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    assert "passes.pyi declares make_global 2 times (overloads)" in result.stdout
    assert _texts(project) == before
    assert stub.read_text() == overloads


@pytest.mark.parametrize(
    ("stub", "reason"),
    [
        (
            "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n"
            "    def make_global(name: str, kind: str = ...) -> object: ...\n",
            "passes.pyi declares make_global inside a block",
        ),
        (
            "import sys\n\ndef make_global(name: str, kind: str = ...) -> object: ...\n"
            "if sys.version_info >= (3, 12):\n"
            "    def make_global(name: str, kind: str = ...) -> object: ...\n",
            "passes.pyi declares make_global inside a block",
        ),
        (
            "from mylib import Thing as GlobalVarSupply\n\n"
            "def make_global(name: str, kind: str = ...) -> object: ...\n"
            "def other(x: GlobalVarSupply) -> None: ...\n",
            "passes.pyi gives the name GlobalVarSupply to something else",
        ),
    ],
)
def test_a_stub_the_change_cannot_follow_stops_it(project: Path, stub: str, reason: str) -> None:
    path = project / "python" / "pkg" / "passes.pyi"
    path.write_text(stub)
    before = _texts(project)
    result = run_fix(project, "--unsafe")
    assert reason in result.stdout, result.stdout
    assert _texts(project) == before
    assert path.read_text() == stub
