"""The one line model: text ↔ (line, column) ↔ offset, with the LSP's line breaks only.

A line ends at `\\n`, `\\r\\n` or a lone `\\r` — what the Language Server Protocol, libcst
and CPython count — and nowhere else: not at a form feed, `\\v`, `\\x1c` to `\\x1e`, `\\x85`,
U+2028 or U+2029, where `str.splitlines()` would also split. Lines are 1-based, columns
0-based code points (as libcst counts). Parsers, rules, suppressions, fixes, reports and
the server all ask a LineIndex; nobody splits lines by hand.
"""

import re
from bisect import bisect_right
from functools import cached_property

LINE_BREAK = re.compile(r"\r\n|\r|\n")


class LineIndex:
    """Where each line of one text starts, worked out once."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts: tuple[int, ...] = (0, *(m.end() for m in LINE_BREAK.finditer(text)))

    def __len__(self) -> int:
        """Return the number of lines (a text ending in a break has an empty last line)."""
        return len(self.starts)

    def offset(self, line: int, column: int) -> int:
        """Return the offset of 1-based `line` and 0-based `column`, clamped to the line's
        content (a column past its end is its end) and to the text."""
        if line < 1:
            return 0
        if line > len(self.starts):
            return len(self.text)
        start = self.starts[line - 1]
        return min(start + max(column, 0), self.content_end(line))

    def content_end(self, line: int) -> int:
        """Return the offset where `line`'s content ends (before its line break)."""
        if line >= len(self.starts):
            return len(self.text)
        end = self.starts[line]
        if self.text[end - 2 : end] == "\r\n":
            return end - 2
        return end - 1

    def position(self, offset: int) -> tuple[int, int]:
        """Return the (1-based line, 0-based column) of `offset`."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self.starts, offset)
        return line, offset - self.starts[line - 1]

    def line(self, line: int) -> str:
        """Return the content of 1-based `line`, without its line break ("" past the end)."""
        if not 1 <= line <= len(self.starts):
            return ""
        return self.text[self.starts[line - 1] : self.content_end(line)]

    @cached_property
    def lines(self) -> tuple[str, ...]:
        """Return every line's content, without line breaks."""
        return tuple(LINE_BREAK.split(self.text))


def split_lines(text: str) -> tuple[str, ...]:
    """Return the lines of `text` without their breaks, LSP breaks only."""
    if "\r" not in text:  # the same lines; str.split is several times faster than re's
        return tuple(text.split("\n"))
    return tuple(LINE_BREAK.split(text))


def lines_with_breaks(text: str) -> list[str]:
    """Return the lines of `text`, each with its break (the last one may have none)."""
    pieces = LINE_BREAK.split(text)
    breaks = LINE_BREAK.findall(text)
    found = [piece + brk for piece, brk in zip(pieces, breaks, strict=False)]
    if pieces[-1]:
        found.append(pieces[-1])
    return found


def with_newline(text: str, newline: str) -> str:
    """Return the text of an edit for a file whose every line ends in `newline`: what a fix
    writes ends its lines in `\\n`, what it copies from the file in the file's own break,
    and both become `newline` (what `lintgv fix` writes there too)."""
    if newline == "\n" or "\n" not in text:
        return text
    return text.replace("\r\n", "\n").replace("\n", newline)
