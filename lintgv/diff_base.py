"""`--diff-base REF`: keep only findings on lines changed since a git ref.

Lines count as changed when `git diff REF` adds or rewrites them in the working tree,
and every line of a file git does not track yet (unless git ignores it) counts as new.
"""

import os
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lintgv.errors import LintgvError
from lintgv.model import FileError, Finding

_HUNK = re.compile(r"^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@")
_NEW_FILE = "+++ "
_ALL_LINES = range(1, 2**31)


class DiffBaseError(LintgvError):
    """git could not say what changed: not a repository, unknown ref, or git missing."""


@dataclass(frozen=True)
class ChangedLines:
    root: Path
    files: Mapping[Path, tuple[range, ...]]  # absolute path → changed line ranges

    def covers(self, path: Path, first: int, last: int) -> bool:
        """Tell whether any line from `first` to `last` of `path` changed."""
        ranges = self.files.get(path.resolve(), ())
        return any(r.start <= last and first < r.stop for r in ranges)

    def has_file(self, path: Path) -> bool:
        """Tell whether `path` has any changed line."""
        return path.resolve() in self.files


def _git(args: Sequence[str], cwd: Path) -> str:
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            check=False,
            # Looking must not write: no opportunistic refresh of the user's index.
            env={**os.environ, "GIT_OPTIONAL_LOCKS": "0"},
        )
    except FileNotFoundError as exc:
        raise DiffBaseError("--diff-base needs git, which is not on PATH") from exc
    if done.returncode != 0:
        raise DiffBaseError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout


def _unquote(name: str) -> str:
    """Undo git's C-style quoting of unusual file names."""
    if not name.startswith('"'):
        return name
    raw = name[1:-1].encode("latin-1", "backslashreplace").decode("unicode_escape")
    return raw.encode("latin-1").decode("utf-8", "replace")


def parse_diff(text: str) -> dict[str, list[range]]:
    """Return the changed line ranges per new-side path of a `git diff -U0` output."""
    changed: dict[str, list[range]] = {}
    current: list[range] | None = None
    for line in text.splitlines():
        if line.startswith(_NEW_FILE):
            name = _unquote(line[len(_NEW_FILE) :].rstrip("\t"))
            current = None if name == "/dev/null" else changed.setdefault(name[2:], [])
        elif current is not None and (match := _HUNK.match(line)):
            start, count = int(match.group(1)), int(match.group(2) or "1")
            if count:
                current.append(range(start, start + count))
    return changed


def changed_lines(ref: str, cwd: Path) -> ChangedLines:
    """Ask git which lines changed since `ref` in the repository around the folder `cwd`."""
    try:
        root = Path(_git(["rev-parse", "--show-toplevel"], cwd).strip())
    except DiffBaseError as exc:
        raise DiffBaseError(f"--diff-base: {cwd} is not inside a git repository ({exc})") from exc
    try:
        _git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], root)
    except DiffBaseError as exc:
        raise DiffBaseError(f"--diff-base: {ref!r} is not a commit in {root}") from exc
    diff = _git(
        [
            "-c",
            "core.quotePath=false",
            "diff",
            "-U0",
            "--no-color",
            "--no-ext-diff",
            "--src-prefix=a/",
            "--dst-prefix=b/",
            ref,
            "--",
        ],
        root,
    )
    files: dict[Path, tuple[range, ...]] = {
        (root / name).resolve(): tuple(ranges) for name, ranges in parse_diff(diff).items()
    }
    untracked = _git(["ls-files", "--others", "--exclude-standard", "-z"], root)
    for name in filter(None, untracked.split("\0")):
        files[(root / name).resolve()] = (_ALL_LINES,)
    return ChangedLines(root, files)


def keep_changed(findings: Iterable[Finding], changed: ChangedLines) -> list[Finding]:
    """Return the findings that touch a changed line."""
    return [f for f in findings if changed.covers(f.path, f.span.start_line, f.span.end_line)]


def keep_changed_errors(errors: Iterable[FileError], changed: ChangedLines) -> list[FileError]:
    """Return the errors of changed files and of paths that are not files (e.g. missing)."""
    return [e for e in errors if changed.has_file(e.path) or not e.path.is_file()]
