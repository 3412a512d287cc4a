"""The frame reader on its own: every well-formed frame is read whole, and after any
malformed header block the frames that follow are read again."""

import asyncio
import io
import json

from hypothesis import given
from hypothesis import strategies as st
from lintgv_server.framing import read_messages


class _Bytes:
    """An async reader over fixed bytes, as the server's stdin reader behaves."""

    def __init__(self, data: bytes) -> None:
        self._stream = io.BytesIO(data)

    async def readline(self) -> bytes:
        return self._stream.readline()

    async def readexactly(self, n: int) -> bytes:
        return self._stream.read(n)


def _frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _read(data: bytes) -> tuple[list[bytes], list[str]]:
    bodies: list[bytes] = []
    problems: list[str] = []
    asyncio.run(read_messages(_Bytes(data), bodies.append, problems.append))
    return bodies, problems


_BODIES = st.lists(
    st.dictionaries(st.text(max_size=5), st.text(max_size=20), max_size=3).map(
        lambda d: json.dumps(d).encode()
    ),
    max_size=6,
)
_BROKEN_HEADERS = st.sampled_from(
    [
        b"Content-Length: x\r\n\r\n",
        b"Content-Length: -1\r\n\r\n",
        b"Content-Lenght: 12\r\n\r\n",
        b"\r\n",
        b"garbage\r\n\r\n",
    ]
)


@given(_BODIES)
def test_well_formed_frames_are_read_whole_and_in_order(bodies: list[bytes]) -> None:
    assert _read(b"".join(_frame(b) for b in bodies)) == (bodies, [])


@given(_BODIES, _BROKEN_HEADERS, st.binary(max_size=30).filter(lambda b: b"\n" not in b), _BODIES)
def test_after_a_malformed_header_block_the_next_frames_are_read(
    before: list[bytes], broken: bytes, stray: bytes, after: list[bytes]
) -> None:
    data = b"".join(_frame(b) for b in before) + broken + stray + b"".join(map(_frame, after))
    bodies, problems = _read(data)
    assert bodies == before + after
    assert problems  # the broken block was reported


def test_a_frame_larger_than_any_message_ends_the_reading() -> None:
    bodies, problems = _read(b"Content-Length: 99999999999\r\n\r\n" + _frame(b"{}"))
    assert bodies == []
    assert problems == [
        "a frame of 99999999999 bytes (at most 268435456 are read); the connection is closed"
    ]


def test_garbage_that_looks_like_a_header_name_does_not_hide_the_next_frame() -> None:
    # Found by the property test above: the stray bytes end where a header begins.
    bodies, problems = _read(b"Content-Length: x\r\n\r\ncontent-length:" + _frame(b"{}"))
    assert bodies == [b"{}"]
    assert len(problems) == 2  # the malformed block, then the bytes skipped before a header
