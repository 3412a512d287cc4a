"""global_symbol mutations in Python, and what the enclosing function shows of an earlier
one: `f.with_attr("global_symbol", v)`, `f.without_attr("global_symbol")` and
`f.with_attrs({"global_symbol": v, ...})`. Read off CPython's ast (see
parsing/python_ast.py): these rules report and fix nothing."""

from __future__ import annotations

import ast
import re
from dataclasses import field

from lintgv.parsing.python_ast import ParsedAst, arguments, children, descendants, dotted
from lintgv.records import frozen, mutable
from lintgv.rules._global_symbol import KEY
from lintgv.rules._global_symbol.messages import Evidence, Kind

# An expression that takes a function out of an IRModule: `mod[gv]`, `mod.functions`.
# A function fetched from an IRModule: `mod["main"]`, `mod.functions`, `functions_items()`.
# `.functions` counts only on a module-like name: a pass's own `self.functions` dict holds
# functions handed to it, not taken from a module.
MODULE_LOOKUP = re.compile(
    r"\b(?:\w+_)?mod(?:ule)?_?\s*\[|\b(?:\w+_)?mod(?:ule)?_?\.functions\b|\.functions_items\("
)
# Constructors of a new function, which starts without attributes.
FUNCTION_CONSTRUCTORS = frozenset({"Function", "PrimFunc"})
READ_METHODS = frozenset({"get", "get_attr", "has_attr"})
MAX_HOPS = 4
# A string literal's prefix and opening quotes.
_OPENING = re.compile(r"""[rRbBuUfF]{0,2}("{3}|'{3}|"|')""")


def is_key(node: ast.AST | None, parsed: ParsedAst) -> bool:
    """Tell whether `node` is the string literal "global_symbol", written as one literal
    (CPython joins adjacent ones, `"global_" "symbol"`, which libcst's rules never took
    for the key)."""
    return (
        isinstance(node, ast.Constant)
        and node.value == KEY
        and _is_one_literal(parsed.code_of(node))
    )


def _is_one_literal(code: str) -> bool:
    """Tell whether `code`, the text of a string constant, is one literal: its closing
    quotes end it (escapes and line continuations inside it skipped)."""
    opening = _OPENING.match(code)
    if opening is None:
        return False
    quote = opening.group(1)
    at = opening.end()
    while at < len(code):
        if code[at] == "\\":
            at += 2
        elif code.startswith(quote, at):
            return at + len(quote) == len(code)
        else:
            at += 1
    return False


@frozen
class PythonMutation:
    kind: Kind
    target: ast.expr  # the function changed
    value: ast.expr | None  # the new symbol, for a setting


@frozen
class Mutation:
    """A setting or removal of a function's global_symbol, and what shows the function
    had one before (None: nothing seen)."""

    call: ast.Call
    kind: Kind
    evidence: Evidence | None


def mutations_of(parsed: ParsedAst) -> list[Mutation]:
    """Return every mutation in `parsed`, in source order (worked out once per parse:
    GV301 and GV302 each report their kind)."""
    found = parsed.shared.get(KEY)
    if found is None:
        found = parsed.shared[KEY] = _Scan(parsed).run()
    return found  # type: ignore[return-value]


def classify(node: ast.Call, parsed: ParsedAst) -> PythonMutation | None:
    """Return the mutation a call is: `with_attr("global_symbol", v)`,
    `with_attr({"global_symbol": v})`, `with_attrs({...})`, `without_attr("global_symbol")`."""
    func = node.func
    if not isinstance(func, ast.Attribute) or not (node.args or node.keywords):
        return None
    values = arguments(node)
    method, first = func.attr, values[0]
    if method == "with_attr" and len(values) >= 2 and is_key(first, parsed):
        return PythonMutation(Kind.SET, func.value, values[1])
    if method == "without_attr" and is_key(first, parsed):
        return PythonMutation(Kind.REMOVE, func.value, None)
    if method in ("with_attr", "with_attrs") and isinstance(first, ast.Dict):
        for key, value in zip(first.keys, first.values, strict=True):
            if is_key(key, parsed):
                return PythonMutation(Kind.SET, func.value, value)
    return None


def is_copied_symbol(value: ast.expr, parsed: ParsedAst) -> bool:
    """Tell whether a new symbol is an existing one read back unchanged."""
    stack: list[ast.AST] = [value]
    has_read = False
    while stack:
        current = stack.pop()
        if isinstance(current, ast.BinOp | ast.JoinedStr):
            return False
        has_read = has_read or read_subject(current, parsed) is not None
        stack.extend(children(current))
    return has_read


