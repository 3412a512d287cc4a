"""The server's documents and positions follow the client's lines: breaks at `\\n`, `\\r\\n`
and a lone `\\r` only (a form feed, `\\v`, `\\x1c` to `\\x1e`, `\\x85`, U+2028 and U+2029 stay
inside a line), in every position encoding, whatever the range (past a line's end or the
text's end too)."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st
from lintgv_server.convert import line_index, to_offset, to_position
from lintgv_server.state import LintgvDocument
from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

# Characters where `str.splitlines()` splits but the LSP does not.
LOOK_ALIKES = ["\x0b", "\x0c", "\x1c", "\x85", "\u2028", "\u2029"]
ALPHABET = st.sampled_from(["a", "b", " ", "\n", "\r\n", "\r", "é", "😋", *LOOK_ALIKES])
TEXTS = st.lists(ALPHABET, max_size=30).map("".join)
ENCODINGS = st.sampled_from(list(types.PositionEncodingKind))
# Each encoding's code unit, in bytes of Python's codec of it.
_UNITS = {"utf-8": ("utf-8", 1), "utf-16": ("utf-16-le", 2), "utf-32": ("utf-32-le", 4)}


def _client_offset(text: str, encoding: str, line: int, character: int) -> int:
    """Where an editor puts a position: its own reading of the LSP, written separately."""
    starts = [0, *(m.end() for m in re.finditer(r"\r\n|\r|\n", text))]
    if line >= len(starts):
        return len(text)
    content = re.split(r"\r\n|\r|\n", text[starts[line] :], maxsplit=1)[0]
    codec, size = _UNITS[encoding]
    units = 0
    for column, char in enumerate(content):
        if units >= character:
            return starts[line] + column
        units += len(char.encode(codec)) // size
    return starts[line] + len(content)


def _change(line: int, character: int, end_line: int, end_character: int, text: str) -> object:
    start = types.Position(line=line, character=character)
    end = types.Position(line=end_line, character=end_character)
    return types.TextDocumentContentChangePartial(
        range=types.Range(start=start, end=end), text=text
    )


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
    ENCODINGS,
)
def test_changes_land_where_the_client_made_them(
    text: str, changes: list[tuple[int, int, int, int, str]], encoding: types.PositionEncodingKind
) -> None:
    codec = PositionCodec(encoding)
    sync = types.TextDocumentSyncKind.Incremental
    ours = LintgvDocument("file:///a.py", text, sync_kind=sync, position_codec=codec)
    client = text
    for line, character, end_line, end_character, new in changes:
        start = _client_offset(client, encoding, line, character)
        end = max(start, _client_offset(client, encoding, end_line, end_character))
        client = client[:start] + new + client[end:]
        ours.apply_change(_change(line, character, end_line, end_character, new))  # type: ignore[arg-type]
        assert ours.source == client


@settings(max_examples=300, deadline=None)
@given(TEXTS, ENCODINGS)
def test_positions_round_trip_between_server_and_client(
    text: str, encoding: types.PositionEncodingKind
) -> None:
    codec = PositionCodec(encoding)
    index = line_index(text)
    for offset in range(len(text) + 1):
        if text[offset - 1 : offset + 1] == "\r\n":
            continue  # between the two halves of one line break: no position names it
        position = to_position(index, codec, *index.position(offset))
        assert _client_offset(text, encoding, position.line, position.character) == offset
        assert to_offset(index, codec, position) == offset
