"""A Python project as supply threading sees it (fixing/threading_python.py): its files,
parsed once per text, the function a site is in, and who names that function and how:
a call lintgv can update, or a use it cannot follow (a value, an alias, a star import,
a string, a rebinding, a possible re-export), which stops the change."""

import bisect
import functools
import heapq
import operator
from collections.abc import Callable, Iterator, Mapping
from dataclasses import field
from pathlib import Path

from lintgv.allocator import give_back
from lintgv.codemods.supply_python import SupplyPlanner
from lintgv.errors import ParseError
from lintgv.helpers.names import word_pattern
from lintgv.holding import Holding
from lintgv.model import Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.names import dotted, module_of, resolve_relative
from lintgv.parsing.python import ParsedPython, parse_python
from lintgv.parsing.walk import children, trivia
from lintgv.records import frozen, mutable


class PyFile:
    """One parsed Python file of the project, with what a codemod borrows from a rule."""

    def __init__(self, path: Path, text: str, module_name: str) -> None:
        self.path = path
        self.text = text
        self.module_name = module_name
        # Kept for the whole run: CPython's tree in it is cut to its statements (see
        # ast_statements), smaller than libcst's.
        self.parsed: ParsedPython = parse_python(text, module_name)
        self.planner = SupplyPlanner(self, complete=True, unique_names=False)
        self._codes: dict[int, str] = {}  # by the node's id: the parse holds the node

    @property
    def module(self) -> cst.Module:
        return self.parsed.module

    def span_of(self, node: cst.CSTNode) -> Span:
        where = self.parsed.positions[node]
        return Span(where.start.line, where.start.column, where.end.line, where.end.column)

    def qualified_names(self, node: cst.BaseExpression) -> set[str]:
        return self.parsed.names.qualified_names(node)

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None:
        self._walked  # noqa: B018  # notes the parents of every node but trivia
        return self.parsed.parent_of(node)

    def code_for(self, node: cst.CSTNode) -> str:
        """Return the module's code for `node`, generated once per parse: a class's is
        asked at every call of its methods, in every plan (a generation is libcst's code
        generation of the whole class, which was a third of a migration's later plans)."""
        found = self._codes.get(id(node))
        if found is None:
            found = self._codes[id(node)] = self.module.code_for_node(node)
        return found

    def where(self, node: cst.CSTNode) -> str:
        return f"{self.path.name}:{self.span_of(node).start_line}"

    @property
    def functions(self) -> list[cst.FunctionDef]:
        """Every function definition of the file, nested ones too, in the order of a walk."""
        return self._walked.functions

    def functions_near(self, line: int) -> list[cst.FunctionDef]:
        """The functions of `functions` that may hold `line`: those in the top-level
        statement whose code holds it (a statement's code ends where the next one's, its
        leading lines included, starts). All of them when those starts are unknown. A
        function's range is worked out by generating its code, which for every function
        of a file was a seventh of a migration's first plan."""
        walked = self._walked
        starts = self.parsed.starts
        if starts is None:
            return walked.functions
        top = bisect.bisect_right(starts, line) - 1
        return [f for f, at in zip(walked.functions, walked.tops, strict=True) if at == top]

    def naming(self, name: str) -> list[cst.CSTNode]:
        """Return, in the order of a walk of the module, every node `reference` may find
        naming `name`, and every `def` of it: the names, attributes, definitions and
        parameters spelled `name`, and every import and plain string (whose value is read
        only when asked). Of any other node, `reference` says None."""
        walked = self._walked
        spelled = walked.spelled.get(name, [])
        merged = heapq.merge(spelled, walked.always, key=operator.itemgetter(0))
        return [node for _, node in merged]

    @functools.cached_property
    def _walked(self) -> "_Walked":
        # Walked once per parse: every site of the file asks which function holds it, and
        # every function threaded asks for its references in each file that names it
        # (walking the whole module per name was most of a migration's planning).
        # Told apart by their exact class (a parse makes no subclass of these; isinstance
        # on libcst's abstract classes took a quarter of the walk), in the order of
        # `descendants`, less the trivia, which hold none of these.
        # The parents of the nodes met are noted on the way: mapping them in a walk of
        # their own took twice as long as this one.
        walked = _Walked()
        skipped = trivia()
        module = self.module
        parents: dict[int, cst.CSTNode] = {}
        order = 1  # the module's own place
        # The module's children but trivia are its statements; a walk from it takes the
        # last first, and each one's nodes together.
        for top in reversed(range(len(module.body))):
            parents[id(module.body[top])] = module
            stack: list[cst.CSTNode] = [module.body[top]]
            while stack:
                node = stack.pop()
                below = children(node, skipped)
                for child in below:
                    parents[id(child)] = node
                stack += below
                order += 1
                if type(node) is cst.Name:
                    key = node.value
                elif type(node) is cst.Attribute:
                    key = node.attr.value
                elif type(node) is cst.FunctionDef:
                    key = node.name.value
                    walked.functions.append(node)
                    walked.tops.append(top)
                elif type(node) is cst.ClassDef or type(node) is cst.Param:
                    key = node.name.value
                elif type(node) in _ALWAYS:
                    walked.always.append((order, node))
                    continue
                else:
                    continue
                walked.spelled.setdefault(key, []).append((order, node))
        self.parsed.note_parents(parents)
        return walked


