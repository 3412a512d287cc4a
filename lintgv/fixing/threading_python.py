"""Stage three of `lintgv fix --unsafe` for Python: a supply threaded into a function.

As for C++ (fixing/threading.py): a GlobalVar built by hand in a function with no
GlobalVarSupply or IRModule in scope gets its supply from its callers. The function gets a
keyword-only parameter `global_var_supply: GlobalVarSupply` (keyword-only, so that no call
that passes its arguments by position binds one of them to it), and every call of it in
the project passes `global_var_supply=` the caller's supply, one made from the caller's
IRModule, or — up to `supply-depth` calls up, where that brings a real supply from
further up — the caller's own new parameter. A method with nothing to pass passes an
attribute its class's `__init__` sets (fixing/python_members.py); any other caller with
nothing to pass passes a new, empty `GlobalVarSupply()`; both are listed in the change's
evidence. A caller's several calls, or
one in a loop, share one `global_var_supply = GlobalVarSupply(mod)` declared before them.

Calls are resolved through the file's imports: `build(...)` in the function's own module,
`from pkg.passes import build` or `import pkg.passes as p; p.build(...)` elsewhere. A
method is called through `self`, `cls` or its class. The change is not made (and the
summary says why) when the function is used other than by a call (passed as a value,
decorated, named in a string, imported under another name or through a star, reached
through a module that may re-export it), its name is bound again or hidden, a method of
its name is called on another receiver or defined elsewhere, a file naming it cannot be
parsed or read, a changed file would not compile, no caller has a supply or module to
pass, or nothing checked calls it.
"""

import re
import warnings
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from pathlib import Path

import libcst as cst

from lintgv.codemods import python_scope as scope
from lintgv.codemods.includes import SUPPLY_MODULE, import_edit
from lintgv.codemods.names import free_name
from lintgv.codemods.unique_names import Change
from lintgv.config import Config
from lintgv.fixes import apply_edits
from lintgv.fixing import python_members
from lintgv.fixing.python_calls import (
    Parses,
    PyFile,
    Target,
    function_of,
    hides,
    in_loop,
    is_not_a_use,
    keyword_of,
    load,
    names_in_bytes,
    reference,
    target_at,
)
from lintgv.fixing.thread_edits import (
    PARAMETER,
    Refusal,
    Site,
    ThreadEdits,
    excluded_naming,
    named_with_parameter,
)
from lintgv.lines import LineIndex
from lintgv.model import Applicability, Edit, Language, SourceFile, Span
from lintgv.parsing.names import dotted, parameter_names
from lintgv.parsing.walk import descendants

_DECLARATION = f"{PARAMETER}: GlobalVarSupply"


_NEW_SUPPLY = python_members.NEW_SUPPLY


_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod"})


_SHOWN = 5  # places listed in a refusal


def plan_python_threading(
    sites: Iterable[Site],
    modules: Mapping[Path, str],
    read: Callable[[Path], str | None],
    config_for: Callable[[Path], Config],
    *,
    files: Parses | None = None,
    skip: Collection[str] = (),
    excluded: Callable[[], Sequence[Path]] = tuple,
) -> tuple[list[Change], list[Refusal]]:
    """Return one change per Python function that holds some of `sites`, and the
    functions that cannot be changed with why; functions whose change (by helper name)
    is in `skip` are not planned again. `modules` are the project's Python files (with
    their dotted module names), where calls are looked for; texts come from `read`."""
    files = files if files is not None else Parses()
    targets: dict[tuple[Path, int], Target] = {}
    for site in sites:
        config = config_for(site.path)
        if config.release.has_unique_name_supply:
            continue  # no GlobalVarSupply in this release
        file = load(files, site.path, modules, read)
        if not isinstance(file, PyFile):
            continue  # its GV101 findings came from this text: not expected, but safe
        target = target_at(file, site.line)
        if target is not None:
            targets.setdefault((site.path, id(target.function)), target)
    changes: list[Change] = []
    refused: list[Refusal] = []
    for target in targets.values():
        helper = f"{target.qualified} (supply parameter)"
        if helper in skip:
            continue
        config = config_for(target.file.path)
        outcome = _change(target, modules, read, config, files, excluded)
        if isinstance(outcome, str):
            refused.append(Refusal(helper, target.file.path, outcome))
        elif outcome is not None:
            changes.append(outcome)
    return changes, refused


