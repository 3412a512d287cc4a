"""What every test folder shares: tests that need programs from Debian packages say so
with `@pytest.mark.system("cc", ...)`. Where a program is missing such a test is skipped
with the package to install, so `pip install -e '.[test]' && pytest` runs everything
else; scripts/test-all installs the packages and sets LINTGV_REQUIRE_SYSTEM=1, which
turns a missing program into a failure, so CI never passes without them."""

import os
import shutil

import pytest

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
