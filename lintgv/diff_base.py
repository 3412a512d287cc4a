"""`--diff-base REF`: keep only findings on lines changed since a git ref.

Lines count as changed when `git diff REF` adds or rewrites them in the working tree,
and every line of a file git does not track yet (unless git ignores it) counts as new.
"""

import os
import re
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from lintgv.errors import LintgvError
from lintgv.model import FileError, Finding
from lintgv.records import frozen

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_NEW_FILE = "+++ "
_ALL_LINES = range(1, 2**31)


class DiffBaseError(LintgvError):
    """git could not say what changed: not a repository, unknown ref, or git missing."""


@frozen
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


# Every git lintgv runs reads the tree's repository, which may be hostile: nothing in its
# configuration may run a program (an fsmonitor hook, an external diff or textconv
# driver, hooks) or change what the diff looks like (prefixes, quoting, relative paths).
_SAFE_CONFIG = (
    "core.fsmonitor=false",
    "core.hooksPath=/dev/null",
    "core.quotePath=false",
    "core.pager=cat",
    "diff.noprefix=false",
    "diff.mnemonicPrefix=false",
    "diff.relative=false",
    "diff.external=",
)


def run_git(args: Sequence[str], cwd: Path) -> str:
    """Run git with the repository's programs and display settings turned off; return
    its output (DiffBaseError when it fails)."""
    command = ["git"]
    for setting in _SAFE_CONFIG:
        command += ["-c", setting]
    try:
        done = subprocess.run(
            [*command, *args],
            cwd=cwd,
            capture_output=True,
            text=True,
            errors="surrogateescape",
            check=False,
            stdin=subprocess.DEVNULL,
            # Looking must not write: no opportunistic refresh of the user's index; and
            # never a prompt or a pager.
            env={
                **os.environ,
                "GIT_OPTIONAL_LOCKS": "0",
                "GIT_TERMINAL_PROMPT": "0",
                "GIT_PAGER": "cat",
                "GIT_EXTERNAL_DIFF": "",
            },
        )
    except FileNotFoundError as exc:
        raise DiffBaseError("--diff-base needs git, which is not on PATH") from exc
    if done.returncode != 0:
        raise DiffBaseError(done.stderr.strip() or f"git {' '.join(args)} failed")
    return done.stdout


_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}


def unquote(name: str) -> str:
    """Undo git's C-style quoting of a file name ("\\303\\251" is the UTF-8 of é)."""
    if len(name) < 2 or not (name.startswith('"') and name.endswith('"')):
        return name
    body, out, index = name[1:-1], bytearray(), 0
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            following = body[index + 1]
            if body[index + 1 : index + 4].isdigit() and len(body[index + 1 : index + 4]) == 3:
                out.append(int(body[index + 1 : index + 4], 8) & 0xFF)
                index += 4
                continue
            if following in _ESCAPES:
                out.append(_ESCAPES[following])
                index += 2
                continue
        out += char.encode("utf-8", "surrogateescape")
        index += 1
    return out.decode("utf-8", "surrogateescape")


def parse_diff(text: str) -> dict[str, list[range]]:
    """Return the changed line ranges per new-side path of a `git diff -U0` output.

    Each hunk's body is skipped by the line counts its header gives, so a changed line
    whose text looks like a header (`+++ b/other.py`, `++ b/x`) can never be taken for
    one."""
    changed: dict[str, list[range]] = {}
    current: list[range] | None = None
    lines = text.split("\n")
    index = 0
    while index < len(lines):
        line = lines[index]
        index += 1
        hunk = _HUNK.match(line)
        if hunk is not None:
            old_count = int(hunk.group(2) or "1")
            start, new_count = int(hunk.group(3)), int(hunk.group(4) or "1")
            if current is not None and new_count:
                current.append(range(start, start + new_count))
            index = _past_hunk(lines, index, old_count, new_count)
        elif line.startswith(_NEW_FILE):
            name = unquote(line[len(_NEW_FILE) :].rstrip("\t"))
            current = None if name == "/dev/null" else changed.setdefault(name[2:], [])
        elif line.startswith("diff --git "):
            current = None  # a new file's header; its `+++` line says its name
    return changed


def _past_hunk(lines: list[str], index: int, old: int, new: int) -> int:
    """Return the index just past a hunk body of `old` removed and `new` added lines."""
    while (old > 0 or new > 0) and index < len(lines):
        first = lines[index][:1]
        if first == "-":
            old -= 1
        elif first == "+":
            new -= 1
        elif first == " ":
            old, new = old - 1, new - 1
        elif first != "\\":  # "\\ No newline at end of file" counts for neither
            break
        index += 1
    return index


def changed_lines(ref: str, cwd: Path) -> ChangedLines:
    """Ask git which lines changed since `ref` in the repository around the folder `cwd`."""
    try:
        root = Path(run_git(["rev-parse", "--show-toplevel"], cwd).strip())
    except DiffBaseError as exc:
        raise DiffBaseError(f"--diff-base: {cwd} is not inside a git repository ({exc})") from exc
    try:
        run_git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"], root)
    except DiffBaseError as exc:
        raise DiffBaseError(f"--diff-base: {ref!r} is not a commit in {root}") from exc
    diff = run_git(
        [
            "diff",
            "-U0",
            "--no-color",
            "--no-ext-diff",
            "--no-textconv",
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
    untracked = run_git(["ls-files", "--others", "--exclude-standard", "-z"], root)
    for name in filter(None, untracked.split("\0")):
        files[(root / name).resolve()] = (_ALL_LINES,)
    return ChangedLines(root, files)


def keep_changed(findings: Iterable[Finding], changed: ChangedLines) -> list[Finding]:
    """Return the findings that touch a changed line."""
    return [f for f in findings if changed.covers(f.path, f.span.start_line, f.span.end_line)]


def keep_changed_errors(errors: Iterable[FileError], changed: ChangedLines) -> list[FileError]:
    """Return the errors of changed files and of paths that are not files (e.g. missing)."""
    return [e for e in errors if changed.has_file(e.path) or not e.path.is_file()]