class _Threader(ThreadEdits):
    """A Python change: the function and its callers."""

    def __init__(
        self,
        modules: Mapping[Path, str],
        read: Callable[[Path], str | None],
        files: Parses,
        max_size: int,
        excluded: Callable[[], Sequence[Path]],
    ) -> None:
        super().__init__()
        self.modules = modules
        self.read = read
        self.files = files
        self.max_size = max_size  # of a file read as bytes when it is not text
        self.excluded = excluded  # files the run excludes, which no change may leave behind
        self.users: dict[str, list[Path]] = {}  # project files by a pattern they match
        self.path_of = {module: path for path, module in modules.items()}

    def thread(self, target: Target, depth: int, seen: frozenset[str]) -> str | None:
        """Add the edits that give `target` the parameter and pass it at every call;
        return why that cannot be done (nothing is added then)."""
        why = _unthreadable(target) or excluded_naming(self.excluded, self.read, target.name)
        if why is not None:
            return why
        found = self._references(target)
        if isinstance(found, str):
            return found
        calls, others, stubs = found
        if others:
            places = list(dict.fromkeys(others))  # a node and its parent may both count
            shown = ", ".join(places[:_SHOWN])
            more = f" and {len(places) - _SHOWN} more" if len(places) > _SHOWN else ""
            return f"{target.name} is used other than by a call it can update: {shown}{more}"
        if not calls:
            # Its callers, if any, are outside the files checked (an API, a framework):
            # a new required parameter would break them unseen.
            return f"no call of {target.name} in the files checked"
        self.threaded.append(target.qualified)
        self.given.add((target.file.path, id(target.function)))
        self.add(target.file.path, _parameter_edit(target.file, target.function))
        for stub, declaration in stubs:  # the module's .pyi declares it: the same parameter
            self.add(stub.path, _parameter_edit(stub, declaration))
        grounded = False
        built: dict[tuple[Path, int], list[tuple[PyFile, cst.Call, str]]] = {}
        for file, call in calls:
            supply = self._supply(file, call, target, depth, seen | {target.qualified})
            caller = function_of(file, call)
            if (
                caller is not None
                and supply.startswith("GlobalVarSupply(")
                and supply != _NEW_SUPPLY
            ):
                built.setdefault((file.path, id(caller)), []).append((file, call, supply))
            else:
                self.add(file.path, _argument_edit(file, call, supply))
            grounded |= supply != _NEW_SUPPLY
        for members in built.values():
            self._pass_one_supply(members)
        self.calls += len(calls)
        self.grounded = grounded
        return None

    def _references(
        self, target: Target
    ) -> (
        tuple[list[tuple[PyFile, cst.Call]], list[str], list[tuple[PyFile, cst.FunctionDef]]] | str
    ):
        """Return the calls of `target` in the project, the places that name it some
        other way (or call a method of its name on an unknown receiver), and its
        declaration in its module's stub (`passes.pyi` beside `passes.py`)."""
        calls: list[tuple[PyFile, cst.Call]] = []
        others: list[str] = []
        stubs: list[tuple[PyFile, cst.FunctionDef]] = []
        stub_path = target.file.path.with_suffix(".pyi")
        name = re.escape(target.name)
        word = re.compile(rf"(?<!\w){name}(?!\w)")
        # A method is followed in its own file only: elsewhere, any `.name` or `def name`
        # is a call on a receiver lintgv cannot resolve, or an override, and stops the
        # change (found by text, without a parse).
        method_use = re.compile(rf"\.\s*{name}(?!\w)|\bdef\s+{name}(?!\w)")
        for path in sorted(self.modules, key=lambda p: p.as_posix()):
            text = self.read(path)
            if text is None:
                if names_in_bytes(path, target.name, self.max_size):
                    return calls, [f"{path.name} (names it, and cannot be read as text)"], stubs
                continue
            if target.name not in text or word.search(text) is None:
                continue
            if path == stub_path and path != target.file.path:
                stub = self._stub_declaration(path, target)
                if isinstance(stub, str):
                    return calls, [stub], stubs
                stubs.extend([stub] if stub is not None else [])
                continue
            if target.cls is not None and path != target.file.path:
                found = method_use.search(text)
                if found is not None:
                    line = text.count("\n", 0, found.start()) + 1
                    return calls, [f"{path.name}:{line}"], stubs
                continue
            file = load(self.files, path, self.modules, self.read)
            if isinstance(file, str):
                return f"{file}, so its calls of {target.name} are unknown"
            for node in descendants(file.module):
                if isinstance(node, cst.FunctionDef) and node.name.value == target.name:
                    if node is not target.function and hides(file, target):
                        kind = "method" if target.cls is not None else "definition"
                        others.append(f"{file.where(node)} (another {kind} of that name)")
                    continue
                verdict = reference(file, node, target) or self._reexport(file, node, target)
                if verdict == "call":
                    call = file.parent_of(node)
                    assert isinstance(call, cst.Call)
                    if any(keyword_of(a) == PARAMETER for a in call.args):
                        others.append(f"{file.where(node)} (passes {PARAMETER} already)")
                    calls.append((file, call))
                elif verdict is not None:
                    others.append(file.where(node) + verdict.removeprefix("other"))
            if others:
                break  # the change is refused: the rest need not be parsed
        return calls, others, stubs

    def _stub_declaration(
        self, path: Path, target: Target
    ) -> tuple[PyFile, cst.FunctionDef] | str | None:
        """Return the one declaration of `target` in its module's stub (None when the stub
        does not declare it), or why the stub stops the change."""
        file = load(self.files, path, self.modules, self.read)
        if isinstance(file, str):
            return f"{file}, so its declaration of {target.name} is unknown"
        body: Sequence[cst.CSTNode] = file.module.body
        scope: cst.CSTNode = file.module
        if target.cls is not None:
            classes = [
                c
                for c in body
                if isinstance(c, cst.ClassDef) and c.name.value == target.cls.name.value
            ]
            if len(classes) != 1:
                return None if not classes else f"{path.name} defines {target.cls.name.value} twice"
            scope = classes[0]
            inner = classes[0].body
            body = inner.body if isinstance(inner, cst.IndentedBlock) else []
        found = [d for d in body if isinstance(d, cst.FunctionDef) and d.name.value == target.name]
        if len(found) > 1:
            return f"{path.name} declares {target.name} {len(found)} times (overloads)"
        anywhere = [
            d
            for d in descendants(scope)
            if isinstance(d, cst.FunctionDef) and d.name.value == target.name
        ]
        if len(anywhere) > len(found):
            # `if TYPE_CHECKING:` or a version test: a declaration the change would miss.
            return f"{path.name} declares {target.name} inside a block"
        if found and _SUPPLY_NAME.search(file.text) and not _SUPPLY_IMPORT.search(file.text):
            return f"{path.name} gives the name GlobalVarSupply to something else"
        return (file, found[0]) if found else None

    def _pass_one_supply(self, members: list[tuple[PyFile, cst.Call, str]]) -> None:
        """Make the calls of one caller that each would build a supply from its module
        share one, and a call in a loop use one for every turn: a supply per call would
        name each call's globals as if no other had made any (`f`, then `f` again).
        Declared in the innermost block holding them all, out of any loop, before the
        first; inline when the module is bound later."""
        file = members[0][0]
        members = sorted(members, key=lambda m: file.span_of(m[1]))
        _, first, supply = members[0]
        caller = function_of(file, first)
        repeated = len(members) > 1 or (caller is not None and in_loop(file, first, caller))
        shared = repeated and all(s == supply for _, _, s in members)
        anchor = None
        if shared and caller is not None:
            calls: list[cst.CSTNode] = [call for _, call, _ in members]
            block = scope.common_block(file, caller.body, calls)
            anchor = scope.block_child(file, block, first)
            module = supply.removeprefix("GlobalVarSupply(").removesuffix(")")
            line = file.span_of(anchor).start_line if anchor is not None else 0
            bound = file.planner.bindings(caller).at(module, line)
            if bound is None or bound.end_line >= line:
                anchor = None  # the module is bound inside the statement, or later
        if anchor is None:
            for _, call, each in members:
                self.add(file.path, _argument_edit(file, call, each))
            return
        assert caller is not None
        name = free_name(scope.names_in(caller), PARAMETER)
        at = scope.insertion_line(file, anchor)
        declaration = f"{scope.indent_of(file, anchor)}{name} = {supply}\n"
        self.add(file.path, Edit(Span(at, 0, at, 0), declaration, ""))
        for _, call, _ in members:
            self.add(file.path, _argument_edit(file, call, name))

    def _reexport(self, file: PyFile, node: cst.CSTNode, target: Target) -> str | None:
        """Tell whether `node` may reach a module-level `target` through another module
        (`from pkg.helpers import make_global`, where helpers imported it): "other" with
        the reason, unless that module defines a function of the name itself."""
        if target.cls is not None or not isinstance(node, cst.Name | cst.Attribute):
            return None
        last = node.attr.value if isinstance(node, cst.Attribute) else node.value
        if last != target.name or is_not_a_use(node, file.parent_of(node)):
            return None
        for qualified in file.qualified_names(node):
            module, _, _ = qualified.rpartition(".")
            path = self.path_of.get(module)
            if path is None or path == target.file.path:
                continue
            text = self.read(path) or ""
            if re.search(rf"(?m)^(?:async\s+)?def\s+{re.escape(target.name)}\b", text) is None:
                return f"other (may come from {module})"
        return None

    def _users(self, pattern: re.Pattern[str]) -> list[Path]:
        """Return the project's files whose text matches `pattern` (looked for once per
        pattern: every call a method makes asks about its class again)."""
        if pattern.pattern not in self.users:
            self.users[pattern.pattern] = [
                path
                for path in self.modules
                if (text := self.read(path)) is not None and pattern.search(text) is not None
            ]
        return self.users[pattern.pattern]

    def _supply(
        self, file: PyFile, call: cst.Call, target: Target, depth: int, seen: frozenset[str]
    ) -> str:
        """Return what a call passes; thread the parameter into its caller when the
        caller has nothing to pass and `depth` allows, else a new, empty supply."""
        caller = function_of(file, call)
        if caller is None:
            self.unresolved.append(file.where(call))
            return _NEW_SUPPLY
        if (file.path, id(caller)) in self.given:
            return PARAMETER
        line = file.span_of(call).start_line
        supply = file.planner.supply_at(caller, line)
        if supply is not None:
            return supply
        member = python_members.member_for(file, caller, self._users)
        if member is not None:
            if (file.path, member.key) not in self.members:
                self.members[(file.path, member.key)] = member.passed
                if member.edit is not None:
                    self.add(file.path, member.edit)
            self.kept.append((file.where(call), member.passed))
            return member.passed
        outer = target_at(file, file.span_of(caller).start_line)
        if depth > 1 and outer is not None and outer.qualified not in seen:
            # A caller gets the parameter only where that brings a real supply from
            # further up; a chain of new, empty supplies changes signatures for nothing.
            saved = self.snapshot()
            if self.thread(outer, depth - 1, seen) is None and self.grounded:
                return PARAMETER
            self.restore(saved)
        self.unresolved.append(file.where(call))
        return _NEW_SUPPLY


