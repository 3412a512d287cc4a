"""The walk from a Python function up its callers, for supply threading
(fixing/threading_python.py): every reference to the function in the project (a call it
can update, or a use that stops the change), what each call passes, and the callers
given the parameter in turn, up to `supply-depth` calls up.

Apart from the planning (fixing/threading_python.py), which turns the edits gathered
here into one change, checks that it compiles and names the site with the parameter.
"""

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from lintgv.codemods import python_scope as scope
from lintgv.codemods.names import free_name
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
    reference,
    target_at,
)
from lintgv.fixing.python_edits import argument_edit, parameter_edit
from lintgv.fixing.python_stubs import stub_declaration
from lintgv.fixing.thread_edits import PARAMETER, ThreadEdits, excluded_naming
from lintgv.model import Edit, Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.names import dotted, parameter_names
from lintgv.prefilter import matches
from lintgv.reading import may_name

_NEW_SUPPLY = python_members.NEW_SUPPLY


_PLAIN_DECORATORS = frozenset({"staticmethod", "classmethod"})


_SHOWN = 5  # places listed in a refusal


class PythonThreader(ThreadEdits):
    """A Python change: the function and its callers."""

    def __init__(
        self,
        modules: Mapping[Path, str],
        read: Callable[[Path], str | None],
        files: Parses,
        excluded: Callable[[], Sequence[Path]],
    ) -> None:
        super().__init__()
        self.modules = modules
        self.read = read
        self.files = files
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
        self.add(target.file.path, parameter_edit(target.file, target.function))
        for stub, declaration in stubs:  # the module's .pyi declares it: the same parameter
            self.add(stub.path, parameter_edit(stub, declaration))
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
                self.add(file.path, argument_edit(file, call, supply))
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
        # A method is followed in its own file only: elsewhere, any `.name` or `def name`
        # is a call on a receiver lintgv cannot resolve, or an override, and stops the
        # change (found by text, without a parse).
        method_use = re.compile(rf"\.\s*{name}(?!\w)|\bdef\s+{name}(?!\w)")
        for path, text in self.files.naming(target.name, self.modules, self.read):
            if text is None:
                if may_name(path, target.name):
                    return calls, [f"{path.name} (names it, and cannot be read as text)"], stubs
                continue
            if path == stub_path and path != target.file.path:
                stub = stub_declaration(load(self.files, path, self.modules, self.read), target)
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
            for node in file.naming(target.name):
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
                self.add(file.path, argument_edit(file, call, each))
            return
        assert caller is not None
        name = free_name(scope.names_in(caller), PARAMETER)
        at = scope.insertion_line(file, anchor)
        declaration = f"{scope.indent_of(file, anchor)}{name} = {supply}\n"
        self.add(file.path, Edit(Span(at, 0, at, 0), declaration, ""))
        for _, call, _ in members:
            self.add(file.path, argument_edit(file, call, name))

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
                if (text := self.read(path)) is not None and matches(pattern, text)
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
