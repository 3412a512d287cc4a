"""Files lintgv writes that are not sources of the tree: reports, baselines, emitted C and
the build of `lintgv validate`. (Fixed sources go through lintgv.fixing.files.)

Such files are often written inside the tree they describe, which may be hostile: a
symbolic link there could send the text anywhere, and a FIFO would block the run. So an
output file is only ever a new or regular file, never reached through a symbolic link at
its own name, and it is replaced whole: the text goes to a new file beside it, renamed
over it, so an error leaves the old file as it was.
"""

import contextlib
import errno
import os
import stat
from pathlib import Path

from lintgv.errors import LintgvError

# The temporary file is new (O_EXCL) and opened without following a link (O_NOFOLLOW).
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


class OutputError(LintgvError):
    """An output file or folder cannot be written; the message names it and says why."""


def _cannot(path: Path, exc: OSError) -> OutputError:
    return OutputError(f"{path}: cannot be written ({exc.strerror or exc})")


def _status(path: Path) -> os.stat_result | None:
    """Return what is at `path` (None: nothing), refusing a symbolic link."""
    try:
        status = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _cannot(path, exc) from exc
    if stat.S_ISLNK(status.st_mode):
        raise OutputError(f"{path}: it is a symbolic link; lintgv does not write through one")
    return status


def existing_mode(path: Path) -> int | None:
    """Return the permission bits of the regular file at `path`, None when there is none,
    or raise OutputError when something else is there (a link, a FIFO, a folder)."""
    status = _status(path)
    if status is None:
        return None
    if stat.S_ISDIR(status.st_mode):
        raise _cannot(path, OSError(errno.EISDIR, os.strerror(errno.EISDIR)))
    if not stat.S_ISREG(status.st_mode):
        raise OutputError(f"{path}: it is not a regular file")
    return stat.S_IMODE(status.st_mode)


def write_output(path: Path, text: str) -> None:
    """Write `text` (UTF-8) to `path`, a new or regular file, replacing it whole; or raise
    OutputError naming the file and the reason, leaving any old file untouched."""
    mode = existing_mode(path)
    data = text.encode("utf-8")
    temporary = path.parent / f".lintgv-{os.urandom(6).hex()}.tmp"
    try:
        handle = os.open(temporary, _NEW_FILE, 0o666 if mode is None else mode)
    except OSError as exc:
        raise _cannot(path, exc) from exc
    try:
        with os.fdopen(handle, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)  # as it was, whatever the umask
            out.write(data)
        os.replace(temporary, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(exc, OSError):
            raise _cannot(path, exc) from exc
        raise


def make_folder(path: Path) -> None:
    """Create the folder `path` (and those above it) unless it is one already; raise
    OutputError when a symbolic link or something else than a folder is there."""
    status = _status(path)
    if status is None:
        try:
            path.mkdir(parents=True)
        except OSError as exc:
            raise _cannot(path, exc) from exc
    elif not stat.S_ISDIR(status.st_mode):
        raise OutputError(f"{path}: it is not a folder")