_SUPPLY_NAME = re.compile(r"\bGlobalVarSupply\b")
_SUPPLY_IMPORT = re.compile(
    r"^from\s+tvm\.ir\.supply\s+import\s+[^\n]*\bGlobalVarSupply\b(?!\s+as\b)", re.MULTILINE
)


def _unthreadable(target: Target) -> str | None:
    if target.nested:
        return (
            f"{target.name} is not defined at module level or in a module-level class: "
            "its calls are not followed"
        )
    if target.name.startswith("__") and target.name.endswith("__"):
        return f"{target.name} is called by Python itself"
    for decorator in target.function.decorators:
        applied = decorator.decorator
        name = dotted(applied.func if isinstance(applied, cst.Call) else applied) or "?"
        if name not in _PLAIN_DECORATORS:
            return f"{target.name} is decorated with @{name}: its callers are not in the code"
    if PARAMETER in parameter_names(target.function.params):
        return f"{target.name} has a parameter named {PARAMETER} already"
    if PARAMETER in scope.names_in(target.function.body):
        return f"{target.name} uses the name {PARAMETER} already"
    return None


def _compile_problem(path: Path, text: str) -> str | None:
    """Return why CPython would not compile `text` (compiled, never run), or None. More
    than a parse: a repeated keyword argument, say, parses but does not compile."""
    try:
        with warnings.catch_warnings():  # the tree's own warnings are not the run's
            warnings.simplefilter("ignore")
            compile(text, str(path), "exec", dont_inherit=True)
    except SyntaxError as exc:
        return f"{path.name}:{exc.lineno}: {exc.msg}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return f"{path.name}: {exc}"
    return None


