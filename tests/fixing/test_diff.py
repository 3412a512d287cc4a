"""Unified diffs of a fix run: whatever the texts, the diff turns `before` into `after`
exactly (checked by a hunk applier here and once by `git apply`), its hunk headers count
their lines, an ordinary diff is difflib's, and a large one never hands difflib more than
`DIFFLIB_CELLS` cells."""

import difflib
import os
import re
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lintgv.fixing import diff
from lintgv.fixing.diff import diff_lines, unified_diff

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MARKER = "\\ No newline at end of file\n"
HUNK = re.compile(r"@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@\n")

# Lines that repeat, and characters `str.splitlines()` takes for line breaks, which a
# diff keeps inside a line.
LINE = st.one_of(
    st.sampled_from(["", "}", "x = 1", "a", "b", "\r", "a\rb", "\f", "\x0b", "\x85", " "]),
    st.text(alphabet="ab \r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", max_size=4),
)


@st.composite
def _edited(draw: st.DrawFn) -> tuple[str, str]:
    """Draw a text and an edit of it: lines kept, dropped, changed and added."""
    before = draw(st.lists(LINE, max_size=40))
    after = []
    for line in before:
        action = draw(st.sampled_from(["keep", "keep", "keep", "drop", "change", "add"]))
        if action in ("keep", "add"):
            after.append(line)
        if action in ("change", "add"):
            after.append(draw(LINE))
    after += draw(st.lists(LINE, max_size=3))
    return _joined(before, draw(st.booleans())), _joined(after, draw(st.booleans()))


def _joined(lines: list[str], final_newline: bool) -> str:
    return "\n".join(lines) + ("\n" if final_newline and lines else "")


TEXTS = st.one_of(_edited(), st.tuples(st.text(max_size=30), st.text(max_size=30)))
# From "anchors and gaps only" to "difflib on every file drawn".
CELLS = st.sampled_from([0, 1, 4, 30, diff.DIFFLIB_CELLS])


@dataclass(frozen=True)
class Hunk:
    old_start: int  # as the header gives them
    old_count: int
    new_start: int
    new_count: int
    signs: list[str]  # each line's: " " kept, "-" removed, "+" added
    old: list[str]  # the kept and removed lines, as in the file
    new: list[str]  # the kept and added lines


def _hunks(patch: str, path: str = "f.py") -> Iterator[Hunk]:
    lines = diff_lines(patch)
    assert lines[:2] == [f"--- a/{path}\n", f"+++ b/{path}\n"]
    k = 2
    while k < len(lines):
        header = HUNK.fullmatch(lines[k])
        assert header, lines[k]
        hunk = Hunk(*(int(n) if n is not None else 1 for n in header.groups()), [], [], [])
        k += 1
        while k < len(lines) and not lines[k].startswith("@@ "):
            sign, text = lines[k][0], lines[k][1:]
            k += 1
            if k < len(lines) and lines[k] == MARKER:
                text = text.removesuffix("\n")
                k += 1
            assert sign in " -+", lines[k - 1]
            hunk.signs.append(sign)
            if sign in " -":
                hunk.old.append(text)
            if sign in " +":
                hunk.new.append(text)
        yield hunk


def _apply(before: str, patch: str) -> str:
    """Apply a one-file unified diff as patch(1) does, with no fuzz and no offset."""
    if not patch:
        return before
    old = diff_lines(before)
    out: list[str] = []
    done = 0
    for hunk in _hunks(patch):
        start = hunk.old_start - 1 if hunk.old else hunk.old_start  # "-N,0": after line N
        assert start >= done, "hunks overlap or go backwards"
        assert old[start : start + len(hunk.old)] == hunk.old, "context does not match"
        out += old[done:start] + hunk.new
        done = start + len(hunk.old)
    return "".join(out + old[done:])


@SETTINGS
@given(TEXTS, CELLS)
def test_the_diff_turns_before_into_after(texts: tuple[str, str], cells: int) -> None:
    before, after = texts
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(diff, "DIFFLIB_CELLS", cells)
        rendered = unified_diff(before, after, "f.py")
    assert _apply(before, rendered) == after
    assert (rendered == "") == (before == after)


@SETTINGS
@given(TEXTS, CELLS)
def test_hunk_headers_count_their_lines_and_hunks_keep_three_lines_of_context(
    texts: tuple[str, str], cells: int
) -> None:
    before, after = texts
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(diff, "DIFFLIB_CELLS", cells)
        rendered = unified_diff(before, after, "f.py")
    old_count = len(diff_lines(before))
    shift = 0  # lines added less lines removed by the hunks before
    old_end = -1  # where the hunk before ends
    for hunk in _hunks(rendered) if rendered else []:
        assert (hunk.old_count, hunk.new_count) == (len(hunk.old), len(hunk.new))
        first_old = hunk.old_start - 1 if hunk.old_count else hunk.old_start
        first_new = hunk.new_start - 1 if hunk.new_count else hunk.new_start
        assert first_new == first_old + shift
        assert first_old > old_end, "hunks 6 kept lines apart or less are one"
        kept = "".join(hunk.signs).replace("+", "-").split("-")
        assert kept[0] == "   " or first_old == 0
        assert kept[-1] == "   " or first_old + hunk.old_count == old_count
        assert len(kept) > 1 and all(len(run) <= 6 for run in kept)
        shift += hunk.new_count - hunk.old_count
        old_end = first_old + hunk.old_count


