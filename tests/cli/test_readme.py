"""README.md's tour: every `lintgv` command it shows works on the example tree."""

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
# `lintgv server` waits for a client on stdin; tests/server covers it.
LONG_RUNNING = {"server"}


def _tour_commands() -> list[list[str]]:
    tour = README.split("## A 60-second tour", 1)[1]
    block = re.search(r"```sh\n(.*?)```", tour, re.S)
    assert block is not None
    commands = []
    for line in block.group(1).splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] == "lintgv" and words[1] not in LONG_RUNNING:
            commands.append(words[1:])
    return commands


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("checkout")
    shutil.copytree(ROOT / "examples", root / "examples")
    for args in (["init", "-q"], ["add", "."], ["commit", "-q", "-m", "example"]):
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args]
        subprocess.run(git, cwd=root, check=True, capture_output=True)
    # The tour's `check --baseline` must not depend on its `baseline` running first.
    baseline = [sys.executable, "-m", "lintgv", "baseline", "examples/tvm_like"]
    subprocess.run([*baseline, "-o", "lintgv-baseline.json"], cwd=root, check=True)
    return root


def test_tour_has_the_commands_a_user_needs() -> None:
    subcommands = {words[0] for words in _tour_commands()}
    assert {"check", "explain", "rules", "fix", "baseline"} <= subcommands


@pytest.mark.parametrize("args", _tour_commands(), ids=" ".join)
@pytest.mark.system("git")
def test_tour_command_runs(lintgv, checkout: Path, args: list[str]) -> None:
    result = lintgv(*args, cwd=checkout)
    assert result.returncode in (0, 1), result.stderr
    assert result.stdout.strip()
