"""What every test folder shares: tests that need programs from Debian packages say so
with `@pytest.mark.system("cc", ...)`. Where a program is missing such a test is skipped
with the package to install, so `pip install -e '.[test]' && pytest` runs everything
else; scripts/test-all installs the packages and sets LINTGV_REQUIRE_SYSTEM=1, which
turns a missing program into a failure, so CI never passes without them."""

import os
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

# Stub headers of TVM's types, only as much as fixed examples use (not TVM's code).
STUBS = Path(__file__).parent / "stubs"

# The Debian package of each program the tests run.
PACKAGES = {
    "cc": "build-essential",
    "c++": "build-essential",
    "nm": "binutils",
    "bwrap": "bubblewrap",
    "chromium": "chromium",
    "nvim": "neovim",
    "emacs": "emacs-nox elpa-eglot",
    "git": "git",
    "/usr/bin/python3.11": "python3.11",  # Debian's own, not one a version manager puts first
}


def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers("system"):
        missing = [tool for tool in mark.args if shutil.which(tool) is None]
        if not missing:
            continue
        packages = " ".join(sorted({PACKAGES.get(tool, tool) for tool in missing}))
        message = (
            f"needs {', '.join(missing)}: apt-get install {packages} (scripts/test-all "
            "installs them)"
        )
        if os.environ.get("LINTGV_REQUIRE_SYSTEM") == "1":
            pytest.fail(message)
        pytest.skip(message)


@pytest.fixture
def syntax_errors() -> Callable[[Path], str]:
    """Compile a C++ file with the system compiler, syntax only, against the stub headers
    (and its own folder); return the compiler's complaints, "" when it compiles. Tests
    that use it are marked `@pytest.mark.system("c++")`."""

    def check(source: Path) -> str:
        done = subprocess.run(
            ["c++", "-std=c++17", "-fsyntax-only", f"-I{STUBS}", str(source)],
            capture_output=True,
            text=True,
            check=False,
        )
        return done.stderr if done.returncode else ""

    return check