def read_subject(node: ast.AST, parsed: ParsedAst) -> ast.expr | None:
    """Return the expression whose symbol `node` reads, when it is a read at all:
    `x.attrs["global_symbol"]`, `"global_symbol" in x.attrs`, `x.attrs.get("global_symbol")`."""
    if isinstance(node, ast.Subscript):
        index = node.slice
        if isinstance(index, ast.Tuple) and len(index.elts) == 1:
            code = parsed.code_of(index)
            if not (code.startswith("(") and code.endswith(")")):  # not `[("k",)]`
                index = index.elts[0]  # `attrs["global_symbol",]`: one index, a comma after
        return node.value if is_key(index, parsed) else None
    if isinstance(node, ast.Compare) and is_key(node.left, parsed):
        tests_membership = (isinstance(op, ast.In | ast.NotIn) for op in node.ops)
        return node.comparators[0] if any(tests_membership) else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        if node.func.attr not in READ_METHODS or not (node.args or node.keywords):
            return None
        return node.func.value if is_key(arguments(node)[0], parsed) else None
    return None


@mutable
class Read:
    node: ast.AST
    subject: set[str]
    test_of: ast.If | None  # the `if` whose test holds this read
    negated: bool


@mutable
class FunctionState:
    """What one function has shown so far, in source order."""

    reads: list[Read] = field(default_factory=list)
    bindings: dict[str, list[ast.expr]] = field(default_factory=dict)
    sets: list[tuple[str, ast.Call]] = field(default_factory=list)


def contains(trees: ast.AST | list[ast.stmt], node: ast.AST) -> bool:
    """Tell whether `node` is one of `trees` (a node or a block) or lies inside one."""
    roots = trees if isinstance(trees, list) else [trees]
    return any(current is node for root in roots for current in descendants(root))


def path_to(tree: ast.AST, node: ast.AST) -> list[ast.AST]:
    """Return the nodes from `tree` down to `node` (empty when it is not inside)."""
    if tree is node:
        return [tree]
    for child in children(tree):
        below = path_to(child, node)
        if below:
            return [tree, *below]
    return []


def is_negated(test: ast.expr, read: ast.AST) -> bool:
    """Tell whether `test` holds only when `read` finds no symbol."""
    for node in path_to(test, read):
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return True
        if isinstance(node, ast.Compare) and any(
            isinstance(op, ast.NotIn | ast.Is) for op in node.ops
        ):
            return True
    return False


def ends_in_jump(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Return | ast.Continue | ast.Break | ast.Raise)


def guards_absence(read: Read, mutation: ast.Call) -> bool:
    """Tell whether the `if` testing `read` lets `mutation` run only without a symbol."""
    branch = read.test_of
    if branch is None:
        return False
    if contains(branch.body, mutation):
        return read.negated
    if branch.orelse and contains(branch.orelse, mutation):
        return not read.negated
    return not read.negated and not branch.orelse and ends_in_jump(branch.body)


def names_in(node: ast.AST) -> list[str]:
    """Return the plain names used as values in `node` (not called, not attributes)."""
    found: list[str] = []
    stack: list[ast.AST] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Name):
            found.append(current.id)
        elif isinstance(current, ast.Attribute):
            stack.append(current.value)
        elif isinstance(current, ast.Call):
            if isinstance(current.func, ast.Name | ast.Attribute) and (
                _last_name(current.func) in FUNCTION_CONSTRUCTORS
            ):
                continue  # `relax.Function(f.params, f.body)`: a new function, no attributes
            stack.extend(arguments(current))
            if isinstance(current.func, ast.Attribute):
                stack.append(current.func.value)
        elif not isinstance(current, ast.Lambda):
            stack.extend(children(current))
    return found


def _last_name(node: ast.Name | ast.Attribute) -> str:
    return node.id if isinstance(node, ast.Name) else node.attr


def bound_names(target: ast.AST) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, ast.Starred):
        return bound_names(target.value)
    if isinstance(target, ast.Tuple | ast.List):
        return [n for e in target.elts for n in bound_names(e)]
    return []


