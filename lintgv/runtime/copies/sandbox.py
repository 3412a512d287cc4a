"""Run a command from an analysed tree in a sandbox, with limits.

Only `lintgv validate-copies` and `lintgv fix --prove-names` run code of the tree (a
unique-name copy, compiled and run beside NameSupply); nothing else in lintgv does. Such
a run gets:

- bubblewrap (`bwrap`): the whole file system read-only, a private empty /tmp, only its
  throwaway folder writable, its own network (none), process, IPC and host namespaces;
- as root, the user `nobody` (65534) instead, so that no capability is left and the
  process limit applies (the kernel never limits root's processes);
- an empty environment (PATH, LANG, HOME and TMPDIR pointing at the throwaway folder);
- limits (`setrlimit`): CPU seconds, address space, file size, open files, processes,
  no core files; a wall-clock limit that kills its whole process group; and at most
  OUTPUT_BYTES read from each of its output streams.

Where bubblewrap is missing or the kernel refuses it namespaces, the run is refused,
unless the user passed `--allow-unsandboxed`: then it runs with the limits, the
throwaway folder and the empty environment only. A run that trips a limit or is refused
gives a reason, which the callers turn into "could not be proven", never "safe".
"""

import contextlib
import os
import resource
import shutil
import signal
import subprocess
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import IO

NOBODY = 65534
OUTPUT_BYTES = 1024 * 1024
SANDBOX_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass(frozen=True)
class Limits:
    """What one sandboxed command may use."""

    wall_seconds: float = 30.0
    cpu_seconds: int = 20
    memory_bytes: int = 2 * 1024**3  # address space: a C++ compiler needs about 1 GiB
    file_bytes: int = 64 * 1024**2
    open_files: int = 256
    processes: int = 64  # beyond what the user already runs


@dataclass(frozen=True)
class Outcome:
    """How a sandboxed command ended: its exit code and output, or why it was stopped."""

    returncode: int
    stdout: str
    stderr: str
    stopped: str | None = None  # a limit it tripped, or why it was not run at all


class SandboxUnavailable(Exception):
    """No sandbox can be made here; the message says why and what to do."""


def run_sandboxed(
    argv: Sequence[str], folder: Path, limits: Limits, *, unsandboxed: bool = False
) -> Outcome:
    """Run `argv` with `folder` (a throwaway folder) as its only writable place.

    With `unsandboxed`, run without bubblewrap when it is unavailable (limits, folder and
    environment still apply)."""
    try:
        wrapped = _wrapped(argv, folder)
    except SandboxUnavailable as exc:
        if not unsandboxed:
            return Outcome(-1, "", "", f"not run: {exc}")
        wrapped = list(argv)
    env = _environment(folder)
    if os.geteuid() == 0:
        os.chown(folder, NOBODY, NOBODY)
    try:
        process = subprocess.Popen(
            wrapped,
            cwd=folder,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=True,  # its own process group, killed as a whole
            preexec_fn=lambda: _limit(limits),
        )
    except OSError as exc:
        return Outcome(-1, "", "", f"not run: {exc}")
    return _collect(process, limits)


def _wrapped(argv: Sequence[str], folder: Path) -> list[str]:
    bwrap = _bwrap()
    inside = [
        bwrap,
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
        "--tmpfs", "/tmp",
        "--bind", str(folder), str(folder),
        "--unshare-all",
        "--die-with-parent",
        "--new-session",
        "--chdir", str(folder),
        "--",
        *argv,
    ]  # fmt: skip
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            raise SandboxUnavailable("`setpriv` (util-linux) is needed to drop root first")
        drop = f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"
        return [setpriv, *drop, "--", *inside]
    return inside


@cache
def _bwrap() -> str:
    """Return bubblewrap's path, once it has shown that it can make a sandbox here."""
    found = shutil.which("bwrap")
    if found is None:
        raise SandboxUnavailable(
            "bubblewrap (`bwrap`) is not installed (Debian: apt-get install bubblewrap)"
        )
    probe = [found, "--ro-bind", "/", "/", "--unshare-all", "--", "/bin/true"]
    if os.geteuid() == 0:
        probe = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *probe]
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise SandboxUnavailable(f"bubblewrap does not start: {exc}") from exc
    if done.returncode != 0:
        why = done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]
        raise SandboxUnavailable(f"the kernel refuses bubblewrap its namespaces: {why[0]}")
    return found