# The nodes `naming` gives whatever the name: an import may bind it, a string hold it.
_ALWAYS = (cst.ImportAlias, cst.ImportFrom, cst.SimpleString)


@mutable
class _Walked:
    """What one walk of a module gives `PyFile`: by the name each is spelled with, the
    nodes that may name a function; the nodes that may name any (imports, strings); the
    function definitions. Nodes go with their place in the walk."""

    spelled: dict[str, list[tuple[int, cst.CSTNode]]] = field(default_factory=dict)
    always: list[tuple[int, cst.CSTNode]] = field(default_factory=list)
    functions: list[cst.FunctionDef] = field(default_factory=list)
    tops: list[int] = field(default_factory=list)  # each function's top-level statement


@frozen
class Target:
    """A function to give the parameter: where it is and how it is called."""

    file: PyFile
    function: cst.FunctionDef
    cls: cst.ClassDef | None  # the class of a method
    # Not at module level or in a module-level class: its calls are not followed.
    nested: bool = False

    @property
    def name(self) -> str:
        return self.function.name.value

    @property
    def qualified(self) -> str:
        owner = f"{self.cls.name.value}." if self.cls is not None else ""
        return f"{self.file.module_name or self.file.path.stem}.{owner}{self.name}"


class Parses(dict[Path, "PyFile"]):
    """The parses of a run's Python files, each of the text it was last read with: a
    run plans again after every change, and most files have not changed since. And which
    of those texts hold a name, for the same reason (see Holding)."""

    def __init__(self) -> None:
        super().__init__()
        self._ordered: tuple[Mapping[Path, str], list[Path]] | None = None
        self._holding = Holding()

    def naming(
        self, name: str, modules: Mapping[Path, str], read: Callable[[Path], str | None]
    ) -> Iterator[tuple[Path, str | None]]:
        """Yield the files of `modules` whose text names `name` as a word, with that
        text, and those that cannot be read, with None; in the order of their paths."""
        if self._ordered is None or self._ordered[0] is not modules:
            self._ordered = (modules, sorted(modules, key=lambda p: p.as_posix()))
        return self._holding.matches(word_pattern(name), name, self._ordered[1], read)


