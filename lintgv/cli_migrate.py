"""`lintgv migrate --plan` and `lintgv report --html`: a migration plan from the findings
of `check`, printed or drawn (lintgv/migration.py)."""

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from lintgv.cli_check import run_check
from lintgv.discovery import Candidate
from lintgv.model import FileError, Finding
from lintgv.writing import write_output

_PATHS = "files and folders to check, as for `check` (default: the current folder)"


def add_migrate_commands(
    commands: "argparse._SubParsersAction[argparse.ArgumentParser]",
    add_selection: Callable[[argparse.ArgumentParser], None],
) -> None:
    """Add the `migrate` and `report` subcommands to `commands`."""
    migrate = commands.add_parser(
        "migrate",
        help="plan a migration to name supplies: sites per directory, steps in order",
        description="Print, per directory, the sites left and how many can be fixed safely, "
        "unsafely, by a change across files (where lintgv fix --unsafe can prove one), only "
        "by following a suggestion, or by hand; then the steps to take, "
        "callees before callers, each with the command that applies its fixes. Exit "
        "status: 0, or 2 when something could not be checked.",
    )
    migrate.add_argument(
        "paths", nargs="*", type=Path, default=[Path(".")], metavar="PATH", help=_PATHS
    )
    migrate.add_argument(
        "--plan", action="store_true", required=True, help="print the plan (changes nothing)"
    )
    migrate.add_argument(
        "--format",
        choices=("text", "json"),
        default="text",
        help="text for a terminal, or one JSON object (docs/output.md; default: text)",
    )
    add_selection(migrate)
    migrate.set_defaults(func=command_migrate)

    report = commands.add_parser(
        "report",
        help="write the migration plan as a web page to look at",
        description="Write one self-contained HTML page: a bar chart of the sites per "
        "directory and how they can be fixed, the steps, and sortable tables of "
        "directories and findings linked to the rules' pages. Nothing is loaded from the "
        "network. Exit status: 0, or 2 when the page cannot be written or something could "
        "not be checked.",
    )
    report.add_argument(
        "paths", nargs="*", type=Path, default=[Path(".")], metavar="PATH", help=_PATHS
    )
    report.add_argument(
        "--html", action="store_true", required=True, help="write HTML (the only format)"
    )
    report.add_argument(
        "--output",
        "-o",
        type=Path,
        default=Path("lintgv-report.html"),
        metavar="FILE",
        help="the page to write, a new or regular file, never through a symbolic link "
        "(default: lintgv-report.html)",
    )
    add_selection(report)
    report.set_defaults(func=command_report)


def command_migrate(args: argparse.Namespace) -> int:
    """Print the migration plan."""
    from lintgv.cli_options import EXIT_CLEAN, EXIT_ERROR
    from lintgv.migration import make_plan
    from lintgv.report import plan as plan_report

    result = run_check(args, "migrate")
    findings = [f for r in result.results for f in r.findings]
    errors = list(result.all_errors)
    plan = make_plan(findings, len(errors), across_files(result.candidates, findings))
    print(plan_report.render_json(plan) if args.format == "json" else plan_report.render_text(plan))
    _print_errors(errors)
    return EXIT_ERROR if errors else EXIT_CLEAN


def command_report(args: argparse.Namespace) -> int:
    """Write the HTML report."""
    from lintgv.cli_options import EXIT_CLEAN, EXIT_ERROR
    from lintgv.migration import make_plan
    from lintgv.report import html
    from lintgv.report.plan import counted

    result = run_check(args, "report")
    findings = [f for r in result.results for f in r.findings]
    errors = list(result.all_errors)
    plan = make_plan(findings, len(errors), across_files(result.candidates, findings))
    write_output(args.output, html.render(plan, findings))
    sites = counted(plan.total.sites, "site")
    directories = counted(len(plan.directories), "directory", "directories")
    print(f"Wrote {args.output}: {sites} in {directories}.")
    _print_errors(errors)
    return EXIT_ERROR if errors else EXIT_CLEAN


def across_files(
    candidates: Sequence[Candidate], findings: Sequence[Finding]
) -> Callable[[Finding], bool]:
    """Return which findings without a fix of their own `lintgv fix --unsafe` may fix by
    a change across files: a unique-name copy's (rules whose fix spans files) and a
    GlobalVar's with nothing in scope to name it (a supply threaded from the callers),
    when the files the change writes target a TVM release with supplies (the
    `candidates` checked). A copy's change writes the files of its findings (definition,
    declarations, calls), so none of them may be on such a release; a threaded supply's
    callers are not known before planning, so only its own file is asked."""
    from lintgv.fixing.across import ACROSS_CODES
    from lintgv.fixing.thread_edits import is_threading_site
    from lintgv.identities import bare_name

    without = {c.path for c in candidates if not c.config.release.has_name_supply}
    # A call names a copy unqualified (`GetUniqueName`), its definition qualified: the
    # copies are told apart by their bare names, the safe side when two share one.
    stuck = {bare_name(f.subject) for f in findings if f.code in ACROSS_CODES and f.path in without}
    # A file on such a release that names a copy with no finding there (suppressed, or
    # its rule ignored in that folder) is written by its change all the same.
    named = {bare_name(f.subject) for f in findings if f.code in ACROSS_CODES} - stuck
    for candidate in (c for c in candidates if c.path in without and named):
        stuck |= _named_in(candidate, named)
        named -= stuck

    def fixed_across(finding: Finding) -> bool:
        if finding.path in without:
            return False
        if finding.code in ACROSS_CODES:
            return bare_name(finding.subject) not in stuck
        return is_threading_site(finding)

    return fixed_across


def _named_in(candidate: Candidate, names: set[str]) -> set[str]:
    """Return which of `names` the file of `candidate` names as a word outside its
    comments (a comment holds no call a change rewrites); in its comments too when they
    cannot be told apart for certain."""
    from lintgv.helpers.names import names_word
    from lintgv.model import Language
    from lintgv.parsing.comments import cpp_comments, python_comments
    from lintgv.reading import read_source

    loaded = read_source(candidate.path, candidate.config.max_file_size)
    if isinstance(loaded, FileError):
        return set()
    text = loaded.text
    lexed = python_comments if candidate.language == Language.PYTHON else cpp_comments
    comments = lexed(text)
    if comments.is_certain:
        pieces, at = [], 0
        for comment in comments.found:
            pieces.append(text[at : comment.offset])
            at = comment.offset + len(comment.text)
        text = " ".join([*pieces, text[at:]])
    return {n for n in names if names_word(text, n)}


def _print_errors(errors: list[FileError]) -> None:
    from lintgv.report import text

    if errors:
        print(text.render([], errors, {}), file=sys.stderr)
