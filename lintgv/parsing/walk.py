"""One depth-first walk over a libcst tree that calls every rule's visit_/leave_ methods.

libcst's own traversal rebuilds each node it passes, because a transformer may replace
it; for read-only rules that is three quarters of the time the walk takes. This walk
reads each node's children in the order libcst visits them, calls the same methods with
the same nodes, and builds nothing. It keeps its own stack, so deep nesting costs no
Python recursion.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from dataclasses import fields
from functools import cache
from typing import TYPE_CHECKING

from lintgv.parsing import libcst_lazy as cst

if TYPE_CHECKING:
    _Method = Callable[[cst.CSTNode], None]

_CHILD_FIELDS: dict[type[cst.CSTNode], tuple[str, ...]] = {}


def child_fields(kind: type[cst.CSTNode]) -> tuple[str, ...]:
    """Return the fields of `kind` that hold children, in the order libcst visits them.

    Each node class names its children as string constants in its
    `_visit_and_replace_children` (`visit_required(self, "value", self.value, visitor)`),
    and the compiler stores constants in the order they first occur in the source.
    """
    found = _CHILD_FIELDS.get(kind)
    if found is None:
        names = {f.name for f in fields(kind)}
        constants = kind._visit_and_replace_children.__code__.co_consts
        found = tuple(c for c in dict.fromkeys(constants) if isinstance(c, str) and c in names)
        _CHILD_FIELDS[kind] = found
    return found


def is_node(value: object) -> bool:
    """Tell whether `value` is a libcst node (CSTNode is an ABC: isinstance is slow)."""
    kind = type(value)
    found = _IS_NODE.get(kind)
    if found is None:
        found = _IS_NODE[kind] = issubclass(kind, cst.CSTNode)
    return found


_IS_NODE: dict[type, bool] = {}


def _subclasses(*bases: type) -> set[type[cst.CSTNode]]:
    """Return the node classes libcst exports below `bases` (read off the classes, not
    asked with issubclass: that fills the ABC caches of every libcst class, megabytes of
    them; libcst's slotted copy of a class replaces one that still lists as a subclass)."""
    found: set[type] = set()
    stack: list[type] = list(bases)
    while stack:
        kind: type
        for kind in stack.pop().__subclasses__():
            if kind not in found:
                found.add(kind)
                stack.append(kind)
    return {kind for kind in found if getattr(cst, kind.__name__, None) is kind}


@cache
def trivia() -> frozenset[type[cst.CSTNode]]:
    """Return the node classes of trivia: whitespace, comments, punctuation and
    operators, nodes that hold nothing but more of them. A walk in which no visitor asks
    about one skips it, and all below it: they are about a third of a module's nodes.
    (Worked out on first use: libcst is imported only when Python is parsed.)"""
    return frozenset(
        {
            cst.SimpleWhitespace,
            cst.ParenthesizedWhitespace,
            cst.Newline,
            cst.TrailingWhitespace,
            cst.EmptyLine,
            cst.Comment,
            cst.Comma,
            cst.Dot,
            cst.Colon,
            cst.Semicolon,
            cst.AssignEqual,
            cst.LeftParen,
            cst.RightParen,
            cst.LeftSquareBracket,
            cst.RightSquareBracket,
            cst.LeftCurlyBrace,
            cst.RightCurlyBrace,
            cst.ImportStar,
            cst.Asynchronous,
            *_subclasses(
                cst.BaseBinaryOp, cst.BaseBooleanOp, cst.BaseCompOp, cst.BaseUnaryOp, cst.BaseAugOp
            ),
        }
    )


def children(node: cst.CSTNode, skipped: Set[type] = frozenset()) -> list[cst.CSTNode]:
    """Return the children of `node` in libcst's visiting order, but for those of a type
    in `skipped`. (The hottest loop of a check: each child is told a node by a lookup of
    its type, inline, and no generator is made per field.)"""
    result: list[cst.CSTNode] = []
    known = _IS_NODE
    for name in child_fields(type(node)):
        value = getattr(node, name)
        kind = type(value)
        if kind is tuple or kind is list:
            for child in value:
                kind = type(child)
                found = known.get(kind)
                if found is None:
                    found = is_node(child)
                if found and kind not in skipped:
                    result.append(child)
        else:
            found = known.get(kind)
            if found is None:
                found = is_node(value)
            if found and kind not in skipped:
                result.append(value)
    return result


def descendants(root: cst.CSTNode) -> Iterator[cst.CSTNode]:
    """Yield `root` and every node below it (depth first, order otherwise unspecified)."""
    stack = [root]
    while stack:
        node = stack.pop()
        yield node
        stack.extend(children(node))


def walk(
    root: cst.CSTNode,
    visitors: Iterable[Mapping[str, _Method]],
    parents: dict[int, cst.CSTNode] | None = None,
) -> None:
    """Call the `visit_<Type>` methods of `visitors` on entering each node of `root` and
    their `leave_<Type>` methods on leaving it, as libcst's visit_batched does; trivia no
    visitor asks about is not walked.

    `visitors` are the mappings BatchableCSTVisitor.get_visitors returns. `parents`, when
    given, is filled with each node's parent by the node's id (libcst's node hash is a
    Python method: too slow for every node) as the walk meets it: when a method runs, the
    node's ancestors are in it, and after the walk every node but the trivia skipped is.
    """
    on_visit: dict[str, list[_Method]] = {}
    on_leave: dict[str, list[_Method]] = {}
    for methods in visitors:
        for name, method in methods.items():
            kind, _, node_type = name.partition("_")
            if "_" in node_type:
                raise ValueError(f"{name}: attribute visitors are not supported")
            (on_visit if kind == "visit" else on_leave).setdefault(node_type, []).append(method)
    none: list[_Method] = []
    skipped = frozenset(
        kind for kind in trivia() if kind.__name__ not in on_visit and kind.__name__ not in on_leave
    )
    # An entry is a node to enter, or (node,) to leave.
    stack: list[cst.CSTNode | tuple[cst.CSTNode]] = [root]
    while stack:
        item = stack.pop()
        if isinstance(item, tuple):
            node = item[0]
            for method in on_leave[type(node).__name__]:
                method(node)
            continue
        name = type(item).__name__
        for method in on_visit.get(name, none):
            method(item)
        if name in on_leave:  # only nodes someone leaves need a second stop
            stack.append((item,))
        below = children(item, skipped)
        if parents is not None:
            for child in below:
                parents[id(child)] = item
        below.reverse()
        stack += below


def methods_of(visitor: object) -> dict[str, _Method]:
    """Return the visit_/leave_ methods of a plain object, for `walk`."""
    return {
        name: getattr(visitor, name)
        for name in dir(type(visitor))
        if name.startswith(("visit_", "leave_"))
    }


def parents(root: cst.CSTNode) -> dict[int, cst.CSTNode]:
    """Return the parent of every node below `root`, by the node's id."""
    found: dict[int, cst.CSTNode] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for child in children(node):
            found[id(child)] = node
            stack.append(child)
    return found
