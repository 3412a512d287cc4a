"""Each tool's output read into one shape, so finding counts can stand side by side.

A finding is (path relative to the tree, line, category, language). Categories are the
patterns every tool was given rules for: `construction` (a GlobalVar built by hand,
lintgv GV1xx) and `global_symbol` (the attribute written or removed, lintgv GV3xx).
lintgv's other findings (unique-name helpers, suppression comments) count as `other`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

CONSTRUCTION = "construction"
GLOBAL_SYMBOL = "global_symbol"
OTHER = "other"
CATEGORIES = (CONSTRUCTION, GLOBAL_SYMBOL)
PYTHON_SUFFIXES = (".py", ".pyi")

# Rule ids of benchmarks/rules/<tool>/ by category.
RULE_CATEGORIES = {
    "gv-construct-python": CONSTRUCTION,
    "gv-construct-cpp": CONSTRUCTION,
    "global-symbol-python": GLOBAL_SYMBOL,
    "global-symbol-cpp": GLOBAL_SYMBOL,
    "GvConstructPython": CONSTRUCTION,
    "GlobalSymbolPython": GLOBAL_SYMBOL,
}
LINTGV_FAMILIES = {"GV1": CONSTRUCTION, "GV3": GLOBAL_SYMBOL}


@dataclass(frozen=True)
class Site:
    path: str
    line: int
    category: str

    @property
    def language(self) -> str:
        return "python" if self.path.endswith(PYTHON_SUFFIXES) else "cpp"


@dataclass
class Counts:
    """What one run of a tool reported."""

    sites: list[Site] = field(default_factory=list)
    files: int | None = None  # files the tool says it looked at, when it says
    errors: int = 0  # files it could not read or parse
    note: str = ""  # anything else worth a line (fix summaries)

    def by(self, category: str, language: str | None = None) -> set[tuple[str, int]]:
        """Return the (path, line) pairs of one category, optionally of one language."""
        return {
            (s.path, s.line)
            for s in self.sites
            if s.category == category and (language is None or s.language == language)
        }

    def codes(self) -> Counter[str]:
        """Return the number of sites per category, `other` included."""
        return Counter(s.category for s in self.sites)


def _relative(path: str, tree: Path) -> str:
    candidate = Path(path)
    if not candidate.is_absolute():
        return candidate.as_posix()
    try:
        return candidate.relative_to(tree).as_posix()
    except ValueError:
        return candidate.as_posix()


_LINTGV_LINE = re.compile(r"^(?P<path>\S.*?):(?P<line>\d+):\d+: (?P<code>GV\d{3})\b")
_LINTGV_ERROR = re.compile(r"^\S.*?(:\d+){0,2}: error: ")
_LINTGV_FILES = re.compile(r"^Found \d+ findings? in (\d+) files")


def parse_lintgv_text(stdout: str, stderr: str, tree: Path) -> Counts:
    """Read `lintgv check` text output (findings, errors and the closing summary)."""
    counts = Counts()
    for line in stdout.splitlines():
        if match := _LINTGV_LINE.match(line):
            code = match.group("code")
            category = LINTGV_FAMILIES.get(code[:3], OTHER)
            path = _relative(match.group("path"), tree)
            counts.sites.append(Site(path, int(match.group("line")), category))
        elif _LINTGV_ERROR.match(line):
            counts.errors += 1
        elif match := _LINTGV_FILES.match(line):
            counts.files = int(match.group(1))
    return counts


_FIX_SUMMARY = re.compile(r"^(Would fix|Fixed) (\d+ findings? in \d+ files?|nothing)")


def parse_lintgv_fix(stdout: str, stderr: str, tree: Path) -> Counts:
    """Read `lintgv fix --diff`: the diff on stdout, the summary on stderr."""
    changed = sum(1 for line in stdout.splitlines() if line.startswith("+++ "))
    summary = next(
        (m.group(0) for line in stderr.splitlines() if (m := _FIX_SUMMARY.match(line))), ""
    )
    return Counts(note=f"{summary or 'no summary'}; diff touches {changed} files")


def parse_ast_grep(stdout: str, stderr: str, tree: Path) -> Counts:
    """Read `ast-grep scan --json=stream --inspect summary`."""
    counts = Counts()
    for line in stdout.splitlines():
        if not line.strip():
            continue
        match = json.loads(line)
        category = RULE_CATEGORIES.get(match.get("ruleId", ""), OTHER)
        start = match["range"]["start"]["line"] + 1
        counts.sites.append(Site(_relative(match["file"], tree), start, category))
    if found := re.search(r"scannedFileCount=(\d+)", stderr):
        counts.files = int(found.group(1))
    return counts


def parse_semgrep(stdout: str, stderr: str, tree: Path) -> Counts:
    """Read `semgrep scan --json`."""
    counts = Counts()
    try:
        document = json.loads(stdout)
    except json.JSONDecodeError:
        counts.note = "no JSON output"
        return counts
    for result in document.get("results", []):
        rule = result["check_id"].rsplit(".", 1)[-1]
        category = RULE_CATEGORIES.get(rule, OTHER)
        path = _relative(result["path"], tree)
        counts.sites.append(Site(path, result["start"]["line"], category))
    counts.files = len(document.get("paths", {}).get("scanned", []))
    errors = document.get("errors", [])
    counts.errors = len({e.get("path") for e in errors if e.get("path")})
    return counts


_FIXIT_LINE = re.compile(r"^(?P<path>.+?)@(?P<line>\d+):\d+ (?P<rule>\w+): ")
_FIXIT_FILES = re.compile(r"(\d+) files? checked")


def parse_fixit(stdout: str, stderr: str, tree: Path) -> Counts:
    """Read `fixit lint` output: `path@line:col Rule: message` lines and a closing count."""
    counts = Counts()
    for line in stdout.splitlines():
        if match := _FIXIT_LINE.match(line):
            category = RULE_CATEGORIES.get(match.group("rule"), OTHER)
            path = _relative(match.group("path"), tree)
            counts.sites.append(Site(path, int(match.group("line")), category))
    for text in (stderr, stdout):
        if found := _FIXIT_FILES.search(text):
            counts.files = int(found.group(1))
    counts.errors = sum(1 for line in stdout.splitlines() if ": EXCEPTION:" in line)
    return counts
