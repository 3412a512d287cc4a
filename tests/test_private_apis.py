"""The canary for the private APIs lintgv relies on, where no public one does the job.

Each is named here with what lintgv needs of it. libcst and pygls are capped in
pyproject.toml below their next release; before raising a cap, run this file against the
new release: a failure names the API that moved, and the module that must change with it.
"""

import contextlib
import inspect
import json
import re
import subprocess
import sys
from pathlib import Path

import libcst as cst
import pytest
from pygls.protocol import LanguageServerProtocol
from pygls.workspace import TextDocument, Workspace


def test_libcst_code_generation_internals_positions_py_builds_on() -> None:
    """lintgv/parsing/positions.py runs libcst's code generation statement by statement,
    with hooks of its own in the state: before and after each node, and around a node's
    syntactic part (told which other nodes its range starts and ends with)."""
    from libcst._nodes.internal import CodegenState

    module = cst.parse_module("x = 1\nif x:\n    y = f(a)[0]\n")
    opened: list[cst.CSTNode] = []
    syntactic: list[tuple[cst.CSTNode, object, object]] = []

    class Hooked(CodegenState):
        def before_codegen(self, node: cst.CSTNode) -> None:
            opened.append(node)

        def record_syntactic_position(  # type: ignore[override]
            self,
            node: cst.CSTNode,
            *,
            start_node: cst.CSTNode | None = None,
            end_node: cst.CSTNode | None = None,
        ) -> contextlib.AbstractContextManager[None]:
            syntactic.append((node, start_node, end_node))
            return contextlib.nullcontext()

    state = Hooked(module.default_indent, module.default_newline)
    assert state.indent_tokens == []
    module.body[1]._codegen(state)
    assert "".join(state.tokens) == "if x:\n    y = f(a)[0]\n"
    assert opened[0] is module.body[1]
    statement = module.body[1]
    assert isinstance(statement, cst.If)
    hoisted = {type(n): (start, end) for n, start, end in syntactic}
    assert hoisted[cst.IndentedBlock][0] is statement.body.body[0]
    assert hoisted[cst.If][1] is statement.body
    assert callable(CodegenState.pop_trailing_newline)


def test_libcst_node_checks_cst_parse_py_skips_for_what_its_parser_builds() -> None:
    """lintgv/parsing/cst_parse.py relies on `CSTNode.__post_init__` doing nothing but
    check the node (`_validate`), and on the generated `__init__` looking it up on each
    call: it answers differently while its thread parses."""
    import threading

    from libcst._nodes.base import CSTNode

    from lintgv.parsing import cst_parse

    # libcst's own method, whether or not an earlier parse has wrapped it already.
    original = getattr(CSTNode.__post_init__, "__wrapped__", CSTNode.__post_init__)
    assert "_validate" in inspect.getsource(original)
    text = "def f(a, *, b=1):\n    return [x for x in a if x not in b] or f'{a!r}'\n"
    parsed = cst_parse.unchecked_parse(text)
    assert parsed.deep_equals(cst.parse_module(text)) and parsed.code == text
    # Outside a parse, and on another thread during one, a node is checked as before.
    with pytest.raises(cst.CSTValidationError):
        cst.Name("1x")
    with contextlib.suppress(cst.ParserSyntaxError):
        cst_parse.unchecked_parse("def (:\n")
    with pytest.raises(cst.CSTValidationError):
        cst.Name("1x")
    raised: list[BaseException] = []

    def make() -> None:
        try:
            cst.Name("1x")
        except cst.CSTValidationError as exc:
            raised.append(exc)

    cst_parse._PARSING.depth += 1
    try:
        other = threading.Thread(target=make)
        other.start()
        other.join()
        assert cst.Name("1x").value == "1x"  # this thread is parsing: unchecked
    finally:
        cst_parse._PARSING.depth -= 1
    assert len(raised) == 1


def test_the_regex_parser_prefilter_py_reads_trigger_patterns_with() -> None:
    """lintgv/prefilter.py derives the literals every match of a trigger must contain."""
    import re._constants as sre  # type: ignore[import-not-found]
    import re._parser as sre_parse  # type: ignore[import-not-found]

    parsed = sre_parse.parse(r"Global(?:Var|Func)\(")
    assert not parsed.state.flags & sre.SRE_FLAG_IGNORECASE
    assert sre_parse.parse("(?i)x").state.flags & sre.SRE_FLAG_IGNORECASE
    assert [op for op, _ in parsed][:2] == [sre.LITERAL, sre.LITERAL]
    assert re.compile(r"Global(?:Var|Func)\(").pattern  # the public side still agrees


