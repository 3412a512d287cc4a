"""Run a Python copy on the sequence in an isolated interpreter (`python -I -S`) inside the
sandbox (lintgv.runtime.copies.sandbox), and read back the names it returns.

A method runs on a stand-in object whose attributes are set the way the class sets the
ones the copy uses (class-level assignments, `self.x = ...` in `__init__`); a free
function's extra required parameters all receive one shared dict, like a caller's map.
Of the module's imports, only those of a few pure standard-library modules are kept; a
copy that imports anything else itself, or reaches for `eval`, `exec`, `open`,
`__import__` or a dunder attribute, is refused before anything runs.
"""

import ast
import json
import shutil
import sys
import tempfile
import textwrap
from pathlib import Path

from lintgv.runtime.copies.outcome import CopyRun, error_name
from lintgv.runtime.copies.sandbox import Limits, run_sandboxed, runnable_by_sandbox
from lintgv.runtime.copies.sequence import SEQUENCE

SECONDS = 10
_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod"})
# Modules a unique-name copy may plausibly use, with no file, process or network access.
SAFE_MODULES = frozenset(
    {"collections", "itertools", "functools", "re", "string", "typing", "dataclasses", "math"}
)
_FORBIDDEN_NAMES = frozenset(
    {"eval", "exec", "compile", "open", "__import__", "breakpoint", "input", "globals",
     "locals", "vars", "getattr", "setattr", "delattr", "memoryview"}
)  # fmt: skip


class Blocked(Exception):
    """The copy cannot run on its own; the message says why."""


def run_python_copy(
    path: Path,
    text: str,
    line: int,
    expected: tuple[str, ...],
    *,
    python: str = sys.executable,
    seconds: float = SECONDS,
    unsandboxed: bool = False,
) -> CopyRun:
    """Run the copy defined at `line` of `text` on the sequence beside NameSupply."""
    helper = f"line {line}"
    try:
        function, cls = _function_at(ast.parse(text), line)
        helper = f"{cls.name}.{function.name}" if cls else function.name
        script = harness_script(text, function, cls)
    except (SyntaxError, Blocked) as exc:
        return CopyRun(helper, path, line, "python", expected, reason=str(exc))
    interpreter = _interpreter(python)
    if interpreter is None:
        why = "no Python interpreter the sandbox's user may run (as root it runs as nobody)"
        return CopyRun(helper, path, line, "python", expected, reason=why)
    limits = Limits(wall_seconds=seconds, cpu_seconds=max(1, int(seconds)), memory_bytes=1024**3)
    with tempfile.TemporaryDirectory(prefix="lintgv-copy-") as scratch:
        (Path(scratch) / "harness.py").write_text(script, encoding="utf-8")
        argv = [interpreter, "-I", "-S", "harness.py"]
        done = run_sandboxed(argv, Path(scratch), limits, unsandboxed=unsandboxed)
    if done.stopped is not None:
        return CopyRun(helper, path, line, "python", expected, reason=f"it {done.stopped}")
    if done.returncode != 0:
        why = f"the harness failed: {done.stderr.strip().splitlines()[-1:]}"
        return CopyRun(helper, path, line, "python", expected, reason=why)
    try:
        items = json.loads(done.stdout.strip().splitlines()[-1])
        names = tuple(_name(item) for item in items)
    except (ValueError, IndexError, TypeError):
        why = "the harness printed something other than its names"
        return CopyRun(helper, path, line, "python", expected, reason=why)
    return CopyRun.of_names(helper, path, line, "python", expected, names)


def _interpreter(preferred: str) -> str | None:
    """Return a Python the sandbox can run: `preferred`, else the system's python3."""
    for candidate in (preferred, shutil.which("python3", path="/usr/local/bin:/usr/bin:/bin")):
        if candidate and runnable_by_sandbox(candidate):
            return candidate
    return None


