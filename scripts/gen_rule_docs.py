#!/usr/bin/env python3
"""Write docs/rules/<CODE>.md and docs/rules/README.md from the rule definitions.

Usage: scripts/gen_rule_docs.py [--check]
With --check, write nothing and exit 1 when any file would change (for CI and pre-commit).
"""

import argparse
import sys
from pathlib import Path

from lintgv.docs import pages

RULES_DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"


def stale_files(folder: Path) -> list[str]:
    """Return the names of files under `folder` that differ from the generated pages."""
    wanted = pages()
    stale = [
        name
        for name, text in wanted.items()
        if not (folder / name).is_file() or (folder / name).read_text(encoding="utf-8") != text
    ]
    if folder.is_dir():
        stale += sorted(p.name for p in folder.glob("*.md") if p.name not in wanted)
    return stale


def write_pages(folder: Path) -> list[str]:
    """Write every page into `folder`, delete pages of codes that no longer exist."""
    changed = stale_files(folder)
    folder.mkdir(parents=True, exist_ok=True)
    wanted = pages()
    for name in changed:
        target = folder / name
        if name in wanted:
            target.write_text(wanted[name], encoding="utf-8")
        else:
            target.unlink()
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="fail if any file would change")
    parser.add_argument("--out", type=Path, default=RULES_DOCS, help="folder to write")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_files(args.out)
        if stale:
            print(
                f"docs/rules is out of date ({', '.join(stale)}); run scripts/gen_rule_docs.py",
                file=sys.stderr,
            )
            return 1
        return 0
    for name in write_pages(args.out):
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
