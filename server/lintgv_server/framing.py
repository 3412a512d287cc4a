"""The base protocol's framing: read `Content-Length` frames and hand their bodies on.

pygls' own reader forgets nothing and checks nothing: after one header block without a
valid `Content-Length` it reads the body as header lines, and from then on every frame's
header is glued to the previous body, so the server hears nothing more, not even
`shutdown`, and logs nothing. Here a malformed header block is logged and skipped, and
the reader resynchronises on the next line holding a `Content-Length` header (where a
body without a line break ends, the next frame's header follows on the same line). A
frame larger than any real message ends the connection cleanly, so the client restarts
the server instead of waiting on one that is reading megabytes of nothing.
"""

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from typing import Protocol

from lintgv.records import frozen

log = logging.getLogger(__name__)

# No LSP message comes near this; a larger length is a broken or hostile client.
MAX_FRAME_BYTES = 256 * 1024 * 1024
_HEADER = re.compile(rb"Content-Length:[ \t]*(\d+)[ \t]*\r?\n", re.IGNORECASE)
_NAME = re.compile(rb"content-length:", re.IGNORECASE)


class Reader(Protocol):
    def readline(self) -> Awaitable[bytes]: ...

    def readexactly(self, n: int) -> Awaitable[bytes]: ...


@frozen
class Frame:
    """One frame's body, or why the header block before it was unusable."""

    body: bytes | None
    problem: str | None = None


class FrameReader:
    """Read frames from `reader`, resynchronising after a malformed header block."""

    def __init__(self, reader: Reader) -> None:
        self._reader = reader
        # A line already read that starts a header block (found while resynchronising).
        self._pending: bytes | None = None

    async def _line(self) -> bytes:
        if self._pending is not None:
            line, self._pending = self._pending, None
            return line
        return await self._reader.readline()

    async def next_frame(self) -> Frame | None:
        """Return the next frame, a Frame with a problem, or None at the end of input."""
        length: int | None = None
        problem: str | None = None
        while True:
            line = await self._line()
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                break
            match = _HEADER.fullmatch(line)
            if match is not None:
                length = int(match.group(1))
                continue
            # From the second byte: a header name at the start of the line may be the
            # garbage itself, with the real header after it (`content-length:Content-…`).
            start = _NAME.search(line, 1)
            if start is not None:
                # The rest of a frame (a body without a line break, or garbage) runs into
                # the next header: start again there.
                self._pending = line[start.start() :]
                return Frame(None, f"skipped {start.start()} bytes before a header")
            if _NAME.match(line):
                problem = f"malformed header {line[:80]!r}"
            elif b":" not in line:
                problem = f"not a header line {line[:80]!r}"
            # Other headers (Content-Type) are allowed and ignored.
        if problem is not None or length is None:
            return Frame(None, problem or "a header block without Content-Length")
        if length > MAX_FRAME_BYTES:
            raise FrameTooLarge(length)
        try:
            body = await self._reader.readexactly(length) if length else b""
        except asyncio.IncompleteReadError:  # asyncio's streams, at the end of input
            return None
        if len(body) < length:  # a file's read, at the end of input
            return None
        return Frame(body)


class FrameTooLarge(Exception):
    def __init__(self, length: int) -> None:
        super().__init__(f"a frame of {length} bytes (at most {MAX_FRAME_BYTES} are read)")


async def read_messages(
    reader: Reader,
    handle: Callable[[bytes], None],
    report: Callable[[str], None],
) -> None:
    """Hand each frame's body to `handle` until the input ends; `report` hears about
    every malformed frame."""
    frames = FrameReader(reader)
    while True:
        try:
            frame = await frames.next_frame()
        except FrameTooLarge as exc:
            report(f"{exc}; the connection is closed")
            return
        if frame is None:
            return
        if frame.problem is not None:
            report(f"malformed frame: {frame.problem}; reading on from the next header")
            continue
        assert frame.body is not None
        handle(frame.body)
