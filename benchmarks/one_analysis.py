"""Do the partial and the whole parse of Python files agree on a real tree?

Usage (run by hand; see docs/benchmarks.md):

    python -m benchmarks.one_analysis TREE [TREE ...] [--jobs 2]

`lintgv check` parses only the lines of a Python file near a trigger; `lintgv fix` reuses
that check for a file's first round and proves every round on a whole parse. Both must
give the same findings, messages, fixes and errors (tests/test_one_analysis.py holds the
same comparison for lintgv's own tree and the rule examples). This checks every Python
file of each tree both ways and lists the files where the two differ; exit 1 if any
does. The whole parse of every file makes it slow: about a minute for TVM's 3,000.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from lintgv.collector import spare_the_collector
from lintgv.config import Config
from lintgv.engine import check
from lintgv.model import FileResult, Finding, Language, SourceFile


def _key(finding: Finding) -> tuple[object, ...]:
    fix = finding.fix
    edits = () if fix is None else tuple((e.span, e.text, e.old_text) for e in fix.edits)
    shown = None if fix is None else (fix.title, fix.applicability)
    return (finding.code, finding.span, finding.message, finding.statement_line, shown, edits)


def outcome(result: FileResult) -> tuple[list[tuple[object, ...]], list[tuple[object, ...]]]:
    """Return what must agree between two checks of one text: every finding with its fix,
    and every error, in a stable order."""
    findings = sorted((_key(f) for f in result.findings), key=repr)
    errors: list[tuple[object, ...]] = sorted(
        ((e.message, e.line, e.column) for e in result.errors), key=repr
    )
    return findings, errors


def both(path: Path, text: str, root: Path) -> tuple[FileResult, FileResult]:
    """Check `text` (the file `path` of the tree `root`) partially and whole."""
    source = SourceFile(path, Language.PYTHON, text, path.stem)
    config = Config(root=root)
    return check(source, config), check(source, config, whole=True)


def _compare(job: tuple[Path, Path]) -> str | None:
    path, root = job
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    partial, whole = both(path, text, root)
    found, wanted = outcome(partial), outcome(whole)
    if found == wanted:
        return None
    return (
        f"{path}: partial {len(found[0])} findings, {len(found[1])} errors; "
        f"whole {len(wanted[0])} findings, {len(wanted[1])} errors"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("trees", type=Path, nargs="+")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    spare_the_collector()
    differ = 0
    for tree in args.trees:
        files = sorted(tree.rglob("*.py"))
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            found = [d for d in pool.map(_compare, [(f, tree) for f in files], chunksize=8) if d]
        print(f"{tree}: {len(files)} Python files, {len(found)} where the two parses differ")
        for line in found:
            print(f"  {line}")
        differ += len(found)
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
