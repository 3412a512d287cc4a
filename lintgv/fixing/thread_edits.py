"""What supply threading shares across languages (fixing/threading.py for C++,
fixing/threading_python.py for Python): the sites it starts from, the functions it
refuses, the edits of one change with the callers' evidence, and the site's rule's own
fix naming the site through the new parameter."""

import os
from collections.abc import Callable, Collection, Mapping, Sequence
from pathlib import Path
from typing import NamedTuple

from lintgv.config import DEFAULT_EXCLUDE, Config, apply_settings
from lintgv.discovery import Discovery
from lintgv.edits import apply_edits
from lintgv.engine import check
from lintgv.helpers.names import names_word
from lintgv.model import Applicability, Blocker, Edit, Finding, SourceFile
from lintgv.paths import display_path
from lintgv.records import frozen
from lintgv.registry import codes_where

PARAMETER = "global_var_supply"
# The rules whose sites with nothing in scope get a supply threaded to them, and whose own
# fix then names each site through it (RuleMeta.threads_supply).
THREADING_CODES = codes_where(lambda meta: meta.threads_supply)
UNNAMED_SITE = (
    f"{'/'.join(sorted(THREADING_CODES))}'s fix did not name the site with the new parameter"
)


def is_threading_site(finding: Finding) -> bool:
    """Tell whether `fix --unsafe` threads a supply parameter to the finding's site: its
    rule threads supplies, and nothing in scope can name the site."""
    return finding.code in THREADING_CODES and finding.blocker is Blocker.NOTHING_IN_SCOPE


@frozen
class Refusal:
    """A function no supply could be threaded into, and why."""

    helper: str
    path: Path
    reason: str


@frozen(order=True)
class Site:
    """Where a supply is threaded to (see is_threading_site)."""

    path: Path
    line: int  # 1-based
    column: int  # 0-based


def excluded_files(
    roots: Sequence[Path],
    overrides: Mapping[str, object],
    config_file: Path | None,
    known: Collection[Path],
) -> list[Path]:
    """Return the source files under `roots` that `exclude` and `extend-exclude` leave out
    of a run (not the default folders, nor what .gitignore ignores); `known` are the files
    the run checks."""
    unexcluded = {**overrides, "exclude": list(DEFAULT_EXCLUDE), "extend-exclude": []}
    walk = Discovery(unexcluded, config_file).discover(sorted(roots), [])
    # Compared without `..`: the files given may be spelled with it (`fix ..`).
    checked = {os.path.abspath(path) for path in known}
    return [c.path for c in walk if os.path.abspath(c.path) not in checked]


def excluded_naming(
    excluded: Callable[[], Sequence[Path]], read: Callable[[Path], str | None], name: str
) -> str | None:
    """Return why a change to `name` cannot be made when a file the run excludes from the
    files checked (`exclude`, `extend-exclude`) names it as a word: a call there would be
    left without the new argument. None when none does."""
    for path in excluded():
        text = read(path)
        if text is not None and names_word(text, name):
            return (
                f"{display_path(path)} names {name} and is excluded from the files checked: "
                "a call there could not be updated"
            )
    return None


def _place_order(place: str) -> tuple[str, int]:
    """Sort `file.cc:12` places by file, then by line as a number."""
    name, _, line = place.rpartition(":")
    return name, int(line) if line.isdigit() else 0


class _Saved(NamedTuple):
    """A threader's state, to go back to when a caller cannot be given the parameter."""

    edits: dict[Path, list[Edit]]
    unresolved: list[str]
    threaded: list[str]
    given: set[tuple[Path, int]]
    calls: int
    members: dict[tuple[Path, int], str]
    kept: list[tuple[str, str]]


class ThreadEdits:
    """The edits of one change, in either language: a supply parameter for a function
    and, where a caller has no supply to pass, for that caller too, a few calls up."""

    def __init__(self) -> None:
        self.edits: dict[Path, list[Edit]] = {}
        self.unresolved: list[str] = []  # calls that pass a new, empty supply
        self.threaded: list[str] = []  # the functions given the parameter, first the site's
        self.given: set[tuple[Path, int]] = set()  # (file, function key) of those
        self.calls = 0
        self.grounded = False  # whether the function threaded last got a real supply
        self.members: dict[tuple[Path, int], str] = {}  # supply members, by class body
        self.kept: list[tuple[str, str]] = []  # calls passing their class's member, and it

    def snapshot(self) -> _Saved:
        edits = {p: list(e) for p, e in self.edits.items()}
        threaded, given = list(self.threaded), set(self.given)
        members, kept = dict(self.members), list(self.kept)
        return _Saved(edits, list(self.unresolved), threaded, given, self.calls, members, kept)

    def restore(self, saved: _Saved) -> None:
        (
            self.edits,
            self.unresolved,
            self.threaded,
            self.given,
            self.calls,
            self.members,
            self.kept,
        ) = saved

    def add(self, path: Path, edit: Edit) -> None:
        mine = self.edits.setdefault(path, [])
        if edit not in mine:
            mine.append(edit)

    def evidence(self) -> str:
        """Say why the change is unsafe, and which callers pass a new, empty supply."""
        evidence = "names now come from a GlobalVarSupply passed in"
        if len(self.threaded) > 1:
            evidence += "; threaded through " + ", ".join(self.threaded[1:])
        if self.kept:
            members = ", ".join(f"`{m}`" for m in sorted({m for _, m in self.kept}))
            evidence += (
                f"; these callers are methods and pass a supply member their class keeps "
                f"({members}: new and empty, one per object, so a name asked for again in "
                "a later call gets a suffix): "
                + ", ".join(sorted((p for p, _ in self.kept), key=_place_order))
            )
        if self.unresolved:
            evidence += (
                "; these callers have no supply or module and pass a new, empty one: "
                + ", ".join(sorted(self.unresolved, key=_place_order))
            )
        return evidence


def named_with_parameter(source: SourceFile, config: Config) -> str | None:
    """Return the definition's file with its sites named through the new parameter (their
    rule's own fix, now that a supply is in scope), or None when none could be."""
    threading = apply_settings(config, {"select": sorted(THREADING_CODES)}, None)
    result = check(source, threading, whole=True)
    edits = [
        edit
        for finding in result.findings
        if finding.fix is not None
        and finding.fix.applicability == Applicability.UNSAFE
        and any(PARAMETER in e.text for e in finding.fix.edits)
        for edit in finding.fix.edits
    ]
    if not edits:
        return None
    unique = list({(e.span, e.text, e.old_text): e for e in edits}.values())
    return apply_edits(source.text, unique)
