"""Reading a file for fixing and writing it back exactly as it was stored: the same
encoding (UTF-8), byte-order mark, line endings, permissions and final newline.

A write goes to a temporary file in the same folder, is flushed to disk, and replaces
the original with `os.replace`, so a reader (or a crash, or Ctrl-C) sees either the old
file or the new one. Just before the replace, the file is read again: if it changed
since lintgv read it, it is left alone.
"""

import contextlib
import hashlib
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

from lintgv.reading import BOM


@dataclass(frozen=True)
class StoredText:
    """A file's text with `\\n` line ends, and how to turn it back into the same bytes."""

    text: str
    bom: bool
    crlf: bool  # every line ended with \r\n; the text holds \n

    def encode(self, text: str) -> bytes:
        """Return the bytes of `text` in this file's format."""
        if self.crlf:
            text = text.replace("\n", "\r\n")
        data = text.encode("utf-8")
        return BOM + data if self.bom else data

    def stored(self, text: str) -> str:
        """Return `text` as it would be stored (with its own line ends), for diffs."""
        return text.replace("\n", "\r\n") if self.crlf else text


def digest_of(data: bytes) -> str:
    """Return a content hash of `data`."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()


def stored_text(text: str, data: bytes) -> StoredText:
    """Return the text of a decoded file, normalised to `\\n` when every line ends in
    `\\r\\n`. A file with mixed line ends is kept as it is."""
    bom = data.startswith(BOM)
    newlines = text.count("\n")
    crlf = newlines > 0 and text.count("\r\n") == newlines
    return StoredText(text.replace("\r\n", "\n") if crlf else text, bom, crlf)


class ChangedOnDisk(Exception):
    """The file changed after it was read; it was not overwritten."""


def write_atomically(path: Path, data: bytes, expected_digest: str) -> None:
    """Replace the file at `path` with `data`, unless its content no longer has
    `expected_digest`. Raise ChangedOnDisk or OSError; the file is never half-written."""
    target = Path(os.path.realpath(path))  # a symlink stays a symlink
    status = target.stat()
    if not status.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        # Checked by mode, not by access(): root may write anything, but a file with no
        # write bit was marked read-only on purpose.
        raise PermissionError("the file is read-only; not overwritten")
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".lintgv-tmp"
    )
    replaced = False
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, stat.S_IMODE(status.st_mode))
        if hasattr(os, "chown") and (status.st_uid, status.st_gid) != (os.getuid(), os.getgid()):
            with contextlib.suppress(OSError):
                os.chown(temporary, status.st_uid, status.st_gid)
        if digest_of(target.read_bytes()) != expected_digest:
            raise ChangedOnDisk(f"{path} changed on disk since it was read; not overwritten")
        os.replace(temporary, target)
        replaced = True
    finally:
        if not replaced:
            with contextlib.suppress(OSError):
                os.unlink(temporary)


@contextlib.contextmanager
def interrupts_deferred() -> Iterator[None]:
    """Hold Ctrl-C until the block ends, so a group of files is written whole."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        yield  # started with Ctrl-C ignored (e.g. in the background): it stays ignored
        return
    received: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        received.append(signum)

    previous = signal.signal(signal.SIGINT, hold)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if received:
        raise KeyboardInterrupt
