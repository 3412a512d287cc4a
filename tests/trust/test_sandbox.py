"""What an opted-in run of a copy (`lintgv validate-copies`) may do: it runs in a sandbox,
so a copy that writes outside its folder, loops, allocates without end, forks, reads the
environment, opens a connection or includes a file of the machine ends "could not be
proven" or is refused — never "same names" by way of an escape — and leaves nothing
behind. An honest copy is still proven."""

import os
import select
import socket
import subprocess
from pathlib import Path

import pytest
from hostile import cpp_with, python_writing, run_lintgv

from lintgv.runtime.copies.sandbox import SandboxUnavailable, _bwrap

pytestmark = pytest.mark.system("c++", "bwrap")

SAME = "same names as NameSupply.fresh_name"


def _validate(tmp_path: Path, name: str, text: str, *extra: str) -> str:
    root = tmp_path / "tree"
    root.mkdir(exist_ok=True)
    (root / "lintgv.toml").write_text('tvm-version = "0.24"\n')
    (root / name).write_text(text)
    result = run_lintgv("validate-copies", *extra, ".", cwd=root)
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout + result.stderr


def test_the_sandbox_can_be_made_here() -> None:
    """The machines lintgv is tested on have bubblewrap (scripts/test-all installs it):
    the tests below then exercise the sandbox itself, not its refusal."""
    try:
        assert _bwrap()
    except SandboxUnavailable as exc:
        pytest.fail(f"no sandbox on this machine: {exc}")


def test_an_honest_copy_is_proven(tmp_path: Path) -> None:
    assert SAME in _validate(tmp_path, "printer.cc", cpp_with(""))


def test_a_copy_cannot_write_outside_its_folder(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    payload = f'if (FILE* f = std::fopen("{marker}", "w")) std::fclose(f);'
    out = _validate(tmp_path, "printer.cc", cpp_with(payload))
    assert SAME in out  # it ran; its write failed in the read-only sandbox
    assert not marker.exists()


def test_a_copy_that_never_returns_is_stopped(tmp_path: Path) -> None:
    out = _validate(tmp_path, "printer.cc", cpp_with("for (volatile int i = 0;; ++i) {}"))
    assert "could not execute: the harness" in out, out
    assert "longer than" in out or "of CPU" in out, out
    assert SAME not in out


def test_a_copy_that_allocates_without_end_is_not_proven(tmp_path: Path) -> None:
    payload = 'std::string grow = "x"; for (;;) grow += grow;'
    out = _validate(tmp_path, "printer.cc", cpp_with(payload))
    assert SAME not in out
    assert "bad_alloc" in out or "could not execute" in out


def _processes_with(token: str) -> list[int]:
    found = subprocess.run(["pgrep", "-f", token], capture_output=True, text=True)
    return [int(pid) for pid in found.stdout.split()]


def _wait_until_gone(pids: list[int], seconds: float) -> list[int]:
    """Wait for `pids` to end (a pidfd becomes readable when its process has ended)."""
    left = []
    for pid in pids:
        try:
            handle = os.pidfd_open(pid)
        except ProcessLookupError:
            continue
        try:
            if not select.select([handle], [], [], seconds)[0]:
                left.append(pid)
        finally:
            os.close(handle)
    return left


def test_a_copy_that_forks_without_end_is_contained(tmp_path: Path) -> None:
    token = f"lintgv-fork-{tmp_path.name}"
    payload = f'std::system("f() {{ f | f & }}; f # {token}");'
    out = _validate(tmp_path, "printer.cc", cpp_with(payload))
    assert "printer.cc" in out  # the run ended, with a verdict
    # The process limit held the bomb; its process namespace is torn down: all of it goes.
    assert _wait_until_gone(_processes_with(token), 30) == []


def test_a_copy_sees_an_empty_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LINTGV_SECRET", "the-secret")
    payload = 'if (const char* s = std::getenv("LINTGV_SECRET")) name = s;'
    out = _validate(tmp_path, "printer.cc", cpp_with(payload))
    assert "the-secret" not in out
    assert SAME in out


def test_a_copy_has_no_network(tmp_path: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]
        script = f"import socket; socket.create_connection(('127.0.0.1', {port}), 5)"
        payload = f'std::system("python3 -c \\\\"{script}\\\\"");'
        out = _validate(tmp_path, "printer.cc", cpp_with(payload))
        listener.settimeout(0)
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected
    assert "printer.cc" in out


@pytest.mark.parametrize(
    "include", ['#include "../secret.h"', "#include </etc/passwd>", "%:include <cstdlib>"]
)
def test_a_copy_with_an_include_of_its_own_is_refused(tmp_path: Path, include: str) -> None:
    out = _validate(tmp_path, "printer.cc", cpp_with(f"\n{include}\n"))
    assert "refused: the copy has a preprocessor directive of its own" in out
    assert SAME not in out


def test_a_python_copy_that_opens_a_file_is_refused(tmp_path: Path) -> None:
    marker = tmp_path / "marker"
    out = _validate(tmp_path, "printer.py", python_writing(marker))
    assert "refused: it uses `open`" in out
    assert not marker.exists()


@pytest.mark.parametrize(
    ("payload", "why"),
    [
        ("import os", "refused: it imports `os`"),
        ("__import__('os')", "refused: it uses `__import__`"),
        ("name.__class__.__mro__", "refused: it reaches for `__mro__`"),
    ],
)
def test_a_python_copy_that_reaches_out_is_refused(tmp_path: Path, payload: str, why: str) -> None:
    from hostile import PYTHON_COPY

    assert why in _validate(tmp_path, "printer.py", PYTHON_COPY.format(payload=payload))


def test_an_honest_python_copy_runs(tmp_path: Path) -> None:
    from hostile import PYTHON_COPY

    out = _validate(tmp_path, "printer.py", PYTHON_COPY.format(payload="pass"))
    # It ran: its names were compared (it does not replace dots as NameSupply does).
    assert "names differ from NameSupply.fresh_name" in out