def _point(line: int, column: int, text: str) -> Edit:
    return Edit(Span(line, column, line, column), text, "")


def _after(file: PyFile, node: cst.CSTNode, text: str) -> Edit:
    if isinstance(node, cst.Param):
        # A parameter's own range ends at its name or annotation: its default comes after.
        annotation = node.annotation.annotation if node.annotation is not None else None
        node = node.default or annotation or node.name
    span = file.span_of(node)
    return _point(span.end_line, span.end_col, text)


def _parameter_edit(file: PyFile, function: cst.FunctionDef) -> Edit:
    """Return the edit adding the keyword-only parameter to `function`'s signature."""
    params = function.params
    if isinstance(params.star_arg, cst.Param | cst.ParamStar):
        last = params.kwonly_params[-1] if params.kwonly_params else params.star_arg
        return _after(file, last, f", {_DECLARATION}")
    if params.star_kwarg is not None:
        start = file.span_of(params.star_kwarg)
        return _point(start.start_line, start.start_col, f"*, {_DECLARATION}, ")
    last_positional: cst.CSTNode | None = None
    if params.params:
        last_positional = params.params[-1]
    elif isinstance(params.posonly_ind, cst.ParamSlash):
        last_positional = params.posonly_ind
    if last_positional is not None:
        return _after(file, last_positional, f", *, {_DECLARATION}")
    return _after_paren(file, function.name, f"*, {_DECLARATION}")