def applied_to_each_function(call: ast.Call) -> frozenset[str]:
    """Return the parameter names of the lambda that `transform.Apply(lambda f: ...)` (or
    `tir.transform.Apply`, `tirx.transform.Apply`) hands each function of a module; an
    empty set for any other call."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "Apply"):
        return frozenset()
    if not (dotted(func.value) or "").endswith("transform"):
        return frozenset()
    for value in arguments(call):
        if isinstance(value, ast.Lambda):
            return frozenset(p.arg for p in value.args.args)
    return frozenset()


class _Scan:
    """One walk over a parse in source order, each function's reads, bindings and
    settings noted as they come, each mutation judged by what came before it."""

    def __init__(self, parsed: ParsedAst) -> None:
        self.parsed = parsed
        self.found: list[Mutation] = []
        self._states = [FunctionState()]
        self._ifs: list[ast.If] = []
        # id() of an assigned value: its targets (their code is worked out only for a
        # value that sets an attribute: most assignments set none).
        self._assigned: dict[int, list[ast.expr]] = {}
        # Open `transform.Apply(lambda f: ...)` calls: each hands its lambda every function
        # of the module, so `f` is taken from the module.
        self._handed: list[tuple[ast.Call, frozenset[str]]] = []

    def run(self) -> list[Mutation]:
        stack: list[tuple[ast.AST, bool]] = [(self.parsed.tree, False)]
        while stack:
            node, leaving = stack.pop()
            if leaving:
                self._leave(node)
                continue
            self._visit(node)
            stack.append((node, True))
            stack.extend((child, False) for child in reversed(children(node)))
        return self.found

    def _visit(self, node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self._states.append(FunctionState())
        elif isinstance(node, ast.If):
            self._ifs.append(node)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                self._bind(target, node.value)
            # `f = f.with_attr(...)` changes `f`; a bare `f.with_attr(...)` makes a copy.
            self._assigned[id(node.value)] = node.targets
        elif isinstance(node, ast.For | ast.AsyncFor):
            self._bind(node.target, node.iter)
        elif isinstance(node, ast.Subscript | ast.Compare):
            self._read(node)
        elif isinstance(node, ast.Call):
            self._call(node)

    def _leave(self, node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self._states.pop()
        elif isinstance(node, ast.If):
            self._ifs.pop()
        elif isinstance(node, ast.Call) and self._handed and self._handed[-1][0] is node:
            self._handed.pop()

    def _bind(self, target: ast.expr, value: ast.expr) -> None:
        for name in bound_names(target):
            self._states[-1].bindings.setdefault(name, []).append(value)

    def _read(self, node: ast.AST) -> None:
        subject = read_subject(node, self.parsed)
        if subject is None:
            return
        test_of = None
        for branch in reversed(self._ifs):
            if contains(branch.test, node):
                test_of = branch
                break
        negated = test_of is not None and is_negated(test_of.test, node)
        self._states[-1].reads.append(Read(node, set(names_in(subject)), test_of, negated))

    def _call(self, node: ast.Call) -> None:
        handed = applied_to_each_function(node)
        if handed:
            self._handed.append((node, handed))
        self._read(node)
        mutation = classify(node, self.parsed)
        if mutation is None:
            return
        kind, target = mutation.kind, mutation.target
        if mutation.value is not None and is_copied_symbol(mutation.value, self.parsed):
            return  # an existing symbol carried over unchanged
        family, traced = self._family(target)
        evidence = self._evidence(node, target, family) or traced
        code = self._code(target)
        targets = self._assigned.get(id(node), ())
        if kind is Kind.SET and any(self._code(t) == code for t in targets):
            self._states[-1].sets.append((code, node))
        self.found.append(Mutation(node, kind, evidence))

    def _code(self, node: ast.AST) -> str:
        return "".join(self.parsed.code_of(node).split())

    def _line(self, node: ast.AST) -> int:
        return self.parsed.file_line(node.lineno)  # type: ignore[attr-defined]

    def _evidence(self, call: ast.Call, target: ast.expr, family: set[str]) -> Evidence | None:
        state = self._states[-1]
        for read in state.reads:
            if read.subject & family and not guards_absence(read, call):
                return Evidence("its global_symbol is read first", self._line(read.node))
        code = self._code(target)
        for earlier, node in state.sets:
            # Only a variable is the same function twice; `make()` makes a new one each time.
            if earlier == code and isinstance(target, ast.Name | ast.Attribute):
                return Evidence("it is set earlier", self._line(node))
        if MODULE_LOOKUP.search(code):
            return Evidence("the function is taken from the module", self._line(target))
        names = set(names_in(target))
        for apply, parameters in reversed(self._handed):
            if names & parameters:
                name = sorted(names & parameters)[0]
                reason = f"`{name}` is each function of the module (transform.Apply)"
                return Evidence(reason, self._line(apply))
        return None

    def _family(self, target: ast.expr) -> tuple[set[str], Evidence | None]:
        """Follow the target's variables back through their bindings, a few hops; return
        every variable met and where the function was taken from a module, if it was."""
        bindings = self._states[-1].bindings
        names = names_in(target)
        seen: set[str] = set()
        found: Evidence | None = None
        for _ in range(MAX_HOPS):
            following: list[str] = []
            for name in names:
                if name in seen:
                    continue
                seen.add(name)
                for value in bindings.get(name, ()):
                    if not found and MODULE_LOOKUP.search(self._code(value)):
                        found = Evidence(f"`{name}` is taken from the module", self._line(value))
                    following.extend(names_in(value))
            names = following
        return seen, found
