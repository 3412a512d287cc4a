"""Line-aware C++ edits: delete a declaration with its doc comment, replace a node."""

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