def _argument_edit(file: PyFile, call: cst.Call, supply: str) -> Edit:
    """Return the edit passing `supply` to `call` by keyword."""
    if call.args:
        return _after(file, call.args[-1], f", {PARAMETER}={supply}")
    return _after_paren(file, call.func, f"{PARAMETER}={supply}")


def _after_paren(file: PyFile, before: cst.CSTNode, text: str) -> Edit:
    """Return the edit putting `text` just inside the `(` that follows `before`."""
    index = LineIndex(file.text)
    end = file.span_of(before)
    at = file.text.index("(", index.offset(end.end_line, end.end_col)) + 1
    line, column = index.position(at)
    return _point(line, column, text)


def _change(
    target: Target,
    modules: Mapping[Path, str],
    read: Callable[[Path], str | None],
    config: Config,
    files: Parses,
    excluded: Callable[[], Sequence[Path]],
) -> Change | str | None:
    """Return the change threading a supply into `target`; a text saying why it cannot
    be made; or None when there is nothing to do."""
    threader = _Threader(modules, read, files, config.max_file_size, excluded)
    refusal = threader.thread(target, config.supply_depth, frozenset())
    if refusal is not None:
        return refusal
    if not threader.grounded:
        # Every caller would pass a new, empty supply: signatures change for nothing.
        return f"no caller of {target.name} has a GlobalVarSupply or IRModule to pass"
    texts: dict[Path, str] = {}
    for path, edits in threader.edits.items():
        file = files[path]
        wanted = [*edits]
        if any("GlobalVarSupply" in e.text for e in edits):  # an annotation or a new supply
            header = import_edit(file.module, file.span_of, SUPPLY_MODULE, "GlobalVarSupply")
            wanted += [header] if header is not None else []
        texts[path] = apply_edits(file.text, wanted)
        problem = _compile_problem(path, texts[path])
        if problem is not None:
            return f"the change would not compile: {problem}"
    source = SourceFile(target.file.path, Language.PYTHON, texts[target.file.path])
    site_text = named_with_parameter(source, config, target.file.module_name)
    if site_text is None:
        return "GV101's fix did not name the site with the new parameter"
    texts[target.file.path] = site_text
    evidence = threader.evidence()
    title = f"Pass a GlobalVarSupply into {target.qualified} ({threader.calls} call(s) updated)"
    helper = f"{target.qualified} (supply parameter)"
    return Change(helper, texts, Applicability.UNSAFE, threader.calls, title, evidence)
