"""`lintgv check` and `lintgv baseline`: their arguments, filters and output."""

import argparse
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import overload

from lintgv.checking import RunResult, run
from lintgv.cli_options import add_color
from lintgv.lines import split_lines, with_newline
from lintgv.model import FileError, Finding
from lintgv.records import frozen
from lintgv.writing import write_output

FORMATS = ("text", "json", "sarif", "github", "junit", "gitlab")
DEFAULT_BASELINE = Path("lintgv-baseline.json")
Sources = dict[Path, "KeptLines"]


class UsageError(Exception):
    """Options that cannot go together; the message says which."""


def add_check_commands(
    commands: "argparse._SubParsersAction[argparse.ArgumentParser]",
    add_selection: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add the `check` and `baseline` subcommands to `commands`."""
    check = commands.add_parser(
        "check",
        help="report findings; the CI gate",
        description="Report findings. Exit status: 0 clean, 1 findings, 2 something could "
        "not be checked (bad usage, config, file); 3 both.",
    )
    check.add_argument(
        "paths",
        nargs="*",
        type=Path,
        default=[Path(".")],
        metavar="PATH",
        help="files and folders to check (default: the current folder)",
    )
    check.add_argument("--format", choices=FORMATS, default="text", help="output format")
    check.add_argument(
        "--statistics", action="store_true", help="text format: a count per code, not each finding"
    )
    check.add_argument("--no-source", action="store_true", help="text format: omit source lines")
    add_color(check, "text format: colour the report")
    check.add_argument(
        "--output-file", "-o", type=Path, metavar="FILE", help="write the report here, not stdout"
    )
    check.add_argument("--exit-zero", action="store_true", help="exit 0 even when findings remain")
    check.add_argument(
        "--baseline",
        type=Path,
        metavar="FILE",
        help="report only findings this baseline (from `lintgv baseline`) does not have",
    )
    check.add_argument(
        "--diff-base",
        metavar="REF",
        help="report only findings on lines changed since this git ref (e.g. origin/main)",
    )
    check.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply exclude and .gitignore to files named on the command line too "
        "(for pre-commit, which names every changed file)",
    )
    add_selection(check)
    check.set_defaults(func=command_check)

    baseline = commands.add_parser(
        "baseline",
        help="write today's findings to a baseline file for `check --baseline`",
        description="Write every finding to FILE, so that `lintgv check --baseline FILE` "
        "fails only on new ones.",
    )
    baseline.add_argument("paths", nargs="*", type=Path, default=[Path(".")], metavar="PATH")
    baseline.add_argument(
        "--output",
        "-o",
        type=Path,
        default=DEFAULT_BASELINE,
        metavar="FILE",
        help=f"the baseline file to write (default: {DEFAULT_BASELINE})",
    )
    add_selection(baseline)
    baseline.set_defaults(func=command_baseline)


def run_check(
    args: argparse.Namespace, command: str = "check", tracked: frozenset[str] = frozenset()
) -> RunResult:
    """Run the checks the arguments ask for (paths, selection, cache, jobs), with a
    progress bar on a terminal when the run takes more than a second; `tracked` files
    (real paths) are walked whatever ignore files say."""
    from lintgv.cli_options import overrides_from, progress_bar

    overrides = overrides_from(args)
    with progress_bar(sys.stderr.isatty(), command) as progress:
        return run(
            args.paths,
            overrides,
            config_file=args.config,
            use_cache=not args.no_cache,
            cache_dir=args.cache_dir,
            jobs=args.jobs,
            force_exclude=getattr(args, "force_exclude", False),
            progress=progress,
            tracked=tracked,
        )


class KeptLines(Sequence[str]):
    """The lines of a file that its findings' reports read: each finding's own lines and
    the nearest line that is not blank on either side of them (a baseline fingerprint's
    context). Any other line reads as blank, which is all a report asks of it: a big
    tree's report holds a few lines per finding, not every file with one whole."""

    def __init__(self, lines: Sequence[str], spans: Iterable[tuple[int, int]]) -> None:
        """Keep of `lines` those that `spans` (first and last line, 0-based) read."""
        self._count = len(lines)
        self._kept: dict[int, str] = {}
        for first, last in spans:
            if not 0 <= first < self._count:
                continue  # no report reads a line of a finding that is not in the file
            end = max(first, min(last, self._count - 1))
            self._kept.update((index, lines[index]) for index in range(first, end + 1))
            if not first <= last < self._count:
                continue  # a fingerprint reads no context then (baseline.fingerprints)
            for index, step in ((first - 1, -1), (last + 1, 1)):
                while 0 <= index < self._count and not lines[index].strip():
                    index += step
                if 0 <= index < self._count:
                    self._kept[index] = lines[index]

    def __len__(self) -> int:
        return self._count

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> list[str]: ...
    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            return [self._kept.get(i, "") for i in range(*index.indices(self._count))]
        if not -self._count <= index < self._count:
            raise IndexError("line index out of range")
        return self._kept.get(index % self._count, "")

    def __iter__(self) -> Iterator[str]:
        return (self._kept.get(i, "") for i in range(self._count))


def read_sources(findings: Sequence[Finding]) -> Sources:
    """Return the lines the reports of `findings` read of each of their files (files
    that vanished are left out)."""
    spans: dict[Path, list[tuple[int, int]]] = {}
    for finding in findings:
        span = finding.span
        spans.setdefault(finding.path, []).append((span.start_line - 1, span.end_line - 1))
    sources: Sources = {}
    for path, read in spans.items():
        try:
            text = path.read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            continue
        sources[path] = KeptLines(split_lines(text), read)
    return sources


def in_file_newlines(findings: Sequence[Finding]) -> list[Finding]:
    """Return `findings` with the lines their fixes add ending in each file's own line
    break, as `lintgv fix` writes them: a report's edits are applied by other tools too.
    A file keeps `\\n` unless every line of it ends in `\\r\\n`, or every one in a lone `\\r`
    (lintgv.fixing.files.stored_text)."""
    from lintgv.fixing.files import stored_text

    newlines: dict[Path, str] = {}

    def newline_of(path: Path) -> str:
        if path not in newlines:
            try:
                data = path.read_bytes()
            except OSError:  # the edit is refused where it is applied, if it must be
                data = b""
            newlines[path] = stored_text(data.decode("utf-8", errors="replace"), data).newline
        return newlines[path]

    native: list[Finding] = []
    for finding in findings:
        fix = finding.fix
        if fix is not None and any("\n" in edit.text for edit in fix.edits):
            edits = tuple(
                replace(edit, text=with_newline(edit.text, newline_of(edit.path or finding.path)))
                for edit in fix.edits
            )
            finding = replace(finding, fix=replace(fix, edits=edits))
        native.append(finding)
    return native


@frozen
class Outcome:
    findings: list[Finding]
    errors: list[FileError]
    files: int
    sources: Sources
    known: int = 0  # findings hidden because the baseline has them
    gone: int = 0  # baseline entries that no finding matched any more


# The reports that carry each finding's fix, a change across files included.
_CARRY_FIXES = frozenset({"json", "sarif"})


def _filtered(args: argparse.Namespace) -> Outcome:
    # diff_base and baseline are imported when asked for: most runs use neither, and
    # diff_base loads subprocess.
    changed = None
    if args.diff_base is not None:
        from lintgv import diff_base

        # The repository is the one around the first path checked.
        first = args.paths[0] if args.paths else Path(".")
        changed = diff_base.changed_lines(
            args.diff_base, first if os.path.isdir(first) else first.parent
        )
    entries = None
    if args.baseline:
        from lintgv import baseline

        entries = baseline.load(args.baseline)
    # The files git says changed are checked even where a .gitignore (perhaps the one
    # the change itself brings) covers them: git ignores no file it tracks.
    tracked = frozenset(map(str, changed.files)) if changed is not None else frozenset()
    result = run_check(args, tracked=tracked)
    findings = [f for r in result.results for f in r.findings]
    errors = list(result.all_errors)
    if changed is not None:
        from lintgv import diff_base

        findings = diff_base.keep_changed(findings, changed)
        errors = diff_base.keep_changed_errors(errors, changed)
    # Only the reports that show or fingerprint a finding's lines read them.
    shows_lines = args.format in ("sarif", "gitlab") or (
        args.format == "text" and not args.statistics and not args.no_source
    )
    sources = read_sources(findings) if entries is not None or shows_lines else {}
    known = gone = 0
    if entries is not None:
        from lintgv import baseline

        comparison = baseline.compare(findings, sources, entries, args.baseline.parent)
        findings, known, gone = list(comparison.new), comparison.known, comparison.gone
    if args.format in _CARRY_FIXES:
        from lintgv.fixing.across import with_changes_across_files

        findings = with_changes_across_files(findings, result.results, result.candidates)
        findings = in_file_newlines(findings)
    return Outcome(findings, errors, len(result.results), sources, known, gone)


def _report(args: argparse.Namespace, outcome: Outcome) -> str:
    # Each reporter is imported only when chosen: SARIF's pulls in every rule's docs,
    # which a warm run answered from the cache would otherwise pay for.
    findings, errors = outcome.findings, outcome.errors
    if args.format == "json":
        from lintgv.report import json as json_report

        return json_report.render(findings, errors)
    if args.format == "sarif":
        from lintgv.report import sarif

        return sarif.render(findings, errors, outcome.sources)
    if args.format == "github":
        from lintgv.report import github

        return github.render(findings, errors)
    if args.format == "junit":
        from lintgv.report import junit

        return junit.render(findings, errors)
    if args.format == "gitlab":
        from lintgv.report import gitlab

        return gitlab.render(findings, errors, outcome.sources)
    from lintgv.paths import display_path
    from lintgv.report import text

    summary = text.summary(findings, errors, outcome.files, known=outcome.known, gone=outcome.gone)
    if args.statistics:
        body = text.statistics(findings)
    else:
        shown = {display_path(path): lines for path, lines in outcome.sources.items()}
        to_terminal = args.output_file is None and sys.stdout.isatty()
        color = text.wants_color(args.color, to_terminal)
        body = text.render(findings, errors, shown, show_source=not args.no_source, color=color)
    return f"{body}\n{summary}" if body else summary


def _check_usage(args: argparse.Namespace) -> None:
    if args.statistics and args.format != "text":
        raise UsageError(f"--statistics goes with --format text, not {args.format}")
    # argparse reads `--diff-base=--` as an empty list; an empty ref would check everything.
    ref = args.diff_base
    if ref is not None and (not isinstance(ref, str) or not ref.strip() or ref.startswith("-")):
        shown = ref if isinstance(ref, str) else "--"
        raise UsageError(f"--diff-base: {shown!r} is not a git ref (such as origin/main)")


def command_check(args: argparse.Namespace) -> int:
    """Run `lintgv check` and return its exit code."""
    from lintgv.cli_options import EXIT_ERROR, EXIT_FINDINGS, exit_code

    try:
        _check_usage(args)
    except UsageError as exc:
        print(f"lintgv: error: {exc}", file=sys.stderr)
        return EXIT_ERROR
    outcome = _filtered(args)
    report = _report(args, outcome)
    if args.output_file is not None:
        write_output(args.output_file, report + "\n" if report else "")
    elif report:
        print(report)
    code = exit_code(len(outcome.findings), len(outcome.errors))
    return code & ~EXIT_FINDINGS if args.exit_zero else code


def command_baseline(args: argparse.Namespace) -> int:
    """Run `lintgv baseline` and return its exit code."""
    from lintgv import baseline
    from lintgv.cli_options import EXIT_CLEAN, EXIT_ERROR
    from lintgv.report import text

    result = run_check(args)
    findings = [f for r in result.results for f in r.findings]
    errors = list(result.all_errors)
    write_output(args.output, baseline.dump(findings, read_sources(findings), args.output))
    if errors:
        print(text.render([], errors, {}), file=sys.stderr)
    plural = "s" if len(findings) != 1 else ""
    print(f"Wrote {len(findings)} finding{plural} to {args.output}.")
    return EXIT_ERROR if errors else EXIT_CLEAN
