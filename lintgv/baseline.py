"""Baselines: remember today's findings so that only new ones fail a run.

A finding is remembered by its code, its file and two fingerprints of the text it flags,
never by line number, so edits elsewhere in the file do not disturb it:

- `line`: the flagged text and its whole line, whitespace collapsed;
- `context`: `line` plus the nearest non-blank line above and below.

Matching first pairs findings whose context fingerprint is remembered, then pairs the
rest by line fingerprint, so a finding whose neighbours changed is still known. Each
entry matches at most once: two identical findings in a file need two entries.
"""

import json
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from lintgv.digest import blake2b
from lintgv.errors import LintgvError
from lintgv.model import Finding
from lintgv.paths import printable
from lintgv.records import frozen

FORMAT_VERSION = 1
_SPACE = re.compile(r"\s+")


class BaselineError(LintgvError):
    """The baseline file is missing, unreadable or not a lintgv baseline."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: not a usable baseline ({reason})")
        self.path = path


@frozen
class Entry:
    code: str
    path: str  # POSIX, relative to the baseline file's folder (see _relative)
    line: str
    context: str


def _digest(*parts: str) -> str:
    return blake2b("\0".join(parts).encode(), digest_size=8).hexdigest()


def _squash(text: str) -> str:
    return _SPACE.sub(" ", text).strip()


def _neighbour(lines: Sequence[str], start: int, step: int) -> str:
    index = start + step
    while 0 <= index < len(lines):
        if lines[index].strip():
            return _squash(lines[index])
        index += step
    return ""


def fingerprints(finding: Finding, lines: Sequence[str]) -> tuple[str, str]:
    """Return the line and context fingerprints of `finding` in a file with `lines`."""
    span = finding.span
    first, last = span.start_line - 1, span.end_line - 1
    if not 0 <= first <= last < len(lines):
        return _digest(finding.code, finding.message), _digest(finding.code, finding.message)
    chunk = lines[first : last + 1]
    if first == last:
        flagged = chunk[0][span.start_col : span.end_col]
    else:
        flagged = "\n".join([chunk[0][span.start_col :], *chunk[1:-1], chunk[-1][: span.end_col]])
    line = _digest(finding.code, _squash(flagged), _squash("\n".join(chunk)))
    context = _digest(line, _neighbour(lines, first, -1), _neighbour(lines, last, 1))
    return line, context


def _relative(path: Path, folder: Path) -> str:
    """Return `path` relative to `folder`, else to the current folder, else absolute;
    printable, as reports show it (the file is JSON, which has no room for bytes).

    A baseline kept outside the tree it describes (say, in /tmp) thus still works for a
    copy of that tree checked from the copy's root.
    """
    absolute = path.resolve()
    for anchor in (folder, Path.cwd()):
        try:
            return printable(absolute.relative_to(anchor.resolve()).as_posix())
        except ValueError:
            continue
    return printable(absolute.as_posix())


def entries_for(
    findings: Iterable[Finding], sources: Mapping[Path, Sequence[str]], folder: Path
) -> list[Entry]:
    """Return the baseline entries of `findings`; paths relative to `folder`."""
    result = []
    for finding in findings:
        line, context = fingerprints(finding, sources.get(finding.path, ()))
        result.append(Entry(finding.code, _relative(finding.path, folder), line, context))
    return result


def dump(findings: Sequence[Finding], sources: Mapping[Path, Sequence[str]], path: Path) -> str:
    """Return the text of a baseline file at `path` that remembers `findings`."""
    rows = []
    for finding, entry in zip(findings, entries_for(findings, sources, path.parent), strict=True):
        rows.append(
            {
                "code": entry.code,
                "path": entry.path,
                "line": entry.line,
                "context": entry.context,
                # For readers of the file only: matching never looks at these.
                "at": finding.span.start_line,
                "message": finding.message,
            }
        )
    document = {"lintgv_baseline": FORMAT_VERSION, "findings": rows}
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def load(path: Path) -> list[Entry]:
    """Read the baseline file at `path`."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BaselineError(path, exc.strerror or str(exc)) from exc
    except ValueError as exc:  # not UTF-8, not JSON, or a number too long to convert
        # (whose message ends in advice for Python programmers, left out)
        raise BaselineError(path, f"not JSON: {str(exc).partition(';')[0]}") from exc
    except RecursionError as exc:
        raise BaselineError(path, "nested too deeply to read") from exc
    if not isinstance(document, dict) or document.get("lintgv_baseline") != FORMAT_VERSION:
        raise BaselineError(path, f'expected {{"lintgv_baseline": {FORMAT_VERSION}, ...}}')
    rows = document.get("findings")
    if not isinstance(rows, list):
        raise BaselineError(path, '"findings" is not a list')
    entries = []
    for number, row in enumerate(rows):
        keys = ("code", "path", "line", "context")
        if not isinstance(row, dict) or not all(isinstance(row.get(k), str) for k in keys):
            raise BaselineError(path, f"entry {number} lacks one of {', '.join(keys)}")
        entries.append(Entry(row["code"], row["path"], row["line"], row["context"]))
    return entries


@frozen
class Comparison:
    new: tuple[Finding, ...]
    known: int  # findings the baseline already had
    gone: int  # baseline entries nothing matched: fixed since


def compare(
    findings: Sequence[Finding],
    sources: Mapping[Path, Sequence[str]],
    baseline: Sequence[Entry],
    folder: Path,
) -> Comparison:
    """Split `findings` into new ones and ones the baseline (kept in `folder`) remembers."""
    current = entries_for(findings, sources, folder)
    by_context = Counter((e.code, e.path, e.context) for e in baseline)
    by_line = Counter((e.code, e.path, e.line) for e in baseline)
    matched = [False] * len(findings)
    for index, entry in enumerate(current):
        key = (entry.code, entry.path, entry.context)
        if by_context[key] > 0:
            by_context[key] -= 1
            by_line[(entry.code, entry.path, entry.line)] -= 1
            matched[index] = True
    for index, entry in enumerate(current):
        key = (entry.code, entry.path, entry.line)
        if not matched[index] and by_line[key] > 0:
            by_line[key] -= 1
            matched[index] = True
    new = tuple(f for f, hit in zip(findings, matched, strict=True) if not hit)
    return Comparison(new, matched.count(True), sum(n for n in by_line.values() if n > 0))