def _refuse_escapes(code: ast.AST) -> None:
    """Refuse a copy (with what its class sets up) that imports a module outside
    SAFE_MODULES, or reaches for code or files (`eval`, `open`, `__import__`, a dunder
    attribute): a unique-name helper needs none of them."""
    for node in ast.walk(code):
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = (
                [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            )
            for module in modules:
                if (module or "").split(".")[0] not in SAFE_MODULES:
                    raise Blocked(f"refused: it imports `{module}`")
        elif isinstance(node, ast.Name) and node.id in _FORBIDDEN_NAMES:
            raise Blocked(f"refused: it uses `{node.id}`")
        elif isinstance(node, ast.Attribute) and _is_dunder(node.attr):
            raise Blocked(f"refused: it reaches for `{node.attr}`")


def _is_dunder(name: str) -> bool:
    return name.startswith("__") and name.endswith("__") and name != "__init__"


def harness_script(
    text: str,
    function: ast.FunctionDef,
    cls: ast.ClassDef | None,
    sequence: tuple[str, ...] = SEQUENCE,
) -> str:
    """Return a script that calls the copy once per name and prints the results as JSON."""
    for decorator in function.decorator_list:
        if not (isinstance(decorator, ast.Name) and decorator.id in _PLAIN_DECORATORS):
            raise Blocked(f"it is decorated with `@{ast.unparse(decorator)}`")
    source = textwrap.dedent(ast.get_source_segment(text, function, padded=True) or "")
    decorators = "".join(f"@{ast.unparse(d)}\n" for d in function.decorator_list)
    parts = [_imports(text)]
    if cls is None:
        parts.append(decorators + source)
        call = f"{function.name}"
        extra = _extra_arguments(function)
    else:
        parts.append(_stand_in(text, function, cls, decorators + source))
        call = f"_Copy().{function.name}"
        extra = ""
    _refuse_escapes(ast.parse("\n".join(parts)))
    parts.append(
        f"_call = {call}\n_shared = {{}}\n_out = []\n"
        f"for _name in {list(sequence)!r}:\n"
        "    try:\n"
        f"        _got = _call(_name{extra})\n"
        "        _out.append(['ok', _got] if isinstance(_got, str) else ['error', repr(_got)])\n"
        "    except Exception as _exc:\n"
        "        _out.append(['error', f'{type(_exc).__name__}: {_exc}'])\n"
        "import json\nprint(json.dumps(_out))\n"
    )
    return "\n".join(parts)


def _imports(text: str) -> str:
    """Return the module's imports of SAFE_MODULES; any other is never run."""
    lines = []
    for node in ast.parse(text).body:
        if isinstance(node, ast.Import):
            kept = [a for a in node.names if a.name.split(".")[0] in SAFE_MODULES]
            if kept:
                lines.append(ast.unparse(ast.Import(names=kept)) + "\n")
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in (
            SAFE_MODULES if node.level == 0 else ()
        ):
            lines.append(ast.unparse(node) + "\n")
    return "".join(lines)


def _extra_arguments(function: ast.FunctionDef) -> str:
    arguments = function.args
    if arguments.kwonlyargs and None in arguments.kw_defaults:
        raise Blocked("it takes a required keyword-only argument")
    positional = [*arguments.posonlyargs, *arguments.args]
    if not positional:
        raise Blocked("it takes no name argument")
    required = len(positional) - len(arguments.defaults)
    return ", _shared" * max(required - 1, 0)


def _stand_in(text: str, function: ast.FunctionDef, cls: ast.ClassDef, method: str) -> str:
    used = {
        node.attr
        for node in ast.walk(function)
        if isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in ("self", "cls")
    }
    methods = {n.name for n in cls.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}
    calls_others = sorted(used & methods - {function.name})
    if calls_others:
        raise Blocked(f"it calls other methods of `{cls.name}`: {', '.join(calls_others)}")
    class_level, in_init = _assignments(text, cls, used)
    missing = sorted(used - {function.name} - set(class_level) - set(in_init))
    if missing:
        raise Blocked(f"it uses `self.{missing[0]}`, which `{cls.name}` sets nowhere simple")
    body = [f"    {name} = {value}\n" for name, value in class_level.items()]
    body.append("    def __init__(self):\n        pass\n")
    body += [f"        self.{name} = {value}\n" for name, value in in_init.items()]
    return "class _Copy:\n" + "".join(body) + textwrap.indent(method, "    ")


def _assignments(
    text: str, cls: ast.ClassDef, used: set[str]
) -> tuple[dict[str, str], dict[str, str]]:
    class_level: dict[str, str] = {}
    in_init: dict[str, str] = {}
    for node in cls.body:
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name) and target.id in used:
                    class_level[target.id] = ast.unparse(node.value)
        if isinstance(node, ast.FunctionDef) and node.name == "__init__":
            for statement in ast.walk(node):
                if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value:
                    targets = (
                        statement.targets
                        if isinstance(statement, ast.Assign)
                        else [statement.target]
                    )
                    for target in targets:
                        if (
                            isinstance(target, ast.Attribute)
                            and isinstance(target.value, ast.Name)
                            and target.value.id == "self"
                            and target.attr in used
                        ):
                            in_init.setdefault(target.attr, ast.unparse(statement.value))
    return class_level, in_init


def _function_at(tree: ast.Module, line: int) -> tuple[ast.FunctionDef, ast.ClassDef | None]:
    found: tuple[ast.FunctionDef, ast.ClassDef | None] | None = None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            for child in node.body:
                if isinstance(child, ast.FunctionDef) and _starts_at(child, line):
                    found = (child, node)
        elif isinstance(node, ast.FunctionDef) and _starts_at(node, line) and found is None:
            found = (node, None)
    if found is None:
        raise Blocked("no function definition starts at that line (a lambda?)")
    return found


def _starts_at(function: ast.FunctionDef, line: int) -> bool:
    first = min([function.lineno, *(d.lineno for d in function.decorator_list)])
    return first <= line <= function.lineno


def _name(item: list[str]) -> str:
    kind, value = item
    return value if kind == "ok" else error_name(value)
