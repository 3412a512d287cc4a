"""Edits that add a C++ `#include` or a Python `from X import Y` once, in a tidy place,
and the removal of a Python import that fixes left unused."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

import tree_sitter

from lintgv.helpers.python_shape import is_docstring
from lintgv.lines import lines_with_breaks
from lintgv.model import Edit, Span
from lintgv.parsing import libcst_lazy as cst
from lintgv.parsing.cpp import ParsedCpp
from lintgv.parsing.cst_parse import parse
from lintgv.parsing.python import quiet_parse

GLOBAL_VAR_SUPPLY_HEADER = "tvm/ir/global_var_supply.h"
NAME_SUPPLY_HEADER = "tvm/ir/name_supply.h"
UNIQUE_NAME_SUPPLY_HEADER = "tvm/ir/unique_name_supply.h"
SUPPLY_MODULE = "tvm.ir.supply"


def _includes(parsed: ParsedCpp) -> list[tuple[tree_sitter.Node, str, bool]]:
    """Return each top-level #include with its path and whether it uses <...>."""
    found = []
    stack = [parsed.root]
    while stack:
        node = stack.pop()
        if node.type == "preproc_include":
            path = node.child_by_field_name("path")
            if path is not None:
                text = parsed.text(path)
                found.append((node, text[1:-1], text.startswith("<")))
        elif node.type in ("translation_unit", "preproc_ifdef", "preproc_if", "preproc_else"):
            stack.extend(reversed(node.named_children))
    found.sort(key=lambda item: item[0].start_byte)
    return found


def has_include(parsed: ParsedCpp, header: str) -> bool:
    """Tell whether the file includes `header` (by its path below the include root)."""
    return any(path == header or path.endswith("/" + header) for _, path, _ in _includes(parsed))


def _point(line: int, column: int) -> Span:
    return Span(line, column, line, column)


def include_edit(parsed: ParsedCpp, header: str) -> Edit | None:
    """Return an edit adding `#include <header>` in sorted place, or None when present."""
    includes = _includes(parsed)
    if any(path == header or path.endswith("/" + header) for _, path, _ in includes):
        return None
    line = f"#include <{header}>"
    angled = [(node, path) for node, path, is_angled in includes if is_angled]
    # Sorted among the same library's headers, else among the other <...h> headers, else
    # ahead of the standard library's, as clang-format's Google style groups them.
    family = [(n, p) for n, p in angled if p.split("/")[0] == header.split("/")[0]]
    group = family or [(n, p) for n, p in angled if p.endswith(".h")]
    if group:
        after = [n for n, p in group if p < header]
        if not after:
            return Edit(_point(group[0][0].start_point[0] + 1, 0), line + "\n", "")
        return _after(parsed, after[-1], line)
    if angled:
        return Edit(_point(angled[0][0].start_point[0] + 1, 0), line + "\n", "")
    if includes:
        return _after(parsed, includes[-1][0], line)
    return Edit(_point(_first_code_line(parsed), 0), line + "\n\n", "")


def _after(parsed: ParsedCpp, node: tree_sitter.Node, line: str) -> Edit:
    # A preprocessor line owns its newline; at the end of a file without one it does not.
    span = parsed.span(node)
    if span.end_col == 0 and span.end_line > span.start_line:
        return Edit(_point(span.end_line, 0), line + "\n", "")
    return Edit(_point(span.end_line, span.end_col), "\n" + line, "")


def _first_code_line(parsed: ParsedCpp) -> int:
    """Return the 1-based line of the first thing that is not a comment or a header guard."""
    for child in parsed.root.named_children:
        if child.type == "comment":
            continue
        if child.type == "preproc_ifdef":
            inner = [c for c in child.named_children if c.type not in ("identifier", "comment")]
            if inner and inner[0].type == "preproc_def":
                return int(inner[0].end_point[0]) + 1 if inner[0].end_point[1] == 0 else 1
        return int(child.start_point[0]) + 1
    return 1


def imports_name(module: cst.Module, source: str, name: str) -> bool:
    """Tell whether the module imports `name` from `source` at top level (without renaming)."""
    for statement in module.body:
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if not isinstance(small, cst.ImportFrom) or small.module is None:
                continue
            if _dotted(small.module) != source or isinstance(small.names, cst.ImportStar):
                continue
            if any(alias.asname is None and _dotted(alias.name) == name for alias in small.names):
                return True
    return False


def _dotted(node: cst.BaseExpression) -> str:
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        return f"{_dotted(node.value)}.{node.attr.value}"
    return ""


