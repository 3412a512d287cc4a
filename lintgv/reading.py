"""Bytes on disk to checkable text, with a precise reason when a file cannot be checked."""

import os
import stat
from pathlib import Path

from lintgv.model import FileError
from lintgv.records import frozen

BOM = b"\xef\xbb\xbf"


@frozen
class Loaded:
    text: str
    data: bytes


def _too_big(path: Path, size: int, max_size: int) -> FileError:
    return FileError(
        path,
        f"file is {size:,} bytes, over max-file-size ({max_size:,}); "
        "raise `max-file-size` to check it",
    )


def decode(path: Path, data: bytes, max_size: int) -> Loaded | FileError:
    """Return the file's text, or the reason it cannot be checked."""
    if len(data) > max_size:
        return _too_big(path, len(data), max_size)
    nul = data.find(b"\0")
    if nul != -1:
        line = data.count(b"\n", 0, nul) + 1
        return FileError(path, "binary file (NUL byte); not checked", line=line)
    body = data[len(BOM) :] if data.startswith(BOM) else data
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        offset = exc.start + len(data) - len(body)
        line = data.count(b"\n", 0, offset) + 1
        column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
        return FileError(
            path,
            f"not valid UTF-8 (byte 0x{data[offset]:02x} at offset {offset}); not checked",
            line=line,
            column=column,
        )
    return Loaded(text, data)


_KINDS = (
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISDIR, "a folder"),
)


class NotRegular(OSError):
    """A path that names a pipe, device, socket or folder: never opened for reading."""


def read_bounded(path: Path, limit: int) -> bytes:
    """Return at most `limit` + 1 bytes of the regular file at `path`. A pipe, device or
    socket is never read (NotRegular): it is opened without blocking and checked before
    a byte is read, so a FIFO cannot hang the run nor a device feed it forever."""
    handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        status = os.fstat(handle)
        _refuse_irregular(status.st_mode)
        # Unbuffered reads sized by the file: a buffered `read(limit + 1)` sets aside
        # `limit` bytes (2 MB by default) for every file, which took four times as long as
        # the read itself over a tree of small files. Read on to the end or the limit all
        # the same, in case the file grew since it was looked at.
        wanted = limit + 1
        chunks = []
        step = status.st_size + 1
        while wanted > 0:
            chunk = os.read(handle, min(wanted, step))
            if not chunk:
                break
            chunks.append(chunk)
            wanted -= len(chunk)
            step = _STEP
        return b"".join(chunks)
    finally:
        os.close(handle)


# What each further read asks for, past the size the file had when it was opened.
_STEP = 65536


def _refuse_irregular(mode: int) -> None:
    kind = _kind(mode)
    if kind is not None:
        raise NotRegular(f"it is {kind}, not a regular file; not checked")


def _kind(mode: int) -> str | None:
    """Return what a file of `mode` is when it is not a regular file (a FIFO...)."""
    return next((kind for is_kind, kind in _KINDS if is_kind(mode)), None)


# How much of a file that cannot be read as text is searched for a name: a larger one
# may hold it past that point.
_SEARCHED = 64 * 1024 * 1024


def may_name(path: Path, word: str) -> bool:
    """Tell whether a file that cannot be read as text (too big, not UTF-8, binary, or not
    to be read at all) may name `word`: its bytes hold it, or it is too big to search, or
    cannot be read. A change across files must not take such a file for one that names
    nothing, and leave a call there behind. A pipe or device holds no code."""
    try:
        data = read_bounded(path, _SEARCHED)
    except NotRegular:
        return False
    except OSError:
        return True
    return len(data) > _SEARCHED or word.encode() in data


def read_source(path: Path, max_size: int) -> Loaded | FileError:
    """Read and decode the file at `path`."""
    try:
        status = os.stat(path)
    except OSError as exc:
        return FileError(path, f"cannot be read: {exc.strerror or exc}")
    kind = _kind(status.st_mode)
    if kind is not None:  # said without opening it
        return FileError(path, f"{kind}, not a regular file; not checked")
    if status.st_size > max_size:
        return _too_big(path, status.st_size, max_size)
    try:
        data = read_bounded(path, max_size)
    except NotRegular as exc:
        return FileError(path, str(exc))
    except OSError as exc:
        return FileError(path, f"cannot be read: {exc.strerror or exc}")
    return decode(path, data, max_size)
