"""Shared pieces of the reliability suite: the lintgv subprocess and Hypothesis profiles."""

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

# CI replays the same examples every run, so a red build always reproduces; locally each
# run explores new ones. HYPOTHESIS_PROFILE=thorough explores far more (minutes).
_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("ci", max_examples=25, derandomize=True, **_COMMON)
settings.register_profile("dev", max_examples=25, **_COMMON)
settings.register_profile("thorough", max_examples=1000, **_COMMON)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if os.environ.get("CI") else "dev")
)

# The hang detector: far above any honest run on a busy 2-core machine.
HANG_SECONDS = 120

LintgvRunner = Callable[..., subprocess.CompletedProcess[str]]


def run_lintgv(
    *args: str, cwd: Path, timeout: float = HANG_SECONDS, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run `python -m lintgv ARGS` in `cwd`; a run over `timeout` seconds fails as a hang."""
    try:
        return subprocess.run(
            [sys.executable, "-m", "lintgv", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
            env=env,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail(f"lintgv {' '.join(args)} hung: no exit after {timeout} s ({exc})")


@pytest.fixture
def lintgv() -> LintgvRunner:
    """Return the function that runs lintgv as a subprocess."""
    return run_lintgv
