"""The `lintgv` command: arguments in, exit code out. The only module that prints.

Exit codes are bit flags: 0 clean, 1 findings remain, 2 something could not be checked
(usage, config, unreadable or unparsable file, crashed rule); 3 is both.
"""

import argparse
import gc
import logging
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from lintgv import __version__
from lintgv.config import Config, apply_settings
from lintgv.errors import ConfigError, LintgvError
from lintgv.report.text import wants_color

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2

log = logging.getLogger(__name__)


def _add_selection(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rule selection and settings (override the config file)")
    group.add_argument("--select", metavar="CODES", help="comma-separated codes or prefixes to run")
    group.add_argument("--extend-select", metavar="CODES", help="codes to run in addition")
    group.add_argument("--ignore", metavar="CODES", help="codes or prefixes not to run")
    group.add_argument(
        "--tvm-version", metavar="X.Y", help='TVM release the code targets, e.g. "0.16"'
    )
    group.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="use this lintgv.toml or pyproject.toml for every file",
    )
    group.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    group.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="where to keep the cache (default: .lintgv_cache beside the config)",
    )
    group.add_argument(
        "--jobs",
        "-j",
        type=_jobs,
        metavar="N",
        help="worker processes, 1 to the number of cores (default: cores; more are cut to it)",
    )


def _jobs(text: str) -> int:
    """Parse -j: a whole number of at least 1; above the core count it is cut to it."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, not {value}")
    return value


def overrides_from(args: argparse.Namespace) -> dict[str, object]:
    """Return the config settings given on the command line, in config-file form."""
    table: dict[str, object] = {}
    for flag, key in (
        ("select", "select"),
        ("extend_select", "extend-select"),
        ("ignore", "ignore"),
    ):
        value = getattr(args, flag, None)
        if value is not None:
            table[key] = [c.strip() for c in value.split(",") if c.strip()]
    if getattr(args, "tvm_version", None):
        table["tvm-version"] = args.tvm_version
    _validate(table)
    return table


def _validate(table: dict[str, object]) -> None:
    """Refuse settings given on the command line that name no rule or select none."""
    from lintgv.registry import select

    try:
        config = apply_settings(Config(), table, None)
    except ConfigError as exc:
        raise LintgvError(f"--{exc.key}: {exc.value!r}: {exc.reason}") from exc
    if "select" in table and not select(config):
        raise LintgvError(
            "--select and --ignore together select no rule of source code (GV5xx are "
            "reported by `lintgv validate` and `lintgv validate-copies`)"
        )


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="lintgv",
        description="Find and fix names that bypass TVM's name supplies.",
    )
    parser.add_argument("--version", action="version", version=f"lintgv {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    from lintgv.cli_check import add_check_commands, add_color

    add_check_commands(commands, _add_selection)

    from lintgv.cli_fix import add_fix_command

    add_fix_command(commands, _add_selection)

    from lintgv.cli_migrate import add_migrate_commands

    add_migrate_commands(commands, _add_selection)

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

    try:
        from lintgv.cli_runtime import add_runtime_commands
    except ImportError:
        pass
    else:
        add_runtime_commands(commands)
    return parser


def exit_code(findings: int, errors: int) -> int:
    """Return the exit code for a run with these counts (bit flags)."""
    return (EXIT_FINDINGS if findings else 0) | (EXIT_ERROR if errors else 0)


def command_rules(args: argparse.Namespace) -> int:
    """Print one line per rule code."""
    from lintgv.docs import languages_of, summary_of
    from lintgv.registry import rule_codes

    for code, rules in rule_codes().items():
        meta = rules[0].META
        default = "" if meta.default_enabled else "  (off by default)"
        line = f"{code}  {meta.name:<32} {languages_of(rules):<12} fix: {meta.fix:<7}{default}"
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


def _spare_the_collector() -> None:
    """Keep Python's garbage collector off what lives as long as the process.

    What exists once lintgv is loaded (modules, rules, compiled patterns) is never
    garbage, yet every full collection walked it (60 ms each time: in the language
    server, every few edits of a large file); and parsing makes objects by the hundred
    thousand, which the default threshold collects every 700. Freezing the one and
    collecting the young less often saves a tenth of a check's CPU. Workers are forked
    later: they share it.
    """
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _spare_the_collector()
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
