"""`lintgv fix`: its arguments and what it prints."""

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from lintgv.cli_runtime import add_unsandboxed
from lintgv.fixing import MAX_ROUNDS


def add_fix_command(
    commands: "argparse._SubParsersAction[argparse.ArgumentParser]",
    add_selection: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add the `fix` subcommand to `commands`."""
    fix = commands.add_parser(
        "fix",
        help="apply fixes (safe ones; unsafe ones too with --unsafe)",
        description="Apply fixes until every file is stable. Each round must parse again "
        "and leave no fixed site reported; a fix that fails is left out and reported.",
    )
    fix.add_argument("paths", nargs="*", type=Path, default=[Path(".")], metavar="PATH")
    fix.add_argument(
        "--unsafe",
        action="store_true",
        help="also apply fixes that may change generated names or behaviour",
    )
    fix.add_argument(
        "--diff", action="store_true", help="print a unified diff of the fixes; write nothing"
    )
    fix.add_argument(
        "--prove-names",
        action="store_true",
        help="RUNS CODE FROM THE TREE (sandboxed): compile and run each C++ unique-name copy "
        "a fix replaces beside NameSupply, and apply the rewrite as safe when the names "
        "are the same (see docs/security.md); without it no code of the tree runs and "
        "these rewrites are unsafe",
    )
    add_unsandboxed(fix)
    fix.add_argument(
        "--max-rounds",
        type=int,
        default=MAX_ROUNDS,
        metavar="N",
        help=f"give up on a file that is not stable after N rounds (default {MAX_ROUNDS})",
    )
    add_selection(fix)
    fix.set_defaults(func=command_fix)


def command_fix(args: argparse.Namespace) -> int:
    """Run `lintgv fix` and return its exit code."""
    from lintgv.cli_options import exit_code, overrides_from, progress_bar
    from lintgv.fixing.diff import render_diff
    from lintgv.fixing.run import fix_paths
    from lintgv.fixing.summary import render_summary

    if args.max_rounds < 1:
        print("lintgv: error: --max-rounds must be at least 1", file=sys.stderr)
        return 2
    with progress_bar(sys.stderr.isatty(), "fix") as progress:
        result = fix_paths(
            args.paths,
            overrides_from(args),
            config_file=args.config,
            unsafe=args.unsafe,
            write=not args.diff,
            use_cache=not args.no_cache,
            cache_dir=args.cache_dir,
            jobs=args.jobs,
            max_rounds=args.max_rounds,
            progress=progress,
            prove_names=args.prove_names,
            unsandboxed=args.allow_unsandboxed,
        )
    summary = render_summary(result, args.unsafe)
    if args.diff:
        sys.stdout.write(render_diff(result.fixes))
        print(summary, file=sys.stderr)  # stdout stays a clean patch
    else:
        print(summary)
    return exit_code(len(result.remaining), len(result.all_errors))
