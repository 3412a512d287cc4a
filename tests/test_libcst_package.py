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
looked_up = []
if how == "lookup":
    looked_up.append(libcst.MetadataWrapper)
elif how == "submodules":
    import libcst.helpers  # looks up names of the package while it is half made
    import libcst.display
    from libcst.metadata import MetadataWrapper
    looked_up.append(MetadataWrapper)
elif how == "threads":
    barrier = threading.Barrier(4)
    def look():
        barrier.wait()
        looked_up.append(libcst.MetadataWrapper)
    threads = [threading.Thread(target=look) for _ in range(4)]
    for t in threads: t.start()
    for t in threads: t.join()
hook_before = "__getattr__" in vars(libcst)
complete()
module = libcst.parse_module("x = f(1)\n")
mine = {n: getattr(libcst, n) for n in libcst.__all__}
print(json.dumps({
    "looked up": [v is libcst.MetadataWrapper for v in looked_up],
    "hook before": hook_before,
    "names": sorted(  # its modules apart: an import of one binds it on the package
        n for n, v in vars(libcst).items() if n[:2] != "__" and type(v) is not type(sys)
    ),
    "same": all(
        v is getattr(sys.modules[v.__module__], n)
        for n, v in mine.items() if isinstance(v, type) and v.__module__ in sys.modules
    ),
    "hook": "__getattr__" in vars(libcst),
    "parsed": module.code,
}))
"""


@pytest.mark.parametrize(
    ("how", "looked_up"), [("complete", 0), ("lookup", 1), ("submodules", 1), ("threads", 4)]
)
def test_the_rest_of_the_package_comes_on_first_need(how: str, looked_up: int) -> None:
    """A name the package lacks, looked up (from one thread or four at once) or imported
    by another of libcst's modules (which may look names up on the half-made package),
    is the object a plain import gives. `complete` then leaves the package with a plain
    import's names and objects, and its hook gone."""
    completed = _run(_COMPLETED.replace("HOW", repr(how)))
    plain = _run(
        "import json, sys, libcst\n"
        "print(json.dumps({'names': sorted(n for n, v in vars(libcst).items()\n"
        "    if n[:2] != '__' and type(v) is not type(sys))}))\n"
    )
    assert completed["looked up"] == [True] * looked_up
    assert completed["hook before"] is True
    assert completed["names"] == plain["names"]
    assert completed["same"] is True
    assert completed["hook"] is False
    assert completed["parsed"] == "x = f(1)\n"


_OTHERWISE = r"""
import contextlib, io, json, runpy, sys, tempfile
from pathlib import Path
from lintgv.parsing import libcst_import

found = libcst_import._imports_of_init()
if HOW == "no source":
    libcst_import._imports_of_init = lambda: ()
else:  # a module the `__init__` names is not there
    libcst_import._imports_of_init = lambda: found + (("libcst._nodes.gone", (("X", "X"),)),)
libcst = libcst_import.load()
folder = Path(tempfile.mkdtemp())
(folder / "f.py").write_text("import tvm\nx = tvm.ir.GlobalVar('f')\n")
sys.argv = ["lintgv", "check", "--no-cache", str(folder)]
report = io.StringIO()
with contextlib.redirect_stdout(report):
    try:
        runpy.run_module("lintgv", run_name="__main__")
    except SystemExit:
        pass
print(json.dumps({
    "report": report.getvalue(),
    "whole": "libcst.metadata" in sys.modules and "__getattr__" not in vars(libcst),
    "same": libcst.Name is sys.modules["libcst._nodes.expression"].Name,
    "names": sorted(libcst_import.parsing_names()) == sorted(libcst.__all__),
}))
"""


