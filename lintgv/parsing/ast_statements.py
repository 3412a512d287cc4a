"""CPython's tree of a text cut down to its statements: what lintgv reads from CPython's
parse once libcst has parsed the same text (where each statement starts, see
positions.Located). Expressions are most of a tree. Imports no libcst, so a parse can
cut its tree before libcst is first loaded (see libcst_import)."""

from __future__ import annotations

import ast

# The fields of CPython's statements (and of their except and case clauses) that hold
# statements.
BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def statements_only(tree: ast.Module) -> None:
    """Drop from `tree` all but each statement's kind, lines, decorators and blocks."""
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        for name in node._fields:
            if name in BLOCKS:
                stack.extend(getattr(node, name))
            elif name != "decorator_list":
                delattr(node, name)
