"""The `lintgv` command: arguments in, exit code out (cli_options.py tells the codes).
Each subcommand's arguments and run live in a cli_*.py module of its own; the small
ones (rules, explain, server) are here."""

import argparse
import logging
import os
import re
import sys
from collections.abc import Callable, Sequence
from typing import TypeAlias

from lintgv import __version__
from lintgv.cli_options import EXIT_CLEAN, EXIT_ERROR, add_color, add_selection
from lintgv.collector import spare_the_collector
from lintgv.errors import LintgvError
from lintgv.report.text import wants_color

log = logging.getLogger(__name__)
_Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """Return the argument parser of every subcommand, or of `command`'s module alone
    (see _COMMANDS)."""
    parser = argparse.ArgumentParser(
        prog="lintgv",
        description="Find and fix names that bypass TVM's name supplies.",
    )
    parser.add_argument("--version", action="version", version=f"lintgv {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    known = any(command in names for names, _ in _COMMANDS)
    for names, add in _COMMANDS:
        if not known or command in names:
            add(commands)
    return parser


_VERBOSE = re.compile(r"-v+|--verbose")


def command_of(argv: Sequence[str]) -> str | None:
    """Return the subcommand `argv` names, or None when an option other than `-v` comes
    before it (help, the version, a mistake: each needs the whole parser)."""
    for argument in argv:
        if _VERBOSE.fullmatch(argument):
            continue
        return None if argument.startswith("-") else argument
    return None


def _add_small_commands(commands: _Commands) -> None:
    """Add `rules`, `explain` and `server`."""
    rules = commands.add_parser("rules", help="list every rule")
    rules.set_defaults(func=command_rules)

    explain = commands.add_parser("explain", help="print a rule's documentation")
    explain.add_argument("code", metavar="CODE", help="a code (GV101) or rule name")
    add_color(explain, "render the page for a terminal, else print its Markdown")
    explain.set_defaults(func=command_explain)

    server = commands.add_parser("server", help="run the language server (stdio by default)")
    server.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    server.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead")
    server.add_argument(
        "--clientProcessId",
        dest="client_process_id",
        type=int,
        metavar="PID",
        help="exit when this process (the editor) ends",
    )
    server.set_defaults(func=command_server)


def _add_check(commands: _Commands) -> None:
    from lintgv.cli_check import add_check_commands

    add_check_commands(commands, add_selection)


def _add_fix(commands: _Commands) -> None:
    from lintgv.cli_fix import add_fix_command

    add_fix_command(commands, add_selection)


def _add_migrate(commands: _Commands) -> None:
    from lintgv.cli_migrate import add_migrate_commands

    add_migrate_commands(commands, add_selection)


def _add_runtime(commands: _Commands) -> None:
    from lintgv.cli_runtime import add_runtime_commands

    add_runtime_commands(commands)


# The subcommands each adder adds. A run builds the parser of its own command alone: the
# other cli_* modules are neither imported nor built, a twentieth of a warm run. Help, an
# option before any command, or a command not known builds them all
# (tests/cli/test_parser_scope.py holds this table to what the adders add).
_COMMANDS: tuple[tuple[frozenset[str], Callable[[_Commands], None]], ...] = (
    (frozenset({"check", "baseline"}), _add_check),
    (frozenset({"fix"}), _add_fix),
    (frozenset({"migrate", "report"}), _add_migrate),
    (frozenset({"rules", "explain", "server"}), _add_small_commands),
    (frozenset({"emit-c", "validate", "validate-copies"}), _add_runtime),
)


def command_rules(args: argparse.Namespace) -> int:
    """Print one line per rule code."""
    from lintgv.docs import languages_of, summary_of
    from lintgv.registry import rule_codes

    for code, rules in rule_codes().items():
        meta = rules[0].META
        default = "" if meta.default_enabled else "  (off by default)"
        fix = meta.offered_fix
        line = f"{code}  {meta.name:<32} {languages_of(rules):<12} fix: {fix:<7}{default}"
        print(line.rstrip())
        print(f"       {summary_of(rules[0])}")
    return EXIT_CLEAN


def command_explain(args: argparse.Namespace) -> int:
    """Print the documentation page of one rule."""
    from lintgv.docs import render
    from lintgv.registry import rule_codes

    wanted = args.code.strip()
    for code, rules in rule_codes().items():
        if wanted.upper() == code or wanted == rules[0].META.name:
            page = render(rules[0])
            if wants_color(args.color, sys.stdout.isatty()):
                from rich.console import Console
                from rich.markdown import Markdown

                Console(force_terminal=True).print(Markdown(page))
            else:
                print(page, end="")
            return EXIT_CLEAN
    known = ", ".join(rule_codes())
    print(f"lintgv: error: no rule {wanted!r}; known codes: {known}", file=sys.stderr)
    return EXIT_ERROR


def command_server(args: argparse.Namespace) -> int:
    try:
        from lintgv_server.app import serve
    except ImportError as exc:
        print(
            f"lintgv: the language server needs the `lsp` extra: pip install 'lintgv[lsp]' ({exc})",
            file=sys.stderr,
        )
        return EXIT_ERROR
    return int(serve(tcp=args.tcp, client_process_id=args.client_process_id))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    arguments = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(command_of(arguments)).parse_args(arguments)
    spare_the_collector()
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, format="lintgv: %(levelname)s: %(message)s")
    cores = os.cpu_count() or 1
    if getattr(args, "jobs", None) and args.jobs > cores:
        log.warning("-j %d: this machine has %d cores; using %d workers", args.jobs, cores, cores)
        args.jobs = cores
    try:
        return int(args.func(args))
    except LintgvError as exc:
        print(f"lintgv: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        # The reader left early (`lintgv check | head`); the report did not get through.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("lintgv: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        from concurrent.futures import BrokenExecutor  # here: a run without workers has none

        if not isinstance(exc, BrokenExecutor):
            return _internal_error(exc)
        # A worker process ended without a word: killed (out of memory), or a crash in a
        # parser's native code on a hostile file. Its files, and those queued behind it,
        # were not checked; an exit of 1 would read as "findings only".
        print(
            f"lintgv: error: a worker process ended abruptly ({exc}); not every file was "
            "checked (out of memory, or a parser crashed on a file)",
            file=sys.stderr,
        )
        return EXIT_ERROR


def _internal_error(exc: Exception) -> int:
    """Report a bug in lintgv: a precise line and the exit of "could not check", never a
    traceback that ends in Python's exit 1 (what a CI gate reads as findings only)."""
    log.debug("unexpected error", exc_info=True)
    print(
        f"lintgv: internal error: {type(exc).__name__}: {exc} (a bug in lintgv; `-vv` shows where)",
        file=sys.stderr,
    )
    return EXIT_ERROR