@pytest.mark.parametrize("how", ["no source", "a module gone"])
def test_a_package_laid_out_otherwise_is_imported_whole(how: str) -> None:
    """Without the `__init__`'s source to read (an install of bytecode alone), or with a
    module it names missing, libcst is imported as it is, and lintgv's checks work."""
    result = _run(_OTHERWISE.replace("HOW", repr(how)))
    assert "f.py:2:5: GV101" in str(result.pop("report"))
    assert result == {"whole": True, "same": True, "names": how == "no source"}


_INTERRUPTED = r"""
import json, sys
from lintgv.parsing import libcst_import

real = libcst_import.importlib.import_module
seen = []

def failing_once(name, *args):
    # What an import may meet once: a full table of open files, an interrupt.
    if name == "libcst._nodes.statement" and not seen:
        seen.append(sys.modules["libcst"].__spec__._initializing)
        raise OSError(24, "Too many open files")
    return real(name, *args)

libcst_import.importlib.import_module = failing_once
try:
    libcst_import.load()
except OSError as exc:
    failed = str(exc)
left = sorted(n for n in sys.modules if n.partition(".")[0] == "libcst")
libcst_import.importlib.import_module = real
libcst = libcst_import.load()
from lintgv.parsing.cst_parse import parse
print(json.dumps({
    "failed": failed,
    "waited": seen,
    "left": left,
    "parsed": parse("x = 1\n").code,
    "same": libcst.Module is sys.modules["libcst._nodes.module"].Module,
}))
"""


def test_an_import_that_fails_midway_leaves_nothing_half_made() -> None:
    """A first import that fails midway (an OSError, an interrupt) leaves no half-made
    package behind, and the next `load` imports it afresh. While it runs, the package is
    marked initializing, so another thread's `import libcst` waits for it."""
    result = _run(_INTERRUPTED)
    assert result == {
        "failed": "[Errno 24] Too many open files",
        "waited": [True],
        "left": [],
        "parsed": "x = 1\n",
        "same": True,
    }


_EARLY_LOOKUP = r"""
import json, sys, types
from lintgv.parsing import libcst_import

libcst = libcst_import.load()


class Early(types.ModuleType):
    # The first module the `__init__` imports, in a release where it looks a name up on
    # the package before the `__init__` has bound it.
    def __getattr__(self, name):
        return sys.modules["libcst"].BoundLater


first = libcst_import._imports_of_init()[0][0]
sys.modules[first] = Early(first)
try:
    libcst_import.complete()
    outcome = "completed"
except RecursionError:
    outcome = "ran the __init__ again"
except ImportError as exc:
    outcome = str(exc).split(" (")[0]
print(json.dumps({"outcome": outcome}))
"""


def test_a_name_looked_up_while_the_init_runs_fails_as_in_a_plain_import() -> None:
    """While `complete` runs the package's `__init__`, a name the package lacks is an
    error in that thread, as in any partial import, not a second run of the `__init__`."""
    result = _run(_EARLY_LOOKUP)
    assert str(result["outcome"]).startswith("cannot import name"), result


def _libcst_imports(path: Path) -> set[str]:
    """The modules of libcst that a lintgv module imports where it runs (imports for
    the type checker alone left out)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.partition(".")[0] == "libcst")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").partition(".")[0] == "libcst":
            found.add(node.module or "")
    return found


def test_lintgv_imports_no_module_of_libcst_that_load_leaves_out() -> None:
    # The tests import libcst whole before lintgv does: an import of libcst.metadata (say)
    # that `complete` does not precede would pass here and fail in a check.
    sources = [*(_ROOT / "lintgv").rglob("*.py"), *(_ROOT / "server").rglob("*.py")]
    imported = {
        (str(path.relative_to(_ROOT)), module)
        for path in sources
        for module in _libcst_imports(path)
    }
    loaded = {"libcst", "libcst._nodes.internal", "libcst._position"}
    assert {(path, module) for path, module in imported if module not in loaded} == {
        # after `complete()`, two lines above it
        ("lintgv/codemods/unique_names_python.py", "libcst.metadata"),
    }
