"""What a Python site can see: names bound before it in its function, and where a new
statement can go so that every later site sees it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import field
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from lintgv.model import Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.walk import children, walk
from lintgv.records import frozen

if TYPE_CHECKING:
    FunctionLike = cst.FunctionDef | cst.Module

_MODULE_NAME = re.compile(r"(?:^|_)(?:ir_)?mod(?:ule)?$")


class Tools(Protocol):
    """What a rule lends a codemod: positions, resolved names and parents of nodes."""

    @property
    def module(self) -> cst.Module: ...

    def span_of(self, node: cst.CSTNode) -> Span: ...

    def qualified_names(self, node: cst.BaseExpression) -> set[str]: ...

    def parent_of(self, node: cst.CSTNode) -> cst.CSTNode | None: ...


@frozen
class PyBinding:
    name: str
    value: cst.BaseExpression | None  # the assigned value; None for a parameter
    annotation: cst.BaseExpression | None
    statement: cst.CSTNode | None  # the binding statement; None for a parameter
    span_of: Callable[[cst.CSTNode], Span] | None = field(default=None, compare=False, repr=False)

    @cached_property
    def end_line(self) -> int:
        """The name is bound from the line after this one (0: from the start). Worked out
        when first asked: most bindings of a function are never compared with a site, and
        a position costs a code generation of its statement."""
        if self.statement is None or self.span_of is None:
            return 0
        return self.span_of(self.statement).end_line


def owner_of(tools: Tools, node: cst.CSTNode) -> FunctionLike | cst.Lambda | cst.ClassDef:
    """Return the innermost function, lambda, class body or module holding `node`."""
    current = tools.parent_of(node)
    while current is not None:
        if isinstance(current, cst.FunctionDef | cst.Lambda | cst.ClassDef | cst.Module):
            return current
        current = tools.parent_of(current)
    return tools.module


def statement_of(tools: Tools, node: cst.CSTNode) -> cst.BaseStatement | None:
    """Return the innermost statement holding `node`."""
    current: cst.CSTNode | None = node
    while current is not None and not isinstance(current, cst.BaseStatement):
        current = tools.parent_of(current)
    return current


def _body(owner: FunctionLike) -> list[cst.BaseStatement]:
    if isinstance(owner, cst.Module):
        return list(owner.body)
    body = owner.body
    return list(body.body) if isinstance(body, cst.IndentedBlock) else []


def walk_statements(statements: list[cst.BaseStatement]) -> Iterator[cst.BaseStatement]:
    """Yield statements depth first, without entering nested functions or classes."""
    for statement in statements:
        yield statement
        if isinstance(statement, cst.FunctionDef | cst.ClassDef):
            continue
        for block in _blocks(statement):
            yield from walk_statements(list(block.body))


def _blocks(statement: cst.CSTNode) -> Iterator[cst.IndentedBlock]:
    clauses = (
        cst.Else,
        cst.If,
        cst.ExceptHandler,
        cst.ExceptStarHandler,
        cst.Finally,
        cst.MatchCase,
    )
    for child in children(statement):
        if isinstance(child, cst.IndentedBlock):
            yield child
        elif isinstance(child, clauses):
            yield from _blocks(child)


def bindings(tools: Tools, owner: FunctionLike) -> list[PyBinding]:
    """Return the parameters and simple `name = value` bindings of `owner`, in order."""
    found: list[PyBinding] = []
    if isinstance(owner, cst.FunctionDef):
        params = owner.params
        for param in [*params.posonly_params, *params.params, *params.kwonly_params]:
            annotation = param.annotation.annotation if param.annotation else None
            found.append(PyBinding(param.name.value, None, annotation, None))
    for statement in walk_statements(_body(owner)):
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            targets: list[cst.BaseExpression] = []
            value: cst.BaseExpression | None = None
            annotation = None
            if isinstance(small, cst.Assign):
                targets = [t.target for t in small.targets]
                value = small.value
            elif isinstance(small, cst.AnnAssign):
                targets, value = [small.target], small.value
                annotation = small.annotation.annotation
            for target in targets:
                if isinstance(target, cst.Name):
                    binding = PyBinding(target.value, value, annotation, statement, tools.span_of)
                    found.append(binding)
    return found


class Visible:
    """The bindings of one function, looked up by name as a line sees them: a lookup per
    site, not a walk over every binding made before it."""

    def __init__(self, found: list[PyBinding]) -> None:
        self.found = found
        self._by_name: dict[str, list[PyBinding]] = {}
        for binding in found:
            self._by_name.setdefault(binding.name, []).append(binding)

    def named(self, name: str) -> list[PyBinding]:
        """Return every binding of `name`, in order."""
        return self._by_name.get(name, [])

    def at(self, name: str, line: int) -> PyBinding | None:
        """Return the latest binding of `name` made before `line`."""
        return next((b for b in reversed(self.named(name)) if b.end_line < line), None)

    def latest_of(self, candidates: list[PyBinding], line: int) -> list[PyBinding]:
        """Return those of `candidates` (bindings of this function, in order) that are the
        latest binding of their name before `line`, latest first."""
        return [b for b in reversed(candidates) if b.end_line < line and self.at(b.name, line) is b]


def root_name(node: cst.BaseExpression) -> str:
    """Return the name an attribute chain starts from (`self.prelude.mod` → `self`)."""
    while isinstance(node, cst.Attribute | cst.Subscript | cst.Call):
        node = node.value if not isinstance(node, cst.Call) else node.func
    return node.value if isinstance(node, cst.Name) else ""


def looks_like_module(node: cst.BaseExpression) -> bool:
    """Tell whether an expression is named like an IRModule (`mod`, `self.ir_mod`)."""
    last = node.attr.value if isinstance(node, cst.Attribute) else ""
    if isinstance(node, cst.Name):
        last = node.value
    return bool(last) and _MODULE_NAME.search(last) is not None


def indent_of(tools: Tools, statement: cst.CSTNode) -> str:
    """Return the indentation string of the block that holds `statement`."""
    pieces = []
    current = tools.parent_of(statement)
    while current is not None:
        if isinstance(current, cst.IndentedBlock):
            pieces.append(
                current.indent if current.indent is not None else tools.module.default_indent
            )
        current = tools.parent_of(current)
    return "".join(reversed(pieces))


def block_child(tools: Tools, block: cst.CSTNode, node: cst.CSTNode) -> cst.BaseStatement | None:
    """Return the statement directly in `block` (a module or indented block) holding `node`."""
    current: cst.CSTNode | None = node
    while current is not None:
        parent = tools.parent_of(current)
        if parent is block and isinstance(current, cst.BaseStatement):
            return current
        current = parent
    return None


def block_of(owner: FunctionLike) -> cst.CSTNode:
    """Return the node whose direct children are `owner`'s top statements."""
    return owner if isinstance(owner, cst.Module) else owner.body


