"""Helpers for running `lintgv` as a subprocess and comparing with golden files."""

import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent.parent / "fixtures"
GOLDEN = Path(__file__).parent / "golden"

Lintgv = Callable[..., subprocess.CompletedProcess[str]]


def run_lintgv(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run `python -m lintgv ARGS...` in `cwd` and return what it did."""
    return subprocess.run(
        [sys.executable, "-m", "lintgv", *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.fixture
def lintgv() -> Lintgv:
    """Return a function that runs `lintgv ARGS...` in a folder (keyword `cwd`)."""
    return run_lintgv


@pytest.fixture
def copy_fixture(tmp_path: Path) -> Callable[[str], Path]:
    """Return a function that copies tests/fixtures/<name> into tmp_path."""

    def copy(name: str) -> Path:
        target = tmp_path / name
        shutil.copytree(FIXTURES / name, target)
        return target

    return copy


def _assert_golden(actual: str, name: str) -> None:
    """Compare `actual` with tests/cli/golden/<name>; LINTGV_UPDATE_GOLDEN=1 rewrites it."""
    path = GOLDEN / name
    if os.environ.get("LINTGV_UPDATE_GOLDEN"):
        path.write_text(actual, encoding="utf-8")
    assert path.is_file(), f"no golden file {path}; run with LINTGV_UPDATE_GOLDEN=1"
    assert actual == path.read_text(encoding="utf-8")


@pytest.fixture
def golden() -> Callable[[str, str], None]:
    """Return a function that compares a text with a golden file (see _assert_golden)."""
    return _assert_golden


@pytest.fixture
def project(tmp_path: Path) -> Callable[[dict[str, str | bytes]], Path]:
    """Return a function that writes files (relative path → content) into a new folder."""

    def write(files: dict[str, str | bytes]) -> Path:
        root = tmp_path / "project"
        for name, content in files.items():
            target = root / name
            target.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
        return root

    return write
