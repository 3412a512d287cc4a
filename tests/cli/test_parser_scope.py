"""A run builds the argument parser of its own command alone (cli._COMMANDS), and that
parser reads the command line exactly as the parser of every command does; help, the
version, an option before the command or a command not known get the whole parser."""

import argparse
import subprocess
import sys

import pytest

from lintgv.cli import _COMMANDS, build_parser, command_of


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["check", "."], "check"),
        (["-v", "check", "."], "check"),
        (["-vv", "fix", "--unsafe"], "fix"),
        (["--verbose", "-v", "rules"], "rules"),
        (["chek"], "chek"),
        (["--help"], None),
        (["-h", "check"], None),
        (["--version"], None),
        (["--verb", "check"], None),  # an abbreviation argparse takes: the whole parser
        (["--", "check"], None),
        ([], None),
    ],
)
def test_the_command_is_the_first_word_after_the_verbosity(
    argv: list[str], command: str | None
) -> None:
    assert command_of(argv) == command


@pytest.mark.parametrize(("names", "add"), _COMMANDS)
def test_each_adder_adds_the_commands_the_table_names(names, add) -> None:
    commands = argparse.ArgumentParser().add_subparsers(dest="command")
    add(commands)
    assert set(commands.choices) == names


def test_the_table_names_every_command() -> None:
    every = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert set(every) == set().union(*(names for names, _ in _COMMANDS))


@pytest.mark.parametrize(
    "argv",
    [
        ["check", "src", "--format", "json", "--select", "GV1"],
        ["-v", "baseline", ".", "-o", "b.json"],
        ["fix", "--unsafe", "--diff", "."],
        ["migrate", "--plan", "--format", "json"],
        ["report", "--html", "-o", "plan.html"],
        ["-vv", "explain", "GV101"],
        ["rules"],
        ["server", "--stdio"],
        ["emit-c", "manifest.json", "-o", "out"],
    ],
)
def test_a_command_alone_reads_its_arguments_as_the_whole_parser(argv: list[str]) -> None:
    alone = build_parser(command_of(argv))
    assert vars(alone.parse_args(argv)) == vars(build_parser().parse_args(argv))


def test_a_command_not_known_is_refused_with_every_command_listed() -> None:
    result = subprocess.run(
        [sys.executable, "-P", "-m", "lintgv", "chek", "."],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "invalid choice: 'chek'" in result.stderr
    for command in ("check", "fix", "migrate", "explain", "emit-c"):
        assert f"'{command}'" in result.stderr
