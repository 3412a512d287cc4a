"""A failure nothing reports precisely (a bug in lintgv, a worker process killed) still
ends in one line on the standard error and exit 2, "could not check": Python's own exit
for an uncaught exception is 1, which a CI gate reads as "findings only", and a job that
lets findings through would then pass code nobody checked."""

import os
import subprocess
import sys
from pathlib import Path

FAILING = Path(__file__).parent / "failing_cli.py"
CONSTRUCTION = 'void F() {\n  GlobalVar gv("f");\n}\n'


def _run(mode: str, root: Path, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-P", str(FAILING), mode, "check", "--no-cache", *options, "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_bug_is_one_line_and_exit_2(project) -> None:
    root = project({"a.cc": CONSTRUCTION})
    result = _run("bug", root)
    assert result.returncode == 2
    assert result.stderr == (
        "lintgv: internal error: RuntimeError: injected bug (a bug in lintgv; `-vv` shows where)\n"
    )


def test_a_worker_killed_is_one_line_and_exit_2(project) -> None:
    files = {f"f{i}.cc": CONSTRUCTION for i in range(60)}
    root = project({**files, "dies.cc": CONSTRUCTION})
    result = _run("worker", root, "-j", "2")
    if (os.cpu_count() or 1) < 2:  # lintgv starts no worker on one core: nothing dies
        assert result.returncode == 1, result.stderr
        return
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith("lintgv: error: a worker process ended abruptly (")
    assert result.stderr.endswith(
        "not every file was checked (out of memory, or a parser crashed on a file)\n"
    )