@pytest.mark.parametrize(
    ("owner", "name", "user"),
    [
        (LanguageServerProtocol, "_workspace", "state.py replaces the workspace at initialize"),
        (LanguageServerProtocol, "_shutdown", "protocol.py answers requests after shutdown"),
        (LanguageServerProtocol, "_send_data", "protocol.py sends errors with a null id"),
        (
            LanguageServerProtocol,
            "_handle_cancel_notification",
            "protocol.py remembers cancelled requests",
        ),
        (
            LanguageServerProtocol,
            "_send_handler_result",
            "protocol.py answers a failed request without a traceback",
        ),
        (LanguageServerProtocol, "_request_futures", "protocol.py forgets a failed request"),
        (LanguageServerProtocol, "_send_response", "protocol.py sends a failed request's error"),
        (Workspace, "_sync_kind", "state.py keeps pygls' sync kind in its workspace"),
        (Workspace, "_position_codec", "state.py gives its documents pygls' codec"),
        (Workspace, "_create_text_document", "state.py makes LintgvDocuments"),
        (TextDocument, "_source", "state.py edits a document's text in place"),
        (TextDocument, "_position_codec", "state.py maps a change's range to offsets"),
        (TextDocument, "_apply_full_change", "state.py notes a full change"),
        (TextDocument, "_apply_incremental_change", "state.py applies a ranged change"),
    ],
)
def test_pygls_internals_the_server_builds_on(owner: type, name: str, user: str) -> None:
    assert hasattr(owner, name) or name in _instance_attributes(owner), f"{name}: {user}"


def _instance_attributes(owner: type) -> set[str]:
    """Return the attribute names the `__init__` of `owner` and its bases assign to `self`."""
    found: set[str] = set()
    for cls in owner.__mro__:
        init = vars(cls).get("__init__")
        if init is not None and hasattr(init, "__code__"):
            found.update(re.findall(r"self\.(\w+)\s*[:=]", inspect.getsource(init)))
    return found


def test_pygls_hooks_the_document_overrides_keep_their_signatures() -> None:
    """state.py's LintgvWorkspace and LintgvDocument, and protocol.py's LintgvProtocol,
    override these by name: a renamed parameter would be passed wrongly, not fail."""
    made = inspect.signature(Workspace._create_text_document).parameters
    assert list(made) == ["self", "doc_uri", "source", "version", "language_id"]
    answered = inspect.signature(LanguageServerProtocol._send_handler_result).parameters
    assert list(answered) == ["self", "future", "msg_id"]
    document = inspect.signature(TextDocument.__init__).parameters
    assert {"sync_kind", "position_codec"} <= set(document)
    for name in ("_apply_full_change", "_apply_incremental_change"):
        assert list(inspect.signature(getattr(TextDocument, name)).parameters) == [
            "self",
            "change",
        ]


def test_cpython_blake2_module_digest_py_hashes_with() -> None:
    """lintgv/digest.py takes BLAKE2b from CPython's own module, not from hashlib (which
    loads OpenSSL); it must give hashlib's digests, or the cache and baselines of one
    Python would not be read by another."""
    import hashlib
    from _blake2 import blake2b

    from lintgv.digest import blake2b as used

    assert used is blake2b
    for data, size in ((b"", 8), (b"GlobalVar", 12), (bytes(range(256)) * 9, 16)):
        assert (
            blake2b(data, digest_size=size).digest()
            == hashlib.blake2b(data, digest_size=size).digest()
        )


