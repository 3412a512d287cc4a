"""Every command README.md and docs/ show works: each `lintgv` command of their shell runs
on a copy of the example tree and ends as a reader expects, and each one in the prose
(run or not) is one the command line accepts. shown_commands.py tells where they are."""

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lintgv.cli import build_parser
from tests.cli.conftest import Lintgv
from tests.cli.shown_commands import (
    ROOT,
    Shown,
    lintgv_in_prose,
    lintgv_in_shell,
    lintgv_words,
    shell_commands,
)

SHELL = lintgv_in_shell()
PROSE = lintgv_in_prose()
# Commands shown but not run here, and why.
RUN_ELSEWHERE = {
    "server": "waits for an editor on stdin or a TCP port; tests/server drives it with "
    "pytest-lsp, Neovim and Emacs",
}
# A word a doc leaves for the reader to fill in (a name in capitals, `<...>`, `...`,
# `${...}`, an absolute path), and what stands in for it here.
PLACEHOLDERS = {
    "TREE": ".",  # a source tree: the example one
    "CACHE": "cache",  # a new cache folder
    "HEAD": "HEAD",  # a git ref, and a real one: the copy is a git checkout
    # A pull request's base branch: the commit before the checkout's last, which adds a
    # file with findings.
    "origin/${{ github.base_ref }}": "HEAD~1",
}
PLACEHOLDER = re.compile(r"<[^>]*>|\.\.\.|\$\{|^[A-Z][A-Z_]*$|^/")
# Files the commands name that the example tree lacks, written into the copy: manifests
# for the runtime commands, and an include/ folder as TVM's trees have.
FILES = {
    "include/tvm_like/names.h": "#pragma once\nnamespace tvm_like { int Count(); }\n",
    **{
        f"{model}.json": json.dumps({"model": model, "functions": ["run", "fused.add"]})
        for model in ("mynet", "a", "b", "c", "my_net", "my")
    },
}
# The other programs the shell blocks run, none of them here: installs and builds (pip,
# npm, code, scripts/test-all), git, the benchmarks (python), and shell glue.
TOOLS = {"[", "cd", "code", "git", "npm", "pip", "python", "python3", "test-all", "time", "true"}
# The programs a command needs besides git (which makes the copy a checkout).
NEEDS = {
    "validate": ("cc", "nm"),
    "validate-copies": ("c++", "bwrap"),
    "--prove-names": ("c++", "bwrap"),
}


def _subcommand(words: tuple[str, ...]) -> str:
    return next(word for word in words if not word.startswith("-"))


def _to_run() -> list[object]:
    return [
        pytest.param(
            shown,
            id=" ".join(shown.words),
            marks=pytest.mark.system(
                "git", *(tool for word in shown.words for tool in NEEDS.get(word, ()))
            ),
        )
        for shown in SHELL
        if _subcommand(shown.words) not in RUN_ELSEWHERE
    ]


def _filled(words: tuple[str, ...]) -> list[str]:
    """Return a command's words with its placeholders filled in from PLACEHOLDERS."""
    unknown = [w for w in words if PLACEHOLDER.search(w) and w not in PLACEHOLDERS]
    assert not unknown, f"placeholders {unknown}: add them to PLACEHOLDERS"
    return [PLACEHOLDERS.get(word, word) for word in words]


def _rejection(words: tuple[str, ...], whole: bool) -> str | None:
    """Return why lintgv's own parser refuses the words, None when it takes them. Unless
    `whole`, arguments the parser requires may be missing (prose names `lintgv fix`)."""

    class Refused(Exception):
        pass

    def refuse(message: str) -> None:
        raise Refused(message)

    parser = build_parser()
    for each in (parser, *_subcommands(parser).values()):
        each.error = refuse  # type: ignore[method-assign]  # report, don't exit
    try:
        parser.parse_args(words)
    except Refused as refused:
        # argparse checks a value's choices as it reads it, and what is required last.
        if whole or not str(refused).startswith("the following arguments are required"):
            return str(refused)
    except SystemExit:  # --help or --version: taken
        pass
    return None if whole else _unknown_names(words)


