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
