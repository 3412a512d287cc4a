"""The progress bar of `check`: drawn on stderr when stderr is a terminal and the run
takes more than a second; never when piped, and never on stdout."""

import os
import pty
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def slow_tree(tmp_path: Path) -> Path:
    # 3,000 sites in one file take well over a second to check and plan fixes for.
    lines = ["import tvm", *(f"g{i} = tvm.ir.GlobalVar('f{i}')" for i in range(3000))]
    (tmp_path / "big.py").write_text("\n".join(lines) + "\n")
    return tmp_path


def _check(root: Path, stderr: int) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "lintgv", "check", "--no-cache", "--statistics", "."],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=stderr,
        timeout=300,
        check=False,
        env={**os.environ, "TERM": "xterm"},
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


def test_a_long_check_draws_a_bar_on_a_terminal_only(slow_tree: Path) -> None:
    master, slave = pty.openpty()
    try:
        on_terminal = _check(slow_tree, slave)
        os.close(slave)
        drawn = _drain(master)
    finally:
        os.close(master)
    piped = _check(slow_tree, subprocess.PIPE)
    assert b"lintgv check: checking" in drawn
    assert piped.stderr == b""
    # The report is the same either way: the bar never reaches stdout.
    assert on_terminal.stdout == piped.stdout
    assert b"3000  GV101" in piped.stdout
