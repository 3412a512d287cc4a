"""Findings as `path:line:col: CODE message`, each with its source line and a caret; in
colour on a terminal (see `wants_color`)."""

import os
from collections import Counter
from collections.abc import Mapping, Sequence

from lintgv.model import Applicability, FileError, Finding, Severity
from lintgv.paths import display_path

_BOLD, _RED, _YELLOW, _CYAN, _RESET = "\033[1m", "\033[31m", "\033[33m", "\033[36m", "\033[0m"
_SEVERITY_COLORS = {Severity.ERROR: _RED, Severity.WARNING: _YELLOW, Severity.INFO: _CYAN}


def wants_color(choice: str, is_terminal: bool) -> bool:
    """Tell whether to colour the report: `--color always|never`, else (auto) the
    environment's NO_COLOR (no colour) or FORCE_COLOR (colour), else whether the report
    goes to a terminal. As for ruff, an explicit --color wins over the environment."""
    if choice != "auto":
        return choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    if os.environ.get("FORCE_COLOR"):
        return True
    return is_terminal


def _paint(text: str, *styles: str, color: bool) -> str:
    return "".join(styles) + text + _RESET if color else text


def render(
    findings: Sequence[Finding],
    errors: Sequence[FileError],
    sources: Mapping[str, Sequence[str]],
    *,
    show_source: bool = True,
    color: bool = False,
) -> str:
    """Return the text report; `sources` maps a displayed path to its lines, when known."""
    out: list[str] = []
    for finding in findings:
        path = display_path(finding.path)
        span = finding.span
        fixable = " [*]" if finding.fix is not None and finding.fix.applicability == "safe" else ""
        where = _paint(f"{path}:{span.start_line}:{span.start_col + 1}", _BOLD, color=color)
        code = _paint(finding.code, _BOLD, _SEVERITY_COLORS[finding.severity], color=color)
        out.append(f"{where}: {code}{fixable} {finding.message}")
        lines = sources.get(path)
        if show_source and lines and 0 < span.start_line <= len(lines):
            line = lines[span.start_line - 1].rstrip("\r\n")
            width = (
                span.end_col if span.end_line == span.start_line else len(line)
            ) - span.start_col
            out.append(f"    {line.expandtabs(1)}")
            caret = _paint("^" * max(width, 1), _SEVERITY_COLORS[finding.severity], color=color)
            out.append("    " + " " * span.start_col + caret)
    for error in errors:
        where = display_path(error.path)
        if error.line is not None:
            where += f":{error.line}"
            if error.column is not None:
                where += f":{error.column}"
        out.append(f"{where}: {_paint('error', _BOLD, _RED, color=color)}: {error.message}")
    return "\n".join(out)


def summary(
    findings: Sequence[Finding],
    errors: Sequence[FileError],
    files: int,
    *,
    known: int = 0,
    gone: int = 0,
) -> str:
    """Return the closing line of a text report: the findings, the files that hold them
    and the files checked, and how many `lintgv fix` (with --unsafe) would fix.

    `known` counts the findings a baseline hid, `gone` its entries nothing matched.
    """
    fixable = _fixable(findings, Applicability.SAFE)
    unsafe = _fixable(findings, Applicability.UNSAFE)
    holding = len({f.path for f in findings})
    found = f"Found {len(findings)} finding{'s' if len(findings) != 1 else ''}"
    if findings:
        noun = "file" if holding == 1 else "files"
        found += f" in {holding} {noun} ({files} checked)"
    else:
        found += f" in {files} file{'s' if files != 1 else ''}"
    parts = [found]
    if known:
        parts.append(f"{known} more known from the baseline")
    if gone:
        entries = "entry" if gone == 1 else "entries"
        parts.append(f"{gone} baseline {entries} fixed since (`lintgv baseline` drops them)")
    if fixable:
        parts.append(f"{fixable} fixable with `lintgv fix`")
    if unsafe:
        parts.append(f"{unsafe} more with `lintgv fix --unsafe`")
    if errors:
        # A file two rules could not check is one file.
        parts.append(f"{len({e.path for e in errors})} could not be checked")
    return "; ".join(parts) + "."


def _fixable(findings: Sequence[Finding], applicability: Applicability) -> int:
    return sum(1 for f in findings if f.fix is not None and f.fix.applicability == applicability)


def statistics(findings: Sequence[Finding]) -> str:
    """Return a count per code, most frequent first, with how many have a safe or an
    unsafe fix."""
    counts = Counter((f.code, f.rule) for f in findings)
    rows = []
    for (code, rule), count in counts.most_common():
        own = [f for f in findings if f.code == code]
        safe, unsafe = _fixable(own, Applicability.SAFE), _fixable(own, Applicability.UNSAFE)
        fixes = [f"{safe} safe" if safe else "", f"{unsafe} unsafe" if unsafe else ""]
        shown = ", ".join(part for part in fixes if part)
        rows.append(f"{count:>6}  {code}  {rule}" + (f"  (fixable: {shown})" if shown else ""))
    return "\n".join(rows)