def import_edit(
    module: cst.Module, span_of: Callable[[cst.CSTNode], Span], source: str, name: str
) -> Edit | None:
    """Return an edit adding `from source import name` after the leading imports, or None."""
    if imports_name(module, source, name):
        return None
    line = f"from {source} import {name}"
    anchor: cst.SimpleStatementLine | None = None
    for index, statement in enumerate(module.body):
        if not isinstance(statement, cst.SimpleStatementLine):
            break
        is_import = all(isinstance(s, cst.Import | cst.ImportFrom) for s in statement.body)
        is_doc = index == 0 and is_docstring(statement)
        # A `from __future__` import must stay first: an import goes after its line, even
        # when the line holds more (`from __future__ import annotations; X = 1`).
        future = any(_is_future(s) for s in statement.body)
        if not (is_import or is_doc or future):
            break
        anchor = statement
        if future and not is_import:
            break
    if anchor is None:
        first = module.body[0] if module.body else None
        if first is None:
            return Edit(_point(1, 0), line + "\n", "")
        # Above a decorated statement's first decorator, and the comments above that.
        decorators = getattr(first, "decorators", ())
        top = decorators[0] if decorators else first
        start = span_of(top).start_line - _comment_lines(first)
        return Edit(_point(start, 0), line + "\n", "")
    end = span_of(anchor)
    if anchor is module.body[-1] and not module.has_trailing_newline:
        return Edit(_point(end.end_line, end.end_col), "\n" + line, "")
    return Edit(_point(end.end_line + 1, 0), line + "\n", "")


def _is_future(statement: cst.BaseSmallStatement) -> bool:
    module = statement.module if isinstance(statement, cst.ImportFrom) else None
    return isinstance(module, cst.Name) and module.value == "__future__"


def _comment_lines(statement: cst.CSTNode) -> int:
    """Return how many comment lines sit directly above `statement` (its own comments)."""
    leading = getattr(statement, "leading_lines", ())
    count = 0
    for line in reversed(leading):
        if line.comment is None:
            break
        count += 1
    return count


def without_unused_import(text: str, name: str, before: str) -> str:
    """Return `text` without the name `name` (or the alias it is bound to) in its
    module-level `from X import ...`, when that import is the only place the bound name
    occurs in the whole text, comments and strings included (`__all__` keeps it): a test
    that cannot take a used name for an unused one. Only an import `before` (the text
    before the fixes) still used is dropped: one unused already is none of the fixes'
    business. Anything else is left as it is."""
    if re.search(rf"\b{re.escape(name)}\b", text) is None:
        return text  # no import of it is left (told without parsing the whole text)
    try:
        tree = quiet_parse(text)
    except (SyntaxError, ValueError):
        return text
    lines = lines_with_breaks(text)
    for statement in tree.body:
        if not isinstance(statement, ast.ImportFrom) or statement.level:
            continue
        for alias in statement.names:
            bound = rf"\b{re.escape(alias.asname or alias.name)}\b"
            if alias.name != name or len(re.findall(bound, text)) != 1:
                continue
            if len(re.findall(bound, before)) < 2:
                return text  # unused before the fixes too
            first, last = statement.lineno - 1, (statement.end_lineno or statement.lineno) - 1
            if any(
                other is not statement and first <= other.lineno - 1 <= last for other in tree.body
            ):
                return text  # shares its lines with another statement
            source = "".join(lines[first : last + 1])
            kept = _without_alias(source, name, alias.asname)
            if kept is None:
                return text
            return "".join(lines[:first]) + kept + "".join(lines[last + 1 :])
    return text


def _without_alias(source: str, name: str, asname: str | None) -> str | None:
    """Return the import statement `source` without `name [as asname]` ("" when nothing
    is left of it), or None when libcst does not read it as one such import."""
    try:
        module = parse(source)
    except cst.ParserSyntaxError:
        return None
    line = module.body[0] if len(module.body) == 1 else None
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    small = line.body[0]
    if not isinstance(small, cst.ImportFrom) or isinstance(small.names, cst.ImportStar):
        return None
    names = list(small.names)

    def bound(alias: cst.ImportAlias) -> tuple[str, str | None]:
        target = alias.asname.name if alias.asname is not None else None
        return module.code_for_node(alias.name), (
            target.value if isinstance(target, cst.Name) else None
        )

    gone = [i for i, alias in enumerate(names) if bound(alias) == (name, asname)]
    if len(gone) != 1:
        return None
    removed = names.pop(gone[0])
    if not names:
        return ""
    if gone[0] == len(names):  # it was the last: the new last keeps its comma or none
        names[-1] = names[-1].with_changes(comma=removed.comma)
    return module.with_changes(
        body=[line.with_changes(body=[small.with_changes(names=names)])]
    ).code
