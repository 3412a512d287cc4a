"""libcst's package as lintgv/parsing/libcst_import.py makes it: its errors, nodes and
native parser only, the rest imported on the first lookup of a name it lacks.

Each case runs in a new interpreter, where libcst is not imported yet.
"""

import ast
import json
import subprocess
import sys
from pathlib import Path

import libcst
import pytest

import lintgv
from lintgv.parsing.libcst_import import parsing_names

_ROOT = Path(lintgv.__file__).resolve().parents[1]


def _run(script: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        check=False,
        cwd=_ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


_LOADED = r"""
import json, sys
from lintgv.parsing.libcst_import import load, parsing_names

libcst = load()
names = parsing_names()
print(json.dumps({
    "modules": sorted(n for n in sys.modules if n.partition(".")[0] == "libcst"),
    "bound": sorted(n for n in vars(libcst) if n in names),
    "same": all(
        getattr(libcst, n) is getattr(sys.modules[getattr(libcst, n).__module__], n)
        for n in names if isinstance(getattr(libcst, n), type)
    ),
}))
"""


def test_load_imports_the_nodes_and_the_parser_and_none_of_the_rest() -> None:
    loaded = _run(_LOADED)
    modules = loaded["modules"]
    assert isinstance(modules, list)
    assert {
        "libcst",
        "libcst._nodes.expression",
        "libcst._nodes.statement",
        "libcst.native",
    } <= set(modules)
    # (libcst before 1.5 has its errors import the pure-Python parser's token types.)
    left_out = (
        "libcst.metadata",
        "libcst.helpers",
        "libcst._batched_visitor",
        "libcst._parser.entrypoints",
        "libcst._parser.detect_config",
    )
    assert not [m for m in modules if m.startswith(left_out)]
    # Every name the package's `__init__` binds from those modules is bound, to the same
    # object a plain import binds.
    assert loaded["bound"] == sorted(parsing_names())
    assert loaded["same"] is True


def test_the_names_are_those_a_plain_import_binds_from_the_nodes_and_errors() -> None:
    names = parsing_names()
    assert {"Module", "Name", "Call", "ParserSyntaxError", "CSTNode", "MaybeSentinel"} <= names
    assert names <= set(vars(libcst))
    assert not {"MetadataWrapper", "parse_module", "ensure_type", "CSTTransformer"} & names
    for name in names:
        value = getattr(libcst, name)
        if isinstance(value, type):
            assert value.__module__.startswith(("libcst._nodes", "libcst._exceptions", "libcst._"))


def _cst_names_used(path: Path) -> set[str]:
    """The attributes a lintgv module looks up on `cst`, where it imports libcst_lazy
    under that name."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lazy = any(
        isinstance(node, ast.ImportFrom)
        and node.module == "lintgv.parsing"
        and any(a.name == "libcst_lazy" and a.asname == "cst" for a in node.names)
        for node in ast.walk(tree)
    )
    if not lazy:
        return set()
    return {
        node.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "cst"
    }


def test_every_libcst_name_lintgv_looks_up_through_libcst_lazy_is_bound() -> None:
    # libcst_lazy copies parsing_names() only: any other name would be an AttributeError
    # at run time (the type checker reads all of libcst's names from the stub).
    sources = [*(_ROOT / "lintgv").rglob("*.py"), *(_ROOT / "server").rglob("*.py")]
    used = {name: path for path in sources for name in _cst_names_used(path)}
    assert len(used) > 50
    missing = {name: str(path) for name, path in used.items() if name not in parsing_names()}
    assert missing == {}


_PARSES = r"""
import json
from lintgv.parsing import cst_parse
from lintgv.parsing.libcst_import import complete

texts = [
    "x = 1\n",
    "def f(a):\r\n    return g(a)\r\n",
    "\ufeffclass A:\n\tdef f(self): pass",
    "if x:\n    y = [i for i in z]  # note\nelse:\n    pass\n",
    "",
]
parsed = [cst_parse.parse(t) for t in texts]
unchecked = [cst_parse.unchecked_parse(t) for t in texts]
libcst = complete()
plain = [libcst.parse_module(t) for t in texts]
def facts(m):
    return [m.code, m.encoding, m.default_newline, m.default_indent, m.has_trailing_newline]
print(json.dumps({
    "equal": [a.deep_equals(b) and c.deep_equals(b) for a, b, c in zip(parsed, plain, unchecked)],
    "facts": [facts(a) == facts(b) == facts(c) for a, b, c in zip(parsed, plain, unchecked)],
}))
"""


def test_cst_parse_parses_as_libcsts_own_entry_point() -> None:
    parsed = _run(_PARSES)
    assert parsed["equal"] == [True] * 5
    assert parsed["facts"] == [True] * 5


_COMPLETED = r"""
import json, sys, threading
from lintgv.parsing.libcst_import import complete, load

libcst = load()
how = HOW
if how == "lookup":
    libcst.MetadataWrapper
elif how == "submodule":
    from libcst.metadata import PositionProvider
elif how == "threads":
    barrier = threading.Barrier(4)
    found = []
    def look():
        barrier.wait()
        found.append(libcst.MetadataWrapper.__name__)
    threads = [threading.Thread(target=look) for _ in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
    assert found == ["MetadataWrapper"] * 4, found
else:
    complete()
module = libcst.parse_module("x = f(1)\n")  # a plain import binds `native` only now
mine = {n: getattr(libcst, n) for n in libcst.__all__}
names = sorted(n for n in vars(libcst) if not n.startswith("__"))
print(json.dumps({
    "names": names,
    "same": all(
        v is getattr(sys.modules[v.__module__], n)
        for n, v in mine.items() if isinstance(v, type) and v.__module__ in sys.modules
    ),
    "hook": "__getattr__" in vars(libcst),
    "parsed": module.code,
}))
"""


@pytest.mark.parametrize("how", ["complete", "lookup", "submodule", "threads"])
def test_the_rest_of_the_package_comes_on_first_need(how: str) -> None:
    """`complete`, a lookup of a name the package lacks, an import of one of its other
    modules, or four threads looking a name up at once: each leaves the package with the
    names and objects of a plain import, and its hook gone."""
    completed = _run(_COMPLETED.replace("HOW", repr(how)))
    plain = _run(
        "import json, libcst\n"
        "libcst.parse_module('')\n"
        "print(json.dumps({'names': sorted(n for n in vars(libcst) if n[:2] != '__')}))\n"
    )
    assert completed["names"] == plain["names"]
    assert completed["same"] is True
    assert completed["hook"] is False
    assert completed["parsed"] == "x = f(1)\n"


_FALLBACK = r"""
import json, sys
from lintgv.parsing import libcst_import

libcst_import._PARSING_MODULES += ("libcst._not_there",)
libcst = libcst_import.load()
print(json.dumps({
    "whole": "libcst.metadata" in sys.modules and "__getattr__" not in vars(libcst),
    "same": libcst.Name is sys.modules["libcst._nodes.expression"].Name,
    "parsed": libcst.parse_module("y = 2\n").code,
}))
"""


def test_a_package_laid_out_otherwise_is_imported_whole() -> None:
    fallen_back = _run(_FALLBACK)
    assert fallen_back == {"whole": True, "same": True, "parsed": "y = 2\n"}