def runnable_by_sandbox(path: str) -> bool:
    """Tell whether the sandbox's user can run the program at `path`: as root the sandbox
    runs as `nobody`, who cannot enter a folder such as /root."""
    if os.geteuid() != 0:
        return True
    real = Path(os.path.realpath(path))
    folders_open = all(p.stat().st_mode & 0o001 for p in real.parents)
    return folders_open and bool(real.stat().st_mode & 0o001)


def _environment(folder: Path) -> dict[str, str]:
    return {"PATH": SANDBOX_PATH, "LANG": "C.UTF-8", "HOME": str(folder), "TMPDIR": str(folder)}


def _limit(limits: Limits) -> None:
    """Set the limits in the child, before it runs anything (preexec)."""
    processes = limits.processes + (0 if os.geteuid() == 0 else _processes_of(os.getuid()))
    # One second of grace above the soft CPU limit: SIGXCPU ends the command first, and
    # says why, before the hard limit's SIGKILL would.
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    for kind, value in (
        (resource.RLIMIT_AS, limits.memory_bytes),
        (resource.RLIMIT_FSIZE, limits.file_bytes),
        (resource.RLIMIT_NOFILE, limits.open_files),
        (resource.RLIMIT_NPROC, processes),
        (resource.RLIMIT_CORE, 0),
    ):
        resource.setrlimit(kind, (value, value))


def _processes_of(uid: int) -> int:
    """Return how many processes `uid` runs now (RLIMIT_NPROC counts them all)."""
    count = 0
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            try:
                count += entry.stat().st_uid == uid
            except OSError:
                continue
    return count


def _collect(process: subprocess.Popen[bytes], limits: Limits) -> Outcome:
    """Wait for `process` within the wall-clock limit, reading at most OUTPUT_BYTES of each
    stream; kill its whole process group when it overruns."""
    assert process.stdout is not None and process.stderr is not None
    streams = [_Capped(s, lambda: _kill_group(process)) for s in (process.stdout, process.stderr)]
    for stream in streams:
        stream.thread.start()
    stopped = None
    try:
        process.wait(timeout=limits.wall_seconds)
    except subprocess.TimeoutExpired:
        stopped = f"ran longer than {limits.wall_seconds:g} s"
    _kill_group(process)
    process.wait()
    for stream in streams:
        stream.thread.join()
    if stopped is None and any(s.overflowed for s in streams):
        stopped = f"printed more than {OUTPUT_BYTES} bytes"
    # Killed by a signal: -N from Popen, 128 + N through bubblewrap.
    if stopped is None and process.returncode in (-signal.SIGXCPU, 128 + signal.SIGXCPU):
        stopped = f"used more than {limits.cpu_seconds} s of CPU"
    if stopped is None and process.returncode in (-signal.SIGXFSZ, 128 + signal.SIGXFSZ):
        stopped = f"wrote a file larger than {limits.file_bytes} bytes"
    out, err = (s.text() for s in streams)
    return Outcome(process.returncode, out, err, stopped)


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # gone already
        os.killpg(process.pid, signal.SIGKILL)


class _Capped:
    """A reader thread that keeps the first OUTPUT_BYTES of a stream; past them it calls
    `overflow` (which ends the command) and drops the rest."""

    def __init__(self, stream: IO[bytes], overflow: Callable[[], None]) -> None:
        self._stream = stream
        self._overflow = overflow
        self._kept = bytearray()
        self.overflowed = False
        self.thread = threading.Thread(target=self._read, daemon=True)

    def _read(self) -> None:
        while chunk := self._stream.read1(65536):  # type: ignore[attr-defined]
            room = OUTPUT_BYTES - len(self._kept)
            self._kept += chunk[:room]
            if len(chunk) > room and not self.overflowed:
                self.overflowed = True
                self._overflow()
        self._stream.close()

    def text(self) -> str:
        return self._kept.decode("utf-8", errors="replace")