def _difflib_diff(before: str, after: str) -> str:
    lines = difflib.unified_diff(diff_lines(before), diff_lines(after), "a/f.py", "b/f.py")
    return "".join(line if line.endswith("\n") else f"{line}\n{MARKER}" for line in lines)


@SETTINGS
@given(TEXTS)
def test_an_ordinary_diff_is_difflibs(texts: tuple[str, str]) -> None:
    before, after = texts
    assert unified_diff(before, after, "f.py") == _difflib_diff(*texts)


def _numbered(count: int, changed: tuple[int, ...] = ()) -> str:
    return "".join(f"line {i}{' changed' if i in changed else ''}\n" for i in range(count))


def _kept_around(line: str) -> str:
    return "start\n" + "}\n" * 10 + f"{line}\n" + "}\n" * 10 + "end\n"


@pytest.mark.parametrize(
    ("before", "after"),
    [
        (_kept_around("old"), _kept_around("new")),  # repeated lines stay kept
        (_numbered(20), _numbered(20, (3, 10))),  # 6 kept lines apart: one hunk
        (_numbered(20), _numbered(20, (3, 11))),  # 7 apart: two hunks
        (_numbered(20), "first\n" + _numbered(19)),
        (_numbered(20), _numbered(20).removesuffix("\n")),
    ],
    ids=["repeated-around", "six-apart", "seven-apart", "first-and-last", "no-newline"],
)
def test_the_anchored_diff_of_a_plain_edit_is_difflibs(
    before: str, after: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(diff, "DIFFLIB_CELLS", 0)
    assert unified_diff(before, after, "f.py") == _difflib_diff(before, after)


def _sites(count: int, call: str) -> str:
    body = "".join(f"    gv{i} = {call}('f{i}')\n    mod[gv{i}] = f\n" for i in range(count))
    return f"import tvm\n\n\ndef build(mod, f):\n{body}    return mod\n"


def test_thousands_of_changes_between_kept_lines_never_reach_difflib_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given_cells = []

    class Recording(difflib.SequenceMatcher[str]):
        def set_seqs(self, a: object, b: object) -> None:
            given_cells.append(len(a) * len(b))  # type: ignore[arg-type]
            super().set_seqs(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(difflib, "SequenceMatcher", Recording)
    before, after = _sites(2000, "tvm.ir.GlobalVar"), _sites(2000, "supply.fresh_global")
    rendered = unified_diff(before, after, "f.py")
    assert _apply(before, rendered) == after
    assert rendered.count("\n-    gv") == 2000
    assert max(given_cells) <= diff.DIFFLIB_CELLS < len(diff_lines(before)) ** 2


def test_a_large_gap_without_anchors_is_shown_as_replaced() -> None:
    # Each line twice in each text, in opposite orders: none anchors, none starts or ends
    # both, and there are too many for difflib.
    lines = [f"line {i}\n" for i in range(101)]
    before, after = "".join(lines * 2), "".join(lines[::-1] * 2)
    removed = "".join(f"-{line}" for line in lines * 2)
    added = "".join(f"+{line}" for line in lines[::-1] * 2)
    assert unified_diff(before, after, "f.py") == (
        f"--- a/f.py\n+++ b/f.py\n@@ -1,202 +1,202 @@\n{removed}{added}"
    )


# git with no configuration of the machine or the user.
_GIT = {
    "PATH": os.environ.get("PATH", ""),
    "HOME": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
}


@pytest.mark.system("git")
def test_git_applies_the_diff_exactly(tmp_path: Path) -> None:
    kept = ["}", "", "x = 1\r", "a\fb", "\x0bc\x1c\x1d\x1e", "d\x85", "e\u2028f", "\r"]
    before_lines = [f"line {i}" if i % 5 else kept[i % len(kept)] for i in range(600)]
    after_lines = [
        line + " # changed" if i % 3 == 0 else line for i, line in enumerate(before_lines)
    ]
    before = "\n".join(before_lines) + "\n"
    after = "\n".join(["added\r", *after_lines[:-1]])  # no newline at the end
    rendered = unified_diff(before, after, "f.py")
    assert MARKER in rendered
    (tmp_path / "f.py").write_bytes(before.encode())
    (tmp_path / "fix.patch").write_bytes(rendered.encode())
    subprocess.run(["git", "apply", "fix.patch"], cwd=tmp_path, env=_GIT, check=True)
    assert (tmp_path / "f.py").read_bytes() == after.encode()
