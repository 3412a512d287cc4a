"""The progress bar of `check`: drawn on stderr when stderr is a terminal and the run
takes longer than its delay (a second, or what LINTGV_PROGRESS_DELAY says); never when
piped, and never on stdout."""

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    lines = ["import tvm", *(f"g{i} = tvm.ir.GlobalVar('f{i}')" for i in range(30))]
    (tmp_path / "big.py").write_text("\n".join(lines) + "\n")
    return tmp_path


def _check(root: Path, stderr: int, delay: str = "0") -> subprocess.CompletedProcess[bytes]:
    # No delay: the bar is drawn on a run of any length, however fast the machine.
    return subprocess.run(
        [sys.executable, "-m", "lintgv", "check", "--no-cache", "--statistics", "."],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=stderr,
        timeout=300,
        check=False,
        env={**os.environ, "TERM": "xterm", "LINTGV_PROGRESS_DELAY": delay},
    )


def _drain(fd: int) -> bytes:
    data = b""
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the other side is closed and nothing is left
            return data
        if not chunk:
            return data
        data += chunk


def test_a_check_draws_a_bar_on_a_terminal_only(tree: Path) -> None:
    master, slave = pty.openpty()
    try:
        on_terminal = _check(tree, slave)
        os.close(slave)
        drawn = _drain(master)
    finally:
        os.close(master)
    piped = _check(tree, subprocess.PIPE)
    assert b"lintgv check: checking" in drawn
    assert piped.stderr == b""
    # The report is the same either way: the bar never reaches stdout.
    assert on_terminal.stdout == piped.stdout
    assert b"30  GV101" in piped.stdout


def test_a_run_shorter_than_the_delay_draws_nothing(tree: Path) -> None:
    master, slave = pty.openpty()
    try:
        result = _check(tree, slave, delay="100000")
        os.close(slave)
        drawn = _drain(master)
    finally:
        os.close(master)
    assert result.returncode == 1
    assert drawn == b""


def test_a_delay_that_is_not_a_number_of_seconds_is_an_error(tree: Path) -> None:
    result = _check(tree, subprocess.PIPE, delay="soon")
    assert result.returncode == 2
    assert result.stderr == (
        b"lintgv: error: LINTGV_PROGRESS_DELAY: 'soon': expected a number of seconds, 0 or more\n"
    )