def load(
    files: Parses,
    path: Path,
    modules: Mapping[Path, str],
    read: Callable[[Path], str | None],
) -> PyFile | str:
    """Return the parse of `path`'s current text (from `files` when that text was parsed
    before), or why there is none."""
    text = read(path)
    if text is None:
        return f"{path.name} cannot be read"
    if path not in files or files[path].text != text:
        try:
            files[path] = PyFile(path, text, modules.get(path, ""))
        except ParseError:
            return f"{path.name} cannot be parsed"
        finally:
            give_back()  # what libcst's parser freed (see lintgv/allocator.py)
    return files[path]


def target_at(file: PyFile, line: int) -> Target | None:
    """Return the innermost function holding `line`, if it is one lintgv can thread:
    a module-level function or a method of a module-level class."""
    holding = [
        node
        for node in file.functions_near(line)
        if file.span_of(node).start_line <= line <= file.span_of(node).end_line
    ]
    if not holding:
        return None
    function = max(holding, key=lambda f: file.span_of(f).start_line)
    parent = file.parent_of(function)
    if parent is file.module:
        return Target(file, function, None)
    holder = file.parent_of(parent) if isinstance(parent, cst.IndentedBlock) else None
    if isinstance(holder, cst.ClassDef) and file.parent_of(holder) is file.module:
        return Target(file, function, holder)
    return Target(file, function, None, nested=True)


def reference(file: PyFile, node: cst.CSTNode, target: Target) -> str | None:
    """Tell whether `node` names `target`: "call" (the callee of a call), "other" (any
    other use, or a method of its name called on a receiver lintgv cannot resolve), or
    None (not a reference)."""
    name = target.name
    parent = file.parent_of(node)
    if isinstance(node, cst.Attribute) and node.attr.value == name:
        receiver = node.value
        if target.cls is not None:
            known = _is_own_receiver(file, receiver, target)
        else:
            names = file.qualified_names(node)
            known = f"{target.file.module_name}.{name}" in names
            if not known and not _reexported(names, target):
                return None  # another object's attribute of that name
        is_call = isinstance(parent, cst.Call) and parent.func is node
        if not known:
            return "other"
        return "call" if is_call else "other"
    if target.cls is not None:
        return None
    found = _binding_or_mention(file, node, target)
    if found is not None:
        return found
    if not isinstance(node, cst.Name) or node.value != name:
        return None
    if is_not_a_use(node, parent):
        return None
    if file.path == target.file.path:
        resolves = name in file.parsed.names.local
    else:
        names = file.qualified_names(node)
        resolves = f"{target.file.module_name}.{name}" in names
        if not resolves and _reexported(names, target):
            return "other"
    if not resolves:
        return None
    return "call" if isinstance(parent, cst.Call) and parent.func is node else "other"


def hides(file: PyFile, target: Target) -> bool:
    """Tell whether another `def` of the target's name in `file` matters: for a method,
    any (an override, or a method lintgv cannot tell apart); for a module-level function,
    one in its own module (a redefinition, a nested function hiding it, a stub) or in a
    file that imports it by that name (which the def then hides)."""
    if target.cls is not None or file.module_name == target.file.module_name:
        return True
    identity = f"{target.file.module_name}.{target.name}"
    return identity in file.parsed.names.imports.get(target.name, set())


def _binding_or_mention(file: PyFile, node: cst.CSTNode, target: Target) -> str | None:
    """Tell whether `node` rebinds or hides a module-level `target`'s name, imports it
    under another name or through a star, or names it in a string (`getattr`): each
    makes some calls impossible to follow, so "other" with the reason; else None."""
    name = target.name
    identity = f"{target.file.module_name}.{name}"
    if isinstance(node, cst.Param | cst.ClassDef) and node.name.value == name:
        return "other (binds the name)"
    if isinstance(node, cst.ImportAlias):
        statement = file.parent_of(node)
        if not isinstance(statement, cst.ImportFrom):
            return None
        base = resolve_relative(module_of(statement), file.module_name)
        imported = dotted(node.name) or ""
        renamed = node.asname is not None and dotted(node.asname.name) != imported
        if renamed and (f"{base}.{imported}" == identity or imported == name):
            return "other (imported under another name)"
        if file.path == target.file.path and imported == name:
            return "other (rebinds the name)"
        return None
    if isinstance(node, cst.ImportFrom) and isinstance(node.names, cst.ImportStar):
        base = resolve_relative(module_of(node), file.module_name)
        module = target.file.module_name
        if base and (module == base or module.startswith(base + ".")):
            return "other (a star import)"
        return None
    if (
        isinstance(node, cst.SimpleString)
        and node.evaluated_value == name
        and not _in_all(file, node)
    ):
        return "other (named in a string)"
    return None


