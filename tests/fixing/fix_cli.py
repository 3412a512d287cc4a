"""`lintgv fix` run as a process on a project folder, for the threading tests."""

import subprocess
import sys
from pathlib import Path


def run_fix(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run `lintgv fix --no-cache ARGS .` in `root` and return what it did."""
    return subprocess.run(
        [sys.executable, "-m", "lintgv", "fix", "--no-cache", *args, "."],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


GV101_ON_0_16 = 'tvm-version = "0.16"\nselect = ["GV101"]\n'


def gv101_project(root: Path, files: dict[str, str]) -> Path:
    """Make `root` a project checked for GV101 on TVM 0.16 holding `files`."""
    root.mkdir(parents=True)
    (root / "lintgv.toml").write_text(GV101_ON_0_16)
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    return root
