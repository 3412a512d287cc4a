"""Colour in the text report: on a terminal by default, never when piped, NO_COLOR and
FORCE_COLOR as the environment asks, and --color always/never over both (as ruff does)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ANSI = "\x1b["


def _check(tmp_path: Path, *args: str, env: dict[str, str]) -> str:
    source = "import tvm\n\n\ndef f(mod):\n    gv = tvm.ir.GlobalVar('f')\n    mod[gv] = 1\n"
    (tmp_path / "a.py").write_text(source)
    clean = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    done = subprocess.run(
        [sys.executable, "-m", "lintgv", "check", "--no-cache", *args, "."],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**clean, **env},
        check=False,
    )
    assert done.returncode == 1, done.stderr
    return done.stdout


@pytest.mark.parametrize(
    ("args", "env", "colored"),
    [
        ((), {}, False),  # piped: plain
        ((), {"FORCE_COLOR": "1"}, True),
        ((), {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),
        (("--color", "always"), {"NO_COLOR": "1"}, True),
        (("--color", "never"), {"FORCE_COLOR": "1"}, False),
    ],
    ids=["piped", "force-color", "no-color-wins", "always", "never"],
)
def test_colour_follows_the_option_then_the_environment(
    tmp_path: Path, args: tuple[str, ...], env: dict[str, str], colored: bool
) -> None:
    out = _check(tmp_path, *args, env=env)
    assert (ANSI in out) is colored
    assert "a.py:5:10:" in out.replace(ANSI + "1m", "").replace(ANSI + "0m", "")


def test_the_summary_counts_files_with_findings_and_the_unsafe_fixes(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("x = 1\n")
    out = _check(tmp_path, env={})
    assert out.splitlines()[-1] == (
        "Found 1 finding in 1 file (2 checked); 1 more with `lintgv fix --unsafe`."
    )
