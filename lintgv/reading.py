"""Bytes on disk to checkable text, with a precise reason when a file cannot be checked."""

from dataclasses import dataclass
from pathlib import Path

from lintgv.model import FileError

BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True)
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


def read_source(path: Path, max_size: int) -> Loaded | FileError:
    """Read and decode the file at `path`."""
    try:
        size = path.stat().st_size
        if size > max_size:
            return _too_big(path, size, max_size)
        data = path.read_bytes()
    except OSError as exc:
        return FileError(path, f"cannot be read: {exc.strerror or exc}")
    return decode(path, data, max_size)
