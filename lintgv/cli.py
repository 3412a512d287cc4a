"""The `lintgv` command: arguments in, exit code out. The only module that prints.

Exit codes are bit flags: 0 clean, 1 findings remain, 2 something could not be checked
(usage, config, unreadable or unparsable file, crashed rule); 3 is both.
"""

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from lintgv import __version__
from lintgv.errors import LintgvError
from lintgv.report import json as json_report
from lintgv.report import text as text_report
from lintgv.report.location import display_path
from lintgv.runner import RunResult, run

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
        "--jobs", "-j", type=int, metavar="N", help="worker processes (default: cores)"
    )


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
    return table


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser of every subcommand."""
    parser = argparse.ArgumentParser(
        prog="lintgv",
        description="Find and fix names that bypass TVM's name supplies.",
    )
    parser.add_argument("--version", action="version", version=f"lintgv {__version__}")
    parser.add_argument("-v", "--verbose", action="count", default=0, help="log more (-vv: debug)")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    check = commands.add_parser("check", help="report findings; the CI gate")
    check.add_argument("paths", nargs="*", type=Path, default=[Path(".")], metavar="PATH")
    check.add_argument("--format", choices=["text", "json"], default="text", help="output format")
    check.add_argument("--statistics", action="store_true", help="print a count per code instead")
    check.add_argument("--no-source", action="store_true", help="text format: omit source lines")
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    _add_selection(check)
    check.set_defaults(func=command_check)

    from lintgv.cli_fix import add_fix_command

    add_fix_command(commands, _add_selection)

    rules = commands.add_parser("rules", help="list every rule")
    rules.set_defaults(func=command_rules)

    server = commands.add_parser("server", help="run the language server (stdio by default)")
    server.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (default)")
    server.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP address instead")
    server.set_defaults(func=command_server)

    try:
        from lintgv.cli_runtime import add_runtime_commands
    except ImportError:
        pass
    else:
        add_runtime_commands(commands)
    return parser


def _read_lines(result: RunResult) -> dict[str, list[str]]:
    sources: dict[str, list[str]] = {}
    for file_result in result.results:
        if not file_result.findings:
            continue
        path = file_result.path
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            continue
        sources[display_path(path)] = text.splitlines()
    return sources


def exit_code(findings: int, errors: int) -> int:
    """Return the exit code for a run with these counts (bit flags)."""
    return (EXIT_FINDINGS if findings else 0) | (EXIT_ERROR if errors else 0)


def command_check(args: argparse.Namespace) -> int:
    result = run(
        args.paths,
        overrides_from(args),
        config_file=args.config,
        use_cache=not args.no_cache,
        cache_dir=args.cache_dir,
        jobs=args.jobs,
    )
    findings = [f for r in result.results for f in r.findings]
    errors = list(result.all_errors)
    if args.format == "json":
        print(json_report.render(findings, errors))
    elif args.statistics:
        print(text_report.statistics(findings))
    else:
        body = text_report.render(
            findings, errors, _read_lines(result), show_source=not args.no_source
        )
        if body:
            print(body)
        print(text_report.summary(findings, errors, len(result.results)))
    code = exit_code(len(findings), len(errors))
    return code & ~EXIT_FINDINGS if args.exit_zero else code


def command_rules(args: argparse.Namespace) -> int:
    from lintgv.registry import rule_codes

    for code, rules in rule_codes().items():
        meta = rules[0].META
        languages = ", ".join(str(r.LANGUAGE) for r in rules if r.LANGUAGE) or "python, cpp"
        default = "" if meta.default_enabled else "  (off by default)"
        print(f"{code}  {meta.name:<32} {languages:<12} fix: {meta.fix}{default}")
    return EXIT_CLEAN


def command_server(args: argparse.Namespace) -> int:
    try:
        from lintgv_server.app import serve
    except ImportError as exc:
        print(
            f"lintgv: the language server needs the `lsp` extra: pip install 'lintgv[lsp]' ({exc})",
            file=sys.stderr,
        )
        return EXIT_ERROR
    return int(serve(tcp=args.tcp))


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line and return its exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    level = [logging.WARNING, logging.INFO, logging.DEBUG][min(args.verbose, 2)]
    logging.basicConfig(level=level, format="lintgv: %(levelname)s: %(message)s")
    try:
        return int(args.func(args))
    except LintgvError as exc:
        print(f"lintgv: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        print("lintgv: interrupted", file=sys.stderr)
        return 130
