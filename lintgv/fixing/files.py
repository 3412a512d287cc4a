"""Reading a file for fixing and writing it back exactly as it was stored: the same
encoding (UTF-8), byte-order mark, line endings, permissions and final newline.

A write goes to a temporary file in the same folder, is flushed to disk, and replaces
the original with `os.replace`, so a reader (or a crash, or Ctrl-C) sees either the old
file or the new one. Just before the replace, the file is read again: if it changed
since lintgv read it, it is left alone.
"""

import contextlib
import os
import signal
import stat
import tempfile
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import FrameType

from lintgv.digest import blake2b
from lintgv.reading import BOM
from lintgv.records import frozen


@frozen
class StoredText:
    """A file's text with `\\n` line ends, and how to turn it back into the same bytes."""

    text: str
    bom: bool
    # The line break every line of the file ends with, which the text holds as \n: "\r\n"
    # or a lone "\r" (classic Mac OS). "\n" for a file that uses \n, none, or several.
    newline: str = "\n"

    def encode(self, text: str) -> bytes:
        """Return the bytes of `text` in this file's format."""
        data = self.stored(text).encode("utf-8")
        return BOM + data if self.bom else data

    def stored(self, text: str) -> str:
        """Return `text` as it would be stored (with its own line ends), for diffs."""
        return text.replace("\n", self.newline) if self.newline != "\n" else text


def digest_of(data: bytes) -> str:
    """Return a content hash of `data`."""
    return blake2b(data, digest_size=16).hexdigest()


def stored_text(text: str, data: bytes) -> StoredText:
    """Return the text of a decoded file, normalised to `\\n` when every line ends in a
    `\\r\\n`, or every line in a lone `\\r`: what fixes insert (lines ending in `\\n`) is
    then written with the file's own line break, as every other line is. A file with mixed
    line ends is kept as it is, and the lines a fix adds to it end in `\\n` (ruff would use
    the first break found, black the first line's: no one break is the file's own)."""
    bom = data.startswith(BOM)
    if "\r" not in text:
        return StoredText(text, bom)
    newlines = text.count("\n")
    # Every break a \r\n: a lone \r (a break of its own) would otherwise join a \r\n after
    # it into one, and the lines of the text would no longer be the file's.
    if newlines and text.count("\r\n") == newlines == text.count("\r"):
        return StoredText(text.replace("\r\n", "\n"), bom, "\r\n")
    if not newlines:
        return StoredText(text.replace("\r", "\n"), bom, "\r")
    return StoredText(text, bom)


class ChangedOnDisk(Exception):
    """The file changed after it was read; it was not overwritten."""


class NotWritable(Exception):
    """A file `fix` must not write (outside the tree, hard-linked, not a regular file)."""


@frozen
class Tree:
    """Where `lintgv fix` may write: regular files whose real path lies under the real
    path of a folder the user named (for a named file, its folder). A symbolic link whose
    target is elsewhere is not followed; one within the tree is (the link stays a link)."""

    roots: tuple[str, ...]

    @classmethod
    def of(cls, paths: Sequence[Path]) -> "Tree":
        """Return the tree of the paths given on the command line."""
        roots = []
        for path in paths:
            folder = path if os.path.isdir(path) else path.absolute().parent
            roots.append(os.path.realpath(folder))
        return cls(tuple(roots))

    def refusal(self, path: Path) -> str | None:
        """Return why `fix` must not write `path` ("outside the tree"), or None when it may."""
        real = os.path.realpath(path)
        if not any(real == root or real.startswith(root.rstrip("/") + "/") for root in self.roots):
            return f"outside the tree (it resolves to {real})"
        try:
            status = os.stat(real)
        except OSError as exc:
            return f"cannot be read again ({exc.strerror or exc})"
        if not stat.S_ISREG(status.st_mode):
            return "not a regular file"
        if status.st_nlink > 1:
            return (
                f"hard-linked ({status.st_nlink} links); a rewrite would split "
                "the link or change the other names too"
            )
        return None


def not_fixed(refusal: str) -> str:
    """Return how a file `fix` refused to write is reported, given why (Tree.refusal)."""
    return f"not fixed: {refusal}"


def write_atomically(path: Path, data: bytes, expected_digest: str, tree: Tree) -> None:
    """Replace the file at `path` with `data`, unless its content no longer has
    `expected_digest`. Raise NotWritable, ChangedOnDisk or OSError; the file is never
    half-written."""
    refusal = tree.refusal(path)
    if refusal is not None:
        raise NotWritable(not_fixed(refusal))
    target = Path(os.path.realpath(path))  # a symlink within the tree stays a symlink
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
