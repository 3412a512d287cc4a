"""Line-aware C++ edits: delete a declaration with its doc comment, replace a node, put a
statement before another."""

import tree_sitter

from lintgv.model import Edit, Span
from lintgv.parsing.cpp import ParsedCpp


def leading_comments(node: tree_sitter.Node) -> tree_sitter.Node:
    """Return the first of the comments directly above `node` (on adjacent lines), or
    `node` itself when there are none."""
    start = node
    while True:
        previous = start.prev_sibling
        if (
            previous is None
            or previous.type != "comment"
            or previous.end_point[0] + 1 < start.start_point[0]
        ):
            return start
        start = previous


def _line_text(parsed: ParsedCpp, row: int) -> str:
    start = parsed.line_starts[row]
    end = parsed.line_starts[row + 1] if row + 1 < len(parsed.line_starts) else len(parsed.data)
    return parsed.data[start:end].decode("utf-8", errors="replace")


def _owns_lines(parsed: ParsedCpp, first: tree_sitter.Node, last: tree_sitter.Node) -> bool:
    before = _line_text(parsed, first.start_point[0])[: first.start_point[1]]
    row, column = last.end_point
    after = _line_text(parsed, row)[column:] if column else ""
    return not before.strip() and not after.strip()


def delete(parsed: ParsedCpp, node: tree_sitter.Node, *, with_comments: bool = True) -> Edit:
    """Return an edit deleting `node` (and the comments above it): whole lines when it
    has its lines to itself, with one blank line around it folded away."""
    first = leading_comments(node) if with_comments else node
    if not _owns_lines(parsed, first, node):
        return parsed.replace(first, "", node)
    start_row = first.start_point[0]
    end_row = node.end_point[0] + (1 if node.end_point[1] else 0)
    total = len(parsed.line_starts)
    blank_before = start_row > 0 and not _line_text(parsed, start_row - 1).strip()
    blank_after = end_row < total and not _line_text(parsed, end_row).strip()
    if blank_before and blank_after:
        end_row += 1
    elif blank_before and end_row < total and _line_text(parsed, end_row).strip().startswith("}"):
        start_row -= 1  # no blank line left before the closing brace
    start = parsed.line_starts[start_row]
    if end_row >= total:
        last = parsed.span(node)
        old = parsed.data[start : node.end_byte].decode("utf-8", errors="replace")
        return Edit(Span(start_row + 1, 0, last.end_line, last.end_col), "", old)
    old = parsed.data[start : parsed.line_starts[end_row]].decode("utf-8", errors="replace")
    return Edit(Span(start_row + 1, 0, end_row + 1, 0), "", old)


def replace(
    parsed: ParsedCpp, node: tree_sitter.Node, text: str, *, with_comments: bool = False
) -> Edit:
    """Return an edit putting `text` in place of `node` (and the comments above it)."""
    first = leading_comments(node) if with_comments else node
    return parsed.replace(first, text, node)


def statement_indent(parsed: ParsedCpp, statement: tree_sitter.Node) -> str:
    """Return the indentation a statement put before `statement` (above the comments
    directly over it) gets: that of its line; inside a preprocessor block, whose `#if`
    sits in column 0, that of the block's first statement."""
    start = leading_comments(statement)
    if start.type.startswith("preproc"):
        return _indent_inside(parsed, start)
    row, column = start.start_point
    line_start = parsed.line_starts[row]
    return parsed.data[line_start : line_start + column].decode("utf-8", "replace")


def follows_error(statement: tree_sitter.Node) -> bool:
    """Tell whether what comes before `statement` (past its comments) is text tree-sitter
    could not read, mostly a macro that belongs to it (`ALIGNED(8) GlobalVar gv(...);`):
    a statement put between them would take that macro from it."""
    before = leading_comments(statement).prev_sibling
    return before is not None and before.type == "ERROR"


def insert_before(parsed: ParsedCpp, statement: tree_sitter.Node, text: str) -> Edit:
    """Return the edit putting statement `text` on a line of its own before `statement`
    and the comments directly over it, at its indentation; beside it when code before
    it shares its line."""
    start = leading_comments(statement)
    row, column = start.start_point
    line_start = parsed.line_starts[row]
    before = parsed.data[line_start : line_start + column].decode("utf-8", "replace")
    if before.strip():  # the statement shares its line with code before it
        where = parsed.span(start)
        point = Span(where.start_line, where.start_col, where.start_line, where.start_col)
        return Edit(point, text + " ", "")
    return Edit(Span(row + 1, 0, row + 1, 0), f"{statement_indent(parsed, statement)}{text}\n", "")


def _indent_inside(parsed: ParsedCpp, directive: tree_sitter.Node) -> str:
    """Return the indentation of the first statement inside a preprocessor block."""
    for child in directive.named_children:
        if child.start_point[0] == directive.start_point[0]:
            continue  # the condition, on the directive's own line
        if child.type.startswith("preproc") and child.type != "preproc_else":
            continue
        node = child.named_children[0] if child.type == "preproc_else" else child
        if node is None:
            continue
        line_start = parsed.line_starts[node.start_point[0]]
        text = parsed.data[line_start : line_start + node.start_point[1]]
        return text.decode("utf-8", "replace") if not text.strip() else ""
    return ""
