"""Findings as `path:line:col: CODE message`, each with its source line and a caret."""

from collections import Counter
from collections.abc import Mapping, Sequence

from lintgv.model import FileError, Finding
from lintgv.report.location import display_path


def render(
    findings: Sequence[Finding],
    errors: Sequence[FileError],
    sources: Mapping[str, list[str]],
    *,
    show_source: bool = True,
) -> str:
    """Return the text report; `sources` maps a displayed path to its lines, when known."""
    out: list[str] = []
    for finding in findings:
        path = display_path(finding.path)
        span = finding.span
        fixable = " [*]" if finding.fix is not None and finding.fix.applicability == "safe" else ""
        where = f"{path}:{span.start_line}:{span.start_col + 1}"
        out.append(f"{where}: {finding.code}{fixable} {finding.message}")
        lines = sources.get(path)
        if show_source and lines and 0 < span.start_line <= len(lines):
            line = lines[span.start_line - 1].rstrip("\r\n")
            width = (
                span.end_col if span.end_line == span.start_line else len(line)
            ) - span.start_col
            out.append(f"    {line.expandtabs(1)}")
            out.append("    " + " " * span.start_col + "^" * max(width, 1))
    for error in errors:
        where = display_path(error.path)
        if error.line is not None:
            where += f":{error.line}"
            if error.column is not None:
                where += f":{error.column}"
        out.append(f"{where}: error: {error.message}")
    return "\n".join(out)


def summary(
    findings: Sequence[Finding],
    errors: Sequence[FileError],
    files: int,
    *,
    known: int = 0,
    gone: int = 0,
) -> str:
    """Return the closing line of a text report.

    `known` counts the findings a baseline hid, `gone` its entries nothing matched.
    """
    fixable = sum(1 for f in findings if f.fix is not None and f.fix.applicability == "safe")
    noun = "file" if files == 1 else "files"
    parts = [f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''} in {files} {noun}"]
    if known:
        parts.append(f"{known} more known from the baseline")
    if gone:
        entries = "entry" if gone == 1 else "entries"
        parts.append(f"{gone} baseline {entries} fixed since (`lintgv baseline` drops them)")
    if fixable:
        parts.append(f"{fixable} fixable with `lintgv fix`")
    if errors:
        parts.append(f"{len(errors)} could not be checked")
    return "; ".join(parts) + "."


def statistics(findings: Sequence[Finding]) -> str:
    """Return a count per code, most frequent first."""
    counts = Counter((f.code, f.rule) for f in findings)
    rows = [f"{count:>6}  {code}  {rule}" for (code, rule), count in counts.most_common()]
    return "\n".join(rows)
