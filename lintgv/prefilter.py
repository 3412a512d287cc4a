"""Cheap literal guards in front of trigger regexes.

A trigger regex runs over every file of a tree, and most files cannot match: Python's
`re` scans an alternation of many patterns position by position, which costs seconds on a
compiler tree. Each pattern's guard is worked out from its syntax: groups of literals of
which at least one must occur in any text the pattern matches. Substring tests reject most
files at memory speed, and only the patterns whose guard passes are searched.
"""

import re
import re._constants as sre  # type: ignore[import-not-found]  # private, no stubs; stable in 3.11+
import re._parser as sre_parse  # type: ignore[import-not-found]  # the same
from collections.abc import Iterator
from dataclasses import field
from functools import cache

from lintgv.records import frozen, mutable

# One group of a guard: at least one of these strings occurs in every matching text.
_Group = frozenset[str]
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


@frozen
class Guard:
    """Literal groups that all hold in every text the pattern matches."""

    groups: tuple[_Group, ...]

    def admits(self, text: str, seen: dict[str, bool]) -> bool:
        """Tell whether `text` may match; `seen` remembers substring tests for this text."""
        # Inline loops, no generator: this runs for every pattern of every file of a tree.
        for group in self.groups:
            for literal in group:
                found = seen.get(literal)
                if found is None:
                    found = seen[literal] = literal in text
                if found:
                    break
            else:
                return False
        return True


@cache
def guard_of(pattern: str) -> Guard:
    """Return the guard of `pattern`, the most selective groups first."""
    parsed = sre_parse.parse(pattern)
    if parsed.state.flags & (sre.SRE_FLAG_IGNORECASE | sre.SRE_FLAG_VERBOSE):
        return Guard(())
    groups = {g for g in _required(list(parsed)) if "" not in g}
    ordered = sorted(groups, key=lambda g: (_selectivity(g), sorted(g)), reverse=True)
    return Guard(tuple(ordered))


# Flags under which a pattern's literals are not the text's: its guard would be wrong.
_UNLITERAL = re.IGNORECASE | re.VERBOSE


def matches(pattern: re.Pattern[str], text: str) -> bool:
    """Tell whether `pattern` matches anywhere in `text`, its guard asked first: a text
    without the literals costs substring tests, not a search (which reads a few hundred
    MB/s, against gigabytes for a substring)."""
    guard = guard_of(pattern.pattern) if not pattern.flags & _UNLITERAL else Guard(())
    return guard.admits(text, {}) and pattern.search(text) is not None


# A trigger that must start its line (after indentation) begins with this. sre has no
# fast path for such a pattern: it tries the anchor at every position of the file, which
# made two Python triggers cost seconds on a compiler tree. The rest of the pattern starts
# with a literal, which sre finds quickly; a match of the rest counts when nothing but
# blanks precedes it on its line.
LINE_START = r"(?:(?<=\n)|^)[ \t]*"


@mutable
class Hints:
    """Where trigger patterns matched in a document's last version, as character offsets,
    and that version's length: an editor's next version usually has the match in place."""

    positions: dict[str, int] = field(default_factory=dict)
    length: int = 0


@frozen
class Triggers:
    """Trigger patterns searched together: those anchored at a line start apart."""

    anywhere: re.Pattern[str] | None
    line_start: re.Pattern[str] | None  # the patterns with LINE_START taken off

    def search(self, text: str) -> re.Match[str] | None:
        """Return a match of any pattern in `text`, or None."""
        return next(self.finditer(text), None)

    def matches_at(self, text: str, position: int) -> bool:
        """Tell whether a pattern matches in `text` starting at `position`."""
        if self.anywhere is not None and self.anywhere.match(text, position) is not None:
            return True
        if self.line_start is None or self.line_start.match(text, position) is None:
            return False
        begin = text.rfind("\n", 0, position) + 1
        return not text[begin:position].strip(" \t")

    def finditer(self, text: str) -> Iterator[re.Match[str]]:
        """Yield the matches of the unanchored patterns, then of the anchored ones.

        The two sets may overlap where one alternation would have kept only the first;
        callers want every place a trigger occurs, so more is never wrong.
        """
        if self.anywhere is not None:
            yield from self.anywhere.finditer(text)
        if self.line_start is None:
            return
        position = 0
        while (match := self.line_start.search(text, position)) is not None:
            start = match.start()
            begin = text.rfind("\n", 0, start) + 1
            if not text[begin:start].strip(" \t"):
                yield match
                position = max(match.end(), start + 1)
            else:
                position = start + 1


@cache
def combined(patterns: tuple[str, ...]) -> Triggers | None:
    """Return the patterns compiled to search together (None for none)."""
    if not patterns:
        return None
    anchored = tuple(p[len(LINE_START) :] for p in patterns if p.startswith(LINE_START))
    anywhere = tuple(p for p in patterns if not p.startswith(LINE_START))
    return Triggers(_alternation(anywhere), _alternation(anchored))


@cache
def search_of(pattern: str) -> tuple["Triggers | None", Guard]:
    """Return what a search for `pattern` alone takes: its regex and its guard."""
    return combined((pattern,)), guard_of(pattern)


@cache
def bytes_pattern(patterns: tuple[str, ...]) -> re.Pattern[bytes]:
    """Return one regex over bytes matching any of `patterns` (C++ sources are bytes)."""
    return re.compile("|".join(f"(?:{p})" for p in patterns).encode())


def _alternation(patterns: tuple[str, ...]) -> re.Pattern[str] | None:
    return re.compile("|".join(f"(?:{p})" for p in patterns)) if patterns else None


def _required(items: list[tuple[object, object]]) -> list[_Group]:
    """Return the literal groups that a sequence of parsed regex items needs."""
    found: list[_Group] = []
    run: list[str] = []
    for op, value in items:
        if op is sre.LITERAL:
            assert isinstance(value, int)
            run.append(chr(value))
            continue
        if run:
            found.append(frozenset({"".join(run)}))
            run = []
        found.extend(_required_of(op, value))
    if run:
        found.append(frozenset({"".join(run)}))
    return found


def _required_of(op: object, value: object) -> list[_Group]:
    if op is sre.SUBPATTERN:
        assert isinstance(value, tuple)
        _, add_flags, _, inner = value
        return [] if add_flags & sre.SRE_FLAG_IGNORECASE else _required(list(inner))
    if op is sre.BRANCH:
        assert isinstance(value, tuple)
        return _branch(value[1])
    if op in _REPEATS:
        assert isinstance(value, tuple)
        low, _, inner = value
        return _required(list(inner)) if low >= 1 else []
    if op is sre.ASSERT:
        # A positive lookahead or lookbehind: its text occurs in the file too.
        assert isinstance(value, tuple)
        return _required(list(value[1]))
    if op is sre.ATOMIC_GROUP:
        return _required(list(value))  # type: ignore[call-overload]  # a SubPattern
    return []  # classes, anchors, negative lookarounds, references: nothing certain


def _branch(alternatives: list[list[tuple[object, object]]]) -> list[_Group]:
    """Return one group: for each alternative, its most selective group joined together."""
    union: set[str] = set()
    for alternative in alternatives:
        groups = [g for g in _required(list(alternative)) if "" not in g]
        if not groups:
            return []  # this alternative needs no literal: the branch guarantees none
        best: _Group = max(groups, key=_selectivity)
        union.update(best)
    return [frozenset(union)]


def _selectivity(group: _Group) -> tuple[int, int]:
    """Rank a group: its shortest literal's length, then fewer alternatives."""
    return (min(len(literal) for literal in group), -len(group))