def _holds(tools: Tools, block: cst.CSTNode, node: cst.CSTNode) -> bool:
    return block_child(tools, block, node) is not None


def common_block(tools: Tools, outer: cst.CSTNode, nodes: list[cst.CSTNode]) -> cst.CSTNode:
    """Return the innermost block within `outer` that holds every node, moved out of any
    loop so that one statement there serves every iteration."""
    block = outer
    current = tools.parent_of(nodes[0])
    while current is not None and current is not outer:
        if isinstance(current, cst.IndentedBlock) and all(_holds(tools, current, n) for n in nodes):
            block = current
            break
        current = tools.parent_of(current)
    result: cst.CSTNode | None = block
    current = block
    while current is not outer:
        parent = tools.parent_of(current)
        if parent is None:
            break
        current = parent
        if isinstance(current, cst.For | cst.While):
            result = None
        elif isinstance(current, cst.IndentedBlock) and result is None:
            result = current
    return result or outer


def insertion_line(tools: Tools, statement: cst.CSTNode) -> int:
    """Return the line before which a new statement goes: above `statement`'s comments."""
    leading = getattr(statement, "leading_lines", ())
    comments = 0
    for line in reversed(leading):
        if line.comment is None:
            break
        comments += 1
    return tools.span_of(statement).start_line - comments


def names_in(node: cst.CSTNode) -> set[str]:
    """Return every plain name used or bound inside `node`."""
    names: set[str] = set()

    def visit_Name(name: cst.CSTNode) -> None:
        assert isinstance(name, cst.Name)
        names.add(name.value)

    walk(node, [{"visit_Name": visit_Name}])
    return names


def resolves_to(
    tools: Tools, node: cst.BaseExpression | None, wanted: Callable[[str], bool]
) -> bool:
    """Tell whether `node` (a name or call) resolves to a qualified name `wanted` accepts."""
    if node is None:
        return False
    target = node.func if isinstance(node, cst.Call) else node
    names = tools.qualified_names(target)
    if names:
        return any(wanted(n) for n in names)
    text = tools.module.code_for_node(target)
    return wanted(text)
