"""What every `lintgv` subcommand shares: exit codes, the rule-selection options and
how they become config settings, and --color. The subcommands' modules import this one;
cli.py puts them together.

Exit codes are bit flags: 0 clean, 1 findings remain, 2 something could not be checked
(usage, config, unreadable or unparsable file, crashed rule); 3 is both.
"""

import argparse
import math
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from lintgv.checking import Progress
from lintgv.config import Config, apply_settings
from lintgv.errors import ConfigError, LintgvError

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_ERROR = 2


def exit_code(findings: int, errors: int) -> int:
    """Return the exit code for a run with these counts (bit flags)."""
    return (EXIT_FINDINGS if findings else 0) | (EXIT_ERROR if errors else 0)


def add_selection(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rule selection and settings (override the config file)")
    group.add_argument("--select", metavar="CODES", help="comma-separated codes or prefixes to run")
    group.add_argument("--extend-select", metavar="CODES", help="codes to run in addition")
    group.add_argument("--ignore", metavar="CODES", help="codes or prefixes not to run")
    group.add_argument(
        "--tvm-version",
        type=tvm_release,
        metavar="X.Y",
        help='TVM release the code targets, e.g. "0.16"',
    )
    group.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="use this lintgv.toml or pyproject.toml for every file (its globs are relative "
        "to the current folder)",
    )
    group.add_argument("--no-cache", action="store_true", help="neither read nor write the cache")
    group.add_argument(
        "--cache-dir",
        type=Path,
        metavar="DIR",
        help="where to keep the cache (default: .lintgv_cache beside the config file found "
        "above the files, else in the folder given)",
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


def tvm_release(text: str) -> str:
    """Parse --tvm-version: not blank (an empty one would stand for the config's)."""
    if not text.strip():
        raise argparse.ArgumentTypeError(f'expected a TVM release such as "0.16", not {text!r}')
    return text


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
    if getattr(args, "tvm_version", None) is not None:
        table["tvm-version"] = args.tvm_version
    _validate(table)
    return table


def _validate(table: dict[str, object]) -> None:
    """Refuse settings given on the command line that name no rule or select none."""
    try:
        config = apply_settings(Config(), table, None)
    except ConfigError as exc:
        raise LintgvError(f"--{exc.key}: {exc.value!r}: {exc.reason}") from exc
    given = " and ".join(f"--{key}" for key in ("select", "ignore") if key in table)
    if not given:
        return
    # Imported only here: the rules, which a warm run answered from the cache never needs
    # (a sixtieth of a second).
    from lintgv.registry import select

    if not select(config):
        raise LintgvError(
            f"{given}: selects no rule that is on (some rules are on only when selected "
            "by their full code)"
        )


def add_color(parser: argparse.ArgumentParser, what: str) -> None:
    """Add --color, read by lintgv.report.text.wants_color."""
    parser.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help=f"{what} (auto: on a terminal, unless NO_COLOR is set or FORCE_COLOR asks for it)",
    )


# How long a run goes before its progress bar is drawn, in seconds: short runs print
# nothing. The environment can change it (docs/output.md), as tests do to see the bar drawn
# on a run of any length.
PROGRESS_DELAY = "LINTGV_PROGRESS_DELAY"


def progress_delay(environment: Mapping[str, str]) -> float:
    """Return the progress bar's delay the environment sets, else one second."""
    value = environment.get(PROGRESS_DELAY)
    if value is None:
        return 1.0
    try:
        delay = float(value)
    except ValueError:
        delay = -1.0
    if not 0 <= delay < math.inf:
        raise LintgvError(f"{PROGRESS_DELAY}: {value!r}: expected a number of seconds, 0 or more")
    return delay


@contextmanager
def progress_bar(enabled: bool, command: str) -> Iterator[Progress | None]:
    """Yield a progress callback that draws a transient bar on stderr once the run has
    taken the delay the environment sets (progress_delay; short runs print nothing), or
    None when not `enabled` (not a terminal)."""
    delay = progress_delay(os.environ)
    if not enabled:
        yield None
        return
    began = time.monotonic()
    bar: Any = None
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        nonlocal bar
        if bar is None:
            if time.monotonic() - began < delay:
                return
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, TextColumn
            from rich.progress import Progress as Bar

            bar = Bar(
                TextColumn(f"lintgv {command}: {{task.description}}"),
                BarColumn(),
                MofNCompleteColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            bar.start()
        if stage not in tasks:
            for earlier in tasks.values():  # a new stage means the earlier ones are done
                bar.update(earlier, total=1, completed=1)
            tasks[stage] = bar.add_task(stage, total=total or None)
        bar.update(tasks[stage], completed=done, total=total or None)

    try:
        yield update
    finally:
        if bar is not None:
            bar.stop()
