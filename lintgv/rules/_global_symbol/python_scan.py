"""global_symbol mutations in Python, and what the enclosing function shows of an earlier
one: `f.with_attr("global_symbol", v)`, `f.without_attr("global_symbol")` and
`f.with_attrs({"global_symbol": v, ...})`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.names import dotted
from lintgv.parsing.walk import children, descendants
from lintgv.rules._global_symbol.messages import Kind

KEY = "global_symbol"
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


def is_key(node: cst.CSTNode) -> bool:
    """Tell whether `node` is the string literal "global_symbol"."""
    return isinstance(node, cst.SimpleString) and node.evaluated_value == KEY


@dataclass(frozen=True)
class PythonMutation:
    kind: Kind
    target: cst.BaseExpression  # the function changed
    value: cst.BaseExpression | None  # the new symbol, for a setting


def classify(node: cst.Call) -> PythonMutation | None:
    """Return the mutation a call is: `with_attr("global_symbol", v)`,
    `with_attr({"global_symbol": v})`, `with_attrs({...})`, `without_attr("global_symbol")`."""
    func = node.func
    if not isinstance(func, cst.Attribute) or not node.args:
        return None
    method, first = func.attr.value, node.args[0].value
    if method == "with_attr" and len(node.args) >= 2 and is_key(first):
        return PythonMutation(Kind.SET, func.value, node.args[1].value)
    if method == "without_attr" and is_key(first):
        return PythonMutation(Kind.REMOVE, func.value, None)
    if method in ("with_attr", "with_attrs") and isinstance(first, cst.Dict):
        for element in first.elements:
            if isinstance(element, cst.DictElement) and is_key(element.key):
                return PythonMutation(Kind.SET, func.value, element.value)
    return None


def is_copied_symbol(value: cst.BaseExpression) -> bool:
    """Tell whether a new symbol is an existing one read back unchanged."""
    stack: list[cst.CSTNode] = [value]
    has_read = False
    while stack:
        current = stack.pop()
        if isinstance(current, cst.BinaryOperation | cst.FormattedString):
            return False
        has_read = has_read or read_subject(current) is not None
        stack.extend(children(current))
    return has_read


def read_subject(node: cst.CSTNode) -> cst.CSTNode | None:
    """Return the expression whose symbol `node` reads, when it is a read at all:
    `x.attrs["global_symbol"]`, `"global_symbol" in x.attrs`, `x.attrs.get("global_symbol")`."""
    if isinstance(node, cst.Subscript) and len(node.slice) == 1:
        index = node.slice[0].slice
        if isinstance(index, cst.Index) and is_key(index.value):
            return node.value
    if isinstance(node, cst.Comparison) and is_key(node.left):
        tests_membership = (isinstance(c.operator, cst.In | cst.NotIn) for c in node.comparisons)
        return node.comparisons[0].comparator if any(tests_membership) else None
    if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.args:
        reads = node.func.attr.value in READ_METHODS and is_key(node.args[0].value)
        return node.func.value if reads else None
    return None


@dataclass
class Read:
    node: cst.CSTNode
    subject: set[str]
    test_of: cst.If | None  # the `if` whose test holds this read
    negated: bool


@dataclass
class FunctionState:
    """What one function has shown so far, in source order."""

    reads: list[Read] = field(default_factory=list)
    bindings: dict[str, list[cst.BaseExpression]] = field(default_factory=dict)
    sets: list[tuple[str, cst.Call]] = field(default_factory=list)


def contains(tree: cst.CSTNode, node: cst.CSTNode) -> bool:
    """Tell whether `node` is `tree` or lies inside it."""
    return any(current is node for current in descendants(tree))


def path_to(tree: cst.CSTNode, node: cst.CSTNode) -> list[cst.CSTNode]:
    """Return the nodes from `tree` down to `node` (empty when it is not inside)."""
    if tree is node:
        return [tree]
    for child in children(tree):
        below = path_to(child, node)
        if below:
            return [tree, *below]
    return []


def is_negated(test: cst.BaseExpression, read: cst.CSTNode) -> bool:
    """Tell whether `test` holds only when `read` finds no symbol."""
    for node in path_to(test, read):
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Not):
            return True
        if isinstance(node, cst.Comparison) and any(
            isinstance(t.operator, cst.NotIn | cst.Is) for t in node.comparisons
        ):
            return True
    return False


def ends_in_jump(body: cst.BaseSuite) -> bool:
    jumps = (cst.Return, cst.Continue, cst.Break, cst.Raise)
    if isinstance(body, cst.IndentedBlock):
        last = body.body[-1] if body.body else None
        if isinstance(last, cst.SimpleStatementLine):
            return bool(last.body) and isinstance(last.body[-1], jumps)
        return False
    return isinstance(body, cst.SimpleStatementSuite) and isinstance(body.body[-1], jumps)


def guards_absence(read: Read, mutation: cst.Call) -> bool:
    """Tell whether the `if` testing `read` lets `mutation` run only without a symbol."""
    branch = read.test_of
    if branch is None:
        return False
    if contains(branch.body, mutation):
        return read.negated
    if branch.orelse is not None and contains(branch.orelse, mutation):
        return not read.negated
    return not read.negated and branch.orelse is None and ends_in_jump(branch.body)


def names_in(node: cst.CSTNode) -> list[str]:
    """Return the plain names used as values in `node` (not called, not attributes)."""
    found: list[str] = []
    stack: list[cst.CSTNode] = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, cst.Name):
            found.append(current.value)
        elif isinstance(current, cst.Attribute):
            stack.append(current.value)
        elif isinstance(current, cst.Call):
            if isinstance(current.func, cst.Name | cst.Attribute) and (
                _last_name(current.func) in FUNCTION_CONSTRUCTORS
            ):
                continue  # `relax.Function(f.params, f.body)`: a new function, no attributes
            stack.extend(a.value for a in current.args)
            if isinstance(current.func, cst.Attribute):
                stack.append(current.func.value)
        elif not isinstance(current, cst.Lambda):
            stack.extend(children(current))
    return found


def _last_name(node: cst.Name | cst.Attribute) -> str:
    return node.value if isinstance(node, cst.Name) else node.attr.value


def bound_names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, cst.Tuple | cst.List):
        return [n for e in target.elements for n in bound_names(e.value)]
    return []


def applied_to_each_function(call: cst.Call) -> frozenset[str]:
    """Return the parameter names of the lambda that `transform.Apply(lambda f: ...)` (or
    `tir.transform.Apply`, `tirx.transform.Apply`) hands each function of a module; an
    empty set for any other call."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "Apply"):
        return frozenset()
    if not (dotted(func.value) or "").endswith("transform"):
        return frozenset()
    for arg in call.args:
        if isinstance(arg.value, cst.Lambda):
            return frozenset(p.name.value for p in arg.value.params.params)
    return frozenset()
