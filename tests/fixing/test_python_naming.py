"""PyFile.naming: the nodes supply threading asks about a function's name. Asked of
every node of a module instead, reference() and _reexport() must pick the same nodes, in
the same order, for every function of a small project that names its functions in every
way lintgv follows or stops at (calls, attributes, aliases, star imports, strings,
`__all__`, parameters, classes, methods, decorators, escapes in strings)."""

from pathlib import Path

import libcst as cst
import pytest

from lintgv.fixing.python_calls import Parses, PyFile, Target, reference
from lintgv.fixing.python_threader import PythonThreader
from lintgv.parsing.walk import descendants

FIXTURES = Path(__file__).parent.parent / "fixtures"

PROJECT = {
    "pkg/passes.py": '''\
"""Passes."""
import tvm
from tvm import IRModule

__all__ = ["make_global", "lower"]


def make_global(name, kind="fn"):
    return tvm.ir.GlobalVar(name)


def lower(mod: IRModule, make_global=None):
    gv = make_global("main")
    table = {"make_global": make_global, "\\x6dake_global": 1}
    return mod, table, [make_global for _ in range(2)], lambda: make_global("x")


class Builder:
    def make_global(self, name):
        return make_global(name)

    @staticmethod
    def build(mod):
        return Builder().make_global("b"), Builder.make_global(None, "c")

    def again(self):
        return self.make_global("d"), self.build(None)


def outer():
    def make_global(name):
        return name

    return make_global("inner")
''',
    "pkg/driver.py": """\
from pkg.passes import make_global, lower as lowered
from pkg.passes import make_global as mg
import pkg.passes as p
from pkg import passes
from pkg.passes import *


def build(mod):
    first = make_global("f", kind="x")
    second = mg("f")
    third = p.make_global("g") + passes.make_global("h")
    return first, second, third, getattr(p, "make_global"), f"{make_global}"


class make_global_user:
    make_global = staticmethod(make_global)
""",
    "pkg/__init__.py": "from pkg.passes import make_global\n",
}


def project(tmp_path: Path) -> tuple[dict[Path, str], dict[Path, str]]:
    texts: dict[Path, str] = {}
    modules: dict[Path, str] = {}
    for relative, text in PROJECT.items():
        path = tmp_path / relative
        texts[path] = text
        modules[path] = relative.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
    for path in sorted(FIXTURES.rglob("*.py")):
        texts[path] = path.read_text()
        modules[path] = path.stem
    return texts, modules


def targets(file: PyFile) -> list[Target]:
    """Every function of `file`, as a function and, inside a class, as a method."""
    found = []
    for node in descendants(file.module):
        if not isinstance(node, cst.ClassDef):
            continue
        for statement in node.body.body:
            if isinstance(statement, cst.FunctionDef):
                found.append(Target(file, statement, node))
    found += [Target(file, f, None) for f in file.functions]
    return found


def test_naming_picks_the_nodes_a_walk_of_every_node_picks(tmp_path: Path) -> None:
    texts, modules = project(tmp_path)
    files = Parses()
    threader = PythonThreader(modules, texts.get, files, list)
    parsed = {path: PyFile(path, text, modules[path]) for path, text in texts.items()}
    compared = 0
    for owner in parsed.values():
        for target in targets(owner):
            name = target.name

            def answers(file: PyFile, node: cst.CSTNode, target: Target = target) -> bool:
                named = isinstance(node, cst.FunctionDef) and node.name.value == target.name
                return (
                    named
                    or reference(file, node, target) is not None
                    or threader._reexport(file, node, target) is not None
                )

            for file in parsed.values():
                every = [n for n in descendants(file.module) if answers(file, n)]
                indexed = [n for n in file.naming(name) if answers(file, n)]
                assert indexed == every, (file.path.name, name, target.cls)
                compared += len(every)
    # The project names its functions: a comparison of empty lists alone proves nothing.
    assert compared > 50


@pytest.mark.parametrize("name", ["make_global", "lower", "absent"])
def test_naming_keeps_the_walk_order(tmp_path: Path, name: str) -> None:
    texts, modules = project(tmp_path)
    path = tmp_path / "pkg/passes.py"
    file = PyFile(path, texts[path], modules[path])
    order = {id(node): at for at, node in enumerate(descendants(file.module))}
    places = [order[id(node)] for node in file.naming(name)]
    assert places == sorted(places)
    assert file.functions == [n for n in descendants(file.module) if isinstance(n, cst.FunctionDef)]
