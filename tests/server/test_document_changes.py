"""The server's documents apply an incremental change as pygls does, splitting lines
only at `\\n`, whatever the text, the encoding and the range (a line past the end too)."""

from hypothesis import given, settings
from hypothesis import strategies as st
from lintgv_server.analysis import lines_of
from lintgv_server.state import LintgvDocument
from lsprotocol import types
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import PositionCodec

ALPHABET = st.sampled_from(["a", "b", " ", "\n", "\r\n", "\r", "\x0c", "é", "😋", "\u2028"])
TEXTS = st.lists(ALPHABET, max_size=30).map("".join)


class SplitOnlyAtNewlines(TextDocument):
    """pygls' own way of applying a change, with lintgv's lines."""

    @property
    def lines(self) -> tuple[str, ...]:
        return lines_of(self.source)


def _change(line: int, character: int, end_line: int, end_character: int, text: str) -> object:
    start = types.Position(line=line, character=character)
    end = types.Position(line=end_line, character=end_character)
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=start, end=end), text=text
    )


def _within(
    lines: tuple[str, ...], codec: PositionCodec, line: int, character: int
) -> tuple[int, int]:
    """Return a position in the document, or just past its last line (pygls moves a
    character past a line's end to its last character, which the spec does not say)."""
    if line >= len(lines):
        return len(lines), 0
    return line, min(character, codec.client_num_units(lines[line].rstrip("\r\n")))


@settings(max_examples=400, deadline=None)
@given(
    TEXTS,
    st.lists(
        st.tuples(
            st.integers(0, 8), st.integers(0, 6), st.integers(0, 8), st.integers(0, 6), TEXTS
        ),
        min_size=1,
        max_size=4,
    ),
    st.sampled_from(list(types.PositionEncodingKind)),
)
def test_changes_give_the_text_pygls_gives(
    text: str, changes: list[tuple[int, int, int, int, str]], encoding: types.PositionEncodingKind
) -> None:
    codec = PositionCodec(encoding)
    sync = types.TextDocumentSyncKind.Incremental
    ours = LintgvDocument("file:///a.py", text, sync_kind=sync, position_codec=codec)
    reference = SplitOnlyAtNewlines("file:///a.py", text, sync_kind=sync, position_codec=codec)
    for line, character, end_line, end_character, new in changes:
        line, character = _within(ours.lines, codec, line, character)
        end_line, end_character = _within(ours.lines, codec, end_line, end_character)
        end_line, end_character = max((line, character), (end_line, end_character))
        ours.apply_change(_change(line, character, end_line, end_character, new))  # type: ignore[arg-type]
        reference.apply_change(_change(line, character, end_line, end_character, new))  # type: ignore[arg-type]
        assert ours.source == reference.source
        assert ours.lines == lines_of(reference.source)


@given(TEXTS)
def test_lines_split_in_c_are_the_lines_split_at_newlines(text: str) -> None:
    pieces = text.split("\n")
    expected = [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    assert lines_of(text) == tuple(expected)
