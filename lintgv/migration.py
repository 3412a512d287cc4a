"""A migration plan from `check`'s findings: per directory, the sites left and how many
can be fixed safely, unsafely, by a change across files (which `lintgv fix --unsafe`
makes where it can prove it: a unique-name copy replaced, a supply threaded through a
function's callers), only by following a suggestion, or by hand; and the steps to take,
callees before callers. `lintgv migrate --plan` prints it, `lintgv report --html`
draws it (report/html.py).
"""

import os
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import field
from pathlib import PurePosixPath

from lintgv.model import Applicability, Finding
from lintgv.paths import display_path
from lintgv.records import frozen, mutable
from lintgv.registry import codes_where, rule_meta
from lintgv.rules._base import MigrationPhase


@mutable
class Counts:
    """Sites, by how they can be fixed."""

    sites: int = 0
    safe: int = 0
    unsafe: int = 0
    across: int = 0  # a change across files, where `lintgv fix --unsafe` can prove one
    suggested: int = 0  # a display-only fix shows what to write
    by_hand: int = 0

    def add(self, finding: Finding, across: bool = False) -> None:
        self.sites += 1
        kind = finding.fix.applicability if finding.fix is not None else Applicability.NONE
        if kind == Applicability.SAFE:
            self.safe += 1
        elif kind == Applicability.UNSAFE:
            self.unsafe += 1
        elif across:
            self.across += 1
        elif kind == Applicability.DISPLAY:
            self.suggested += 1
        else:
            self.by_hand += 1

    def as_dict(self) -> dict[str, int]:
        return {
            "sites": self.sites,
            "safe": self.safe,
            "unsafe": self.unsafe,
            "across_files": self.across,
            "suggested": self.suggested,
            "by_hand": self.by_hand,
        }


@mutable
class Directory:
    path: str
    counts: Counts = field(default_factory=Counts)
    codes: Counter[str] = field(default_factory=Counter)


@frozen
class Phase:
    """One kind of change, in the order a migration makes them; its codes are those of
    the rules that name it as their phase."""

    key: MigrationPhase
    title: str
    why_here: str

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(sorted(codes_where(lambda meta: meta.phase is self.key)))

    @property
    def callee_codes(self) -> tuple[str, ...]:
        """The codes of the callees' sites (definitions, declarations in headers): their
        directories are worked through before those that only hold callers."""
        return tuple(c for c in self.codes if rule_meta(c).reports_callees)

    @property
    def multi_file(self) -> bool:
        """Tell whether a change across files that `check` does not show as a fix (GV2xx
        copies) fixes this phase: the fix command is worth running whatever the
        findings say."""
        return any(rule_meta(c).across_files for c in self.codes)

    @property
    def fix(self) -> str:
        """Return how to apply the fixes `lintgv fix` has for this phase ("" when there
        are none)."""
        offered = {rule_meta(c).offered_fix for c in self.codes}
        if not offered & {Applicability.SAFE, Applicability.UNSAFE}:
            return ""
        unsafe = " --unsafe" if Applicability.UNSAFE in offered else ""
        return f"lintgv fix{unsafe} --select {','.join(self.codes)}"


# Callees before callers: a helper and its declarations go before the calls that are
# rewritten with them; supplies exist before GlobalVars are taken from them; the names
# are settled before the symbols that carry them are looked at.
PHASES = (
    Phase(
        MigrationPhase.UNIQUE_NAME_HELPERS,
        "Replace private unique-name helpers with a NameSupply",
        "a helper goes with its declarations and every call, in one change across files",
    ),
    Phase(
        MigrationPhase.UNIQUING_LOOPS,
        "Replace inline uniquing loops with supply calls",
        "each loop becomes one call of the supply that now owns the names",
    ),
    Phase(
        MigrationPhase.GLOBAL_VARS,
        "Take GlobalVars from a GlobalVarSupply",
        "a site uses the supply in scope, or one made from the module it is added to",
    ),
    Phase(
        MigrationPhase.REMOVED_APIS,
        "Move off removed supply APIs",
        "only for a `tvm-version` that removed them",
    ),
    Phase(
        MigrationPhase.GLOBAL_SYMBOLS,
        "Settle global_symbol settings",
        "the names are final once the supplies hand them out",
    ),
    Phase(
        MigrationPhase.SUPPRESSIONS,
        "Clean up suppression comments",
        "fixed code leaves suppressions that are no longer needed",
    ),
)


@frozen
class Step:
    order: int
    phase: Phase
    counts: Counts
    directories: tuple[str, ...]  # in the order to work through them

    @property
    def command(self) -> str:
        counts = self.counts
        fixable = counts.safe or counts.unsafe or counts.across or self.phase.multi_file
        if not self.phase.fix or not fixable:
            return ""
        return " ".join([self.phase.fix, *few_paths(self.directories)])


@frozen
class Plan:
    total: Counts
    directories: tuple[Directory, ...]  # most sites first
    steps: tuple[Step, ...]
    unchecked: int  # files that could not be checked


_FEW = 5


def few_paths(directories: Sequence[str]) -> list[str]:
    """Return the directories for a command line: themselves when few, else the folder
    that holds them all (the command's `--select` keeps it to this step's sites)."""
    if len(directories) <= _FEW:
        return list(directories)
    return [os.path.commonpath(directories) or "."]


def directory_of(finding: Finding) -> str:
    """Return the folder of a finding's file as the reports show it ("." at the top)."""
    parent = PurePosixPath(display_path(finding.path)).parent
    return str(parent)


def make_plan(
    findings: Sequence[Finding],
    unchecked: int,
    across_files: Callable[[Finding], bool] = lambda finding: False,
) -> Plan:
    """Return the plan for the sites `findings` report; `across_files` tells which of
    those without a fix of their own a change across files may fix."""
    total = Counts()
    folders: dict[str, Directory] = {}
    for finding in findings:
        across = across_files(finding)
        total.add(finding, across)
        folder = folders.setdefault(directory_of(finding), Directory(directory_of(finding)))
        folder.counts.add(finding, across)
        folder.codes[finding.code] += 1
    ordered = sorted(folders.values(), key=lambda d: (-d.counts.sites, d.path))
    steps: list[Step] = []
    for phase in PHASES:
        codes = phase.codes  # asked of the registry: once a phase, not once a finding
        mine = [f for f in findings if f.code in codes]
        if not mine:
            continue
        counts = Counts()
        for finding in mine:
            counts.add(finding, across_files(finding))
        steps.append(Step(len(steps) + 1, phase, counts, _work_order(mine, phase)))
    return Plan(total, tuple(ordered), tuple(steps), unchecked)


def _work_order(findings: Sequence[Finding], phase: Phase) -> tuple[str, ...]:
    """Return the directories of a phase's sites: those holding callees (helper
    definitions, their declarations in headers) before those that only call them, each
    group by path. A finding names its callee only in its message, so which caller
    directory needs which callee directory is not known here and path order stands in."""
    callee_codes = phase.callee_codes
    callees = {directory_of(f) for f in findings if f.code in callee_codes}
    found = {directory_of(f) for f in findings}
    return tuple(sorted(found, key=lambda d: (d not in callees, d)))