def _in_all(file: PyFile, node: cst.CSTNode) -> bool:
    """Tell whether a string sits in an `__all__` list, which only a star import reads."""
    current = file.parent_of(node)
    while current is not None and not isinstance(current, cst.BaseSmallStatement):
        current = file.parent_of(current)
    targets: list[cst.BaseExpression] = []
    if isinstance(current, cst.Assign):
        targets = [t.target for t in current.targets]
    elif isinstance(current, cst.AugAssign | cst.AnnAssign):
        targets = [current.target]
    return any(isinstance(t, cst.Name) and t.value == "__all__" for t in targets)


def keyword_of(arg: cst.Arg) -> str:
    return arg.keyword.value if arg.keyword is not None else ""


def _reexported(names: set[str], target: Target) -> bool:
    """Tell whether a name resolves to the function through a package that may re-export
    it (`tvm.relay.transform.F` for `tvm.relay.transform.passes.F`): lintgv cannot tell,
    and a call left without the new argument would fail, so such a use stops the change."""
    module = target.file.module_name
    for qualified in names:
        package, _, last = qualified.rpartition(".")
        if last == target.name and package and module.startswith(package + "."):
            return True
    return False


def is_not_a_use(node: cst.Name | cst.Attribute, parent: cst.CSTNode | None) -> bool:
    """Tell whether a Name is a declaration or a label rather than a use of a value."""
    if isinstance(parent, cst.ImportAlias | cst.Param | cst.FunctionDef | cst.ClassDef):
        return True
    if isinstance(parent, cst.Attribute) and parent.attr is node:
        return True
    return isinstance(parent, cst.Arg) and parent.keyword is node


def _is_own_receiver(file: PyFile, receiver: cst.BaseExpression, target: Target) -> bool:
    """Tell whether `receiver.method` is the target method: `self`/`cls` inside its
    class, or the class itself in its own file."""
    assert target.cls is not None
    if file.path != target.file.path or not isinstance(receiver, cst.Name):
        return False
    if receiver.value == target.cls.name.value:
        return True
    if receiver.value not in ("self", "cls"):
        return False
    current = file.parent_of(receiver)
    while current is not None and not isinstance(current, cst.ClassDef):
        current = file.parent_of(current)
    return current is target.cls


_LOOPS = (cst.For, cst.While, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def in_loop(file: PyFile, node: cst.CSTNode, function: cst.FunctionDef) -> bool:
    """Tell whether `node` runs in a loop or a comprehension of `function`'s body."""
    current = file.parent_of(node)
    while current is not None and current is not function:
        if isinstance(current, _LOOPS):
            return True
        current = file.parent_of(current)
    return False


def function_of(file: PyFile, node: cst.CSTNode) -> cst.FunctionDef | None:
    """Return the function whose body runs `node`; None at module level, in a lambda or
    a class body. A default value or a decorator runs where its function is defined."""
    below, current = node, file.parent_of(node)
    while current is not None:
        if isinstance(current, cst.FunctionDef) and below is current.body:
            return current
        if isinstance(current, cst.Lambda) and below is current.body:
            return None
        if isinstance(current, cst.ClassDef) and below is current.body:
            return None
        below, current = current, file.parent_of(current)
    return None
