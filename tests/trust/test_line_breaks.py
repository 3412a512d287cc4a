"""One line model: LSP line breaks only. Positions round-trip through it whatever the text
holds, and a safe fix changes a file only inside its edits, even when an earlier line holds
a form feed, `\\v`, `\\x1c` to `\\x1e`, `\\x85`, U+2028 or U+2029 (where `str.splitlines()`
splits, and where lintgv once deleted the wrong line)."""

from pathlib import Path

import pytest
from hostile import run_lintgv
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_client import Start

from lintgv.config import Config
from lintgv.edits import StaleEdit, apply_edits
from lintgv.engine import check
from lintgv.fixing.settle import settle
from lintgv.lines import LineIndex
from lintgv.model import Edit, Language, SourceFile, Span

LOOK_ALIKES = ["\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
BREAKS = ["\n", "\r\n", "\r"]
_PIECES = st.lists(
    st.sampled_from(["a", "é", "\U0001d538", " ", "#", *LOOK_ALIKES, *BREAKS]), max_size=60
)
SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(_PIECES)
def test_positions_round_trip_through_the_line_model(pieces: list[str]) -> None:
    text = "".join(pieces)
    index = LineIndex(text)
    assert len(index) == text.count("\n") + text.count("\r") - text.count("\r\n") + 1
    assert "".join(index.lines) == "".join(c for c in text if c not in "\r\n")
    for offset in range(len(text) + 1):
        if text[offset - 1 : offset + 1] == "\r\n":
            continue  # between the two halves of one line break: no position names it
        line, column = index.position(offset)
        assert index.offset(line, column) == offset
        assert index.line(line)[:column] == text[index.starts[line - 1] : offset]


def _program(language: Language, before: list[str], ending: str) -> tuple[str, str]:
    """Return a file with an unused suppression after `before`, and its fixed form."""
    if language == Language.PYTHON:
        filler = "".join(f"x{i} = {i!r}  # {c}\n" for i, c in enumerate(before))
        line, fixed_line = "b = 1  # lintgv: ignore[GV101]", "b = 1"
    else:
        filler = "".join(f"int x{i} = {i};  // {c}\n" for i, c in enumerate(before))
        line, fixed_line = "int b = 1;  // lintgv: ignore[GV101]", "int b = 1;"
    tail = f"{ending}last = 2{ending}" if language == Language.PYTHON else f"{ending}int c;{ending}"
    return filler + line + tail, filler + fixed_line + tail


@SETTINGS
@given(
    st.sampled_from([Language.PYTHON, Language.CPP]),
    st.lists(st.sampled_from(LOOK_ALIKES), min_size=1, max_size=4),
    st.sampled_from(BREAKS),
)
def test_a_safe_fix_changes_only_its_edit(
    language: Language, before: list[str], ending: str
) -> None:
    text, expected = _program(language, before, ending)
    path = Path("/project/example.py" if language == Language.PYTHON else "/project/a.cc")

    def checker(current: str) -> object:
        return check(SourceFile(path, language, current), Config(root=Path("/project")))

    settled = settle(text, language, checker, unsafe=False)  # type: ignore[arg-type]
    assert settled.text == expected
    assert [f.code for f in settled.applied] == ["GV902"]


def test_an_edit_whose_text_is_not_there_is_refused() -> None:
    text = "keep = 1\nb = 2\n"
    with pytest.raises(StaleEdit, match="expected 'b = 2' but the file holds 'keep '"):
        apply_edits(text, [Edit(Span(1, 0, 1, 5), "", "b = 2")])


@pytest.mark.parametrize(
    ("name", "text", "fixed"),
    [
        (
            "a.py",
            "import os\n\x0c\nb = os.sep  # lintgv: ignore[GV101]\n",
            "import os\n\x0c\nb = os.sep\n",
        ),
        (
            "b.cc",
            "int a = 1;\n\x0c\nint b = 2;  // lintgv: ignore[GV101]\nint c = 3;\n",
            "int a = 1;\n\x0c\nint b = 2;\nint c = 3;\n",
        ),
        (
            "c.py",
            "x = '\u2028'\ny = 1  # lintgv: ignore[GV101]\n",
            "x = '\u2028'\ny = 1\n",
        ),
    ],
)
def test_lintgv_fix_after_a_form_feed_removes_only_the_suppression(
    tmp_path: Path, name: str, text: str, fixed: str
) -> None:
    (tmp_path / name).write_bytes(text.encode())
    result = run_lintgv("fix", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (tmp_path / name).read_bytes().decode() == fixed


def test_the_report_shows_the_finding_line_after_a_form_feed(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("import os\n\x0c\nb = 1  # lintgv: ignore[GV101]\n")
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "a.py:3:" in result.stdout
    assert "b = 1  # lintgv: ignore[GV101]" in result.stdout


async def test_fix_all_in_the_editor_after_a_form_feed_edits_only_the_suppression(
    tmp_path: Path, start: Start
) -> None:
    text = "import os\n\x0c\nb = os.sep  # lintgv: ignore[GV101]\nkeep = 1\n"
    path = tmp_path / "a.py"
    path.write_text(text)
    client = await start(tmp_path)
    uri = client.open(path, text)
    diagnostics = await client.diagnostics_for(uri, 1)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("GV902", 2)]
    fixed = await client.fix_all(uri, text)
    assert fixed == "import os\n\x0c\nb = os.sep\nkeep = 1\n"


# A lone `\r` inside a triple-quoted string is valid Python and ends a line for libcst,
# CPython and the LSP: the GlobalVar is on line 4, even where only part of the file is
# parsed (no suppression comment, a check rather than a fix).
LONE_RETURN = 'import tvm\ns = """a\rb"""\ngv = tvm.ir.GlobalVar("main")\n'


def test_a_finding_after_a_lone_carriage_return_is_on_its_own_line(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_bytes(LONE_RETURN.encode())
    result = run_lintgv("check", "--no-cache", ".", cwd=tmp_path)
    assert "a.py:4:6: GV101" in result.stdout, result.stdout + result.stderr
    assert 'gv = tvm.ir.GlobalVar("main")' in result.stdout


async def test_the_editor_puts_a_finding_after_a_lone_carriage_return_on_its_line(
    tmp_path: Path, start: Start
) -> None:
    path = tmp_path / "a.py"
    path.write_bytes(LONE_RETURN.encode())
    client = await start(tmp_path)
    uri = client.open(path, LONE_RETURN)
    diagnostics = await client.diagnostics_for(uri, 1)
    assert [(d.code, d.range.start.line) for d in diagnostics] == [("GV101", 3)]