def _unknown_names(words: tuple[str, ...]) -> str | None:
    """Return the subcommand or the options among the words that the parser lacks, None
    when it has them all; a value or a metavariable (`N`, `PATH...`) is not looked at."""
    parser = build_parser()
    subcommands = _subcommands(parser)
    names = [w for w in words if not w.startswith("-") and w.islower()]
    if names and names[0] not in subcommands:
        return f"no subcommand {names[0]!r}"
    takes = subcommands[names[0]] if names else parser
    known = {option for a in takes._actions + parser._actions for option in a.option_strings}
    options = [re.sub(r"^-(\w)\1+$", r"-\1", w) for w in words if w.startswith("-")]
    unknown = [option for option in options if option not in known]
    return f"unknown options {unknown}" if unknown else None


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    return next(a for a in parser._actions if a.dest == "command").choices  # type: ignore[return-value]


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A git checkout holding examples/, the FILES in the example tree and a baseline:
    the commands' state before any of them ran (each test runs in a copy of it)."""
    root = tmp_path_factory.mktemp("checkout")
    shutil.copytree(ROOT / "examples", root / "examples")
    for name, text in FILES.items():
        (root / "examples/tvm_like" / name).parent.mkdir(parents=True, exist_ok=True)
        (root / "examples/tvm_like" / name).write_text(text, encoding="utf-8")
    added = "examples/tvm_like/python/tvm_like/relay/lift.py"
    for args in (
        ["init", "-q"],
        ["add", ".", f":!{added}"],
        ["commit", "-q", "-m", "base"],
        ["add", added],
        ["commit", "-q", "-m", "lift"],
    ):
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", *args]
        subprocess.run(git, cwd=root, check=True, capture_output=True)
    # `check --baseline` must not depend on `baseline` running first.
    baseline = [sys.executable, "-m", "lintgv", "baseline", "examples/tvm_like"]
    subprocess.run([*baseline, "-o", "lintgv-baseline.json"], cwd=root, check=True)
    return root


def test_every_subcommand_is_shown_in_a_shell_block() -> None:
    subcommands = _subcommands(build_parser())
    assert {_subcommand(shown.words) for shown in SHELL} == set(subcommands)


def test_shell_blocks_run_no_tool_beyond_the_known_ones() -> None:
    firsts = {s.words[0].rsplit("/", 1)[-1] for s in shell_commands()}
    assert firsts - {"lintgv"} == TOOLS


def test_every_placeholder_stands_for_a_word_shown() -> None:
    shown = {word for command in SHELL for word in command.words}
    assert set(PLACEHOLDERS) <= shown


def test_a_command_is_found_after_the_program_that_runs_it() -> None:
    assert lintgv_words(["python", "-P", "-m", "lintgv", "server"]) == ("server",)
    assert lintgv_words([".venv/bin/lintgv", "check", "."]) == ("check", ".")
    assert lintgv_words(["lintgv:", "ignore[GV101]"]) is None


@pytest.mark.parametrize(
    ("shown", "whole"),
    [pytest.param(s, True, id=f"{s.where} {' '.join(s.words)}") for s in SHELL]
    + [pytest.param(s, False, id=f"{s.where} {' '.join(s.words)}") for s in PROSE],
)
def test_shown_command_is_accepted_by_the_parser(shown: Shown, whole: bool) -> None:
    refused = _unknown_names(shown.words) if shown.usage else _rejection(shown.words, whole)
    assert refused is None, f"{shown.where}: lintgv {' '.join(shown.words)}: {refused}"


@pytest.mark.parametrize("shown", _to_run())
def test_shown_command_runs(lintgv: Lintgv, checkout: Path, tmp_path: Path, shown: Shown) -> None:
    copy = tmp_path / "checkout"
    shutil.copytree(checkout, copy, symlinks=True)
    args = _filled(shown.words)
    # The tour runs from the repository's root; other pages' commands run in a project.
    cwd = copy if any(a.startswith("examples/") for a in args) else copy / "examples/tvm_like"
    result = lintgv(*args, cwd=cwd)
    said = f"{shown.where}: lintgv {' '.join(args)}\n{result.stderr}"
    assert result.returncode in (0, 1), said
    assert "Traceback" not in result.stderr, said
    if "-o" in args:
        written = cwd / args[args.index("-o") + 1]
        assert list(written.iterdir()) if written.is_dir() else written.read_bytes(), said
    else:
        assert result.stdout.strip(), said
    if "--format" in args and args[args.index("--format") + 1] == "json":
        json.loads(result.stdout)