def test_a_check_loads_no_openssl(tmp_path: Path) -> None:
    """Not loading hashlib (and OpenSSL with it) is the point of lintgv/digest.py: a
    module that imports hashlib or secrets again undoes it."""
    (tmp_path / "a.cc").write_text('void f() { GlobalVar gv("main"); }\n')
    probe = (
        "import runpy, sys\n"
        "sys.argv = ['lintgv', 'check', sys.argv[1]]\n"
        "try:\n"
        "    runpy.run_module('lintgv', run_name='__main__')\n"
        "except SystemExit:\n"
        "    pass\n"
        "print(sorted(m for m in ('_hashlib', 'hashlib', 'secrets') if m in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path)], capture_output=True, text=True, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]", done.stderr


_DESCRIBE_LIBCST_DATACLASSES = r"""
import dataclasses, inspect, json, re, sys, types

if sys.argv[1] == "load":
    from lintgv.parsing.libcst_import import complete, load

    load()
    complete()  # the rest of the package, imported as it is
else:
    import libcst  # noqa: F401


def value(v):
    if isinstance(v, types.FunctionType):
        cells = [value(c.cell_contents) for c in v.__closure__ or ()]
        return ["function", v.__qualname__, v.__module__, v.__doc__, code(v.__code__), cells,
                value(v.__defaults__), value(v.__kwdefaults__), value(v.__annotations__)]
    if isinstance(v, types.CodeType):
        return code(v)
    if isinstance(v, type):
        return ["type", v.__module__, v.__qualname__]
    if isinstance(v, (tuple, list)):
        return [value(x) for x in v]
    if isinstance(v, dict):
        return {str(k): value(x) for k, x in v.items()}
    if isinstance(v, frozenset):  # its repr's order changes with the string hashes
        return ["frozenset", sorted(repr(x) for x in v)]
    return re.sub(r" at 0x[0-9a-f]+", "", repr(v))


def code(c):
    return [c.co_name, c.co_flags, c.co_code.hex(), list(c.co_names), list(c.co_varnames),
            list(c.co_freevars), list(c.co_cellvars), [value(k) for k in c.co_consts]]


def outcome(call):
    try:
        call()
        return "done"
    except Exception as exc:
        return [type(exc).__name__, str(exc)]


def deferrable(cls, method, names):
    # What may tell a deferred method from the compiled one, but for its code: how it is
    # named and called, and what it does to an instance of the class itself (or, for an
    # abstract one, of a subclass), by position, by keyword and with an argument missing.
    made = cls
    if inspect.isabstract(cls):
        made = type("Probe", (cls,), {})
        made.__abstractmethods__ = frozenset()
    setting = method.__name__ == "__setattr__"
    done = {
        "named": [method.__qualname__, method.__module__, method.__doc__,
                  str(inspect.signature(method)), value(method.__annotations__),
                  value(method.__defaults__), value(method.__kwdefaults__)],
        "missing": outcome(lambda: method(object.__new__(made))),
    }
    for name in names:
        extra = {"value": 0} if setting else {}
        done[name] = [
            outcome(lambda: method(object.__new__(made), name, *extra.values())),
            outcome(lambda: method(object.__new__(made), name=name, **extra)),
        ]
    return done


classes = {}
for module in [m for n, m in sorted(sys.modules.items()) if n.startswith("libcst")]:
    for cls in vars(module).values():
        if not dataclasses.is_dataclass(cls) or not isinstance(cls, type):
            continue
        if cls.__module__ != module.__name__:
            continue
        names = [f.name for f in dataclasses.fields(cls)] + ["not_a_field"]
        described = {
            "class": [cls.__doc__, str(inspect.signature(cls)), sorted(vars(cls)),
                      value(getattr(cls, "__match_args__", None))],
        }
        for key, method in sorted(vars(cls).items()):
            if key in ("__setattr__", "__delattr__") and cls.__dataclass_params__.frozen:
                described[key] = deferrable(cls, method, names)
            elif isinstance(method, types.FunctionType):
                described[key] = value(method)
        classes[f"{cls.__module__}.{cls.__qualname__}"] = described
print(json.dumps(classes, sort_keys=True))
"""


def test_dataclass_internals_libcst_import_py_builds_libcst_with() -> None:
    """lintgv/parsing/libcst_import.py has dataclasses skip, defer or share the compiling
    of libcst's generated methods while libcst is imported. Every class must end with
    what a plain import gives it: the same signature and docstring, the same methods
    (code, flags, annotations and the values they close over), and a deferred
    `__setattr__` or `__delattr__` named and called as the compiled one, which does the
    same (raises the same error for each field, lets another name through the same way,
    by position or keyword)."""
    import dataclasses

    if sys.version_info < (3, 13):
        assert callable(dataclasses._create_fn) and callable(dataclasses._process_class)  # type: ignore[attr-defined]
        assert "exec(" in inspect.getsource(dataclasses._create_fn)  # type: ignore[attr-defined]
    described = {}
    for mode in ("plain", "load"):
        done = subprocess.run(
            [sys.executable, "-c", _DESCRIBE_LIBCST_DATACLASSES, mode],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[1],
        )
        described[mode] = json.loads(done.stdout)
    plain, loaded = described["plain"], described["load"]
    assert len(plain) > 150 and plain.keys() == loaded.keys()
    frozen = sum("__setattr__" in methods for methods in plain.values())
    assert frozen > 100
    for name, methods in plain.items():
        assert loaded[name] == methods, name


_ANOTHER_THREAD_DURING_LOAD = r"""
import dataclasses, json, threading

from lintgv.parsing.libcst_import import load  # lintgv's own imports done: only libcst's

started, loading, loaded = threading.Event(), threading.Event(), threading.Event()
made = []


def making():
    started.set()
    while not loaded.is_set():
        during = loading.is_set()

        @dataclasses.dataclass(frozen=True)
        class Made:
            y: int

            def __repr__(self):
                return "own"

        made.append([during, Made.__init__.__annotations__ == {"y": int, "return": None},
                     Made.__setattr__.__code__.co_filename, repr(Made(1)), Made(1) == Made(1)])


thread = threading.Thread(target=making)
thread.start()
started.wait()
loading.set()
load()
loaded.set()
thread.join()
print(json.dumps(made))
"""


def test_a_dataclass_another_thread_makes_meanwhile_is_made_as_it_is() -> None:
    """While libcst_import.load has dataclasses patched, a class another thread makes
    must come out as without it: its annotations real, its `__setattr__` compiled, its
    own `__repr__` kept, an `__eq__` of its own."""
    done = subprocess.run(
        [sys.executable, "-c", _ANOTHER_THREAD_DURING_LOAD],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert "Traceback" not in done.stderr, done.stderr
    made = json.loads(done.stdout)
    meanwhile = [m[1:] for m in made if m[0]]
    assert meanwhile, "no class was made while libcst was imported"
    assert all(m == [True, "<string>", "own", True] for m in meanwhile), meanwhile[:3]
