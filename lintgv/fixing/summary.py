"""A fix run's summary: what changed and what was left (its diffs are in fixing/diff.py)."""

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

from lintgv.fixing.across import ACROSS_CODES
from lintgv.fixing.file_fix import FileFix
from lintgv.fixing.run import FixRun
from lintgv.model import Applicability, Finding
from lintgv.paths import display_path
from lintgv.records import frozen


def is_fixed(fix: FileFix, write: bool) -> bool:
    """Tell whether the file's fixes count as done: written, or shown by `--diff`."""
    return fix.changed and (fix.written or not write)


def reason_left(
    finding: Finding,
    fix: FileFix | None,
    unsafe: bool,
    copies: Sequence["CopyLeft"] = (),
    refused: Mapping[Path, str] | None = None,
) -> str:
    """Return why a finding is still there after the run; `copies` are the unique-name
    copies left alone, whose reasons explain the findings of rules fixed across files,
    and `refused` the files `fix` may not write, with why."""
    if finding.fix is None:
        why = finding.reason or ""
        if not why and finding.code in ACROSS_CODES:
            why = _copy_reason(finding, copies)
        if not why and finding.remedy:
            why = "by hand, " + finding.remedy
        return f"no automatic fix: {why}" if why else "no automatic fix"
    if refused and finding.path in refused:
        return refused[finding.path]
    applicability = finding.fix.applicability
    if applicability == Applicability.DISPLAY:
        if finding.reason:  # no fix to apply; the display fix suggests what to write
            return f"no automatic fix: {finding.reason} (suggested: {finding.fix.title})"
        return f"needs a human choice (shown, never applied): {finding.fix.title}"
    if applicability == Applicability.UNSAFE and not unsafe:
        return "unsafe fix (may change names or behaviour); apply with --unsafe"
    if fix is not None:
        for rejected in fix.rejected:
            if rejected.finding.code == finding.code:
                return f"fix failed its proof: {rejected.reason}"
        if fix.errors:
            return f"not written: {fix.errors[-1].message}"
    return "fix not applied (it overlaps another fix)"


def _left(run: FixRun) -> list[tuple[Finding, FileFix | None]]:
    pairs: list[tuple[Finding, FileFix | None]] = []
    for fix in run.fixes:
        findings = fix.remaining if is_fixed(fix, run.write) or not fix.changed else fix.initial
        pairs.extend((f, fix) for f in findings)
    pairs.extend((f, None) for result in run.untouched for f in result.findings)
    return pairs


def render_summary(run: FixRun, unsafe: bool) -> str:
    """Return the closing report: fixes per code, then what is left and why."""
    fixed = Counter(f.code for fix in run.fixes if is_fixed(fix, run.write) for f in fix.applied)
    files = sum(1 for fix in run.fixes if is_fixed(fix, run.write) and fix.applied)
    verb = "Fixed" if run.write else "Would fix"
    total = sum(fixed.values())
    lines = []
    if total:
        per_code = ", ".join(f"{code}: {count}" for code, count in sorted(fixed.items()))
        lines.append(
            f"{verb} {_plural(total, 'finding')} in {_plural(files, 'file')} ({per_code})."
        )
    else:
        lines.append(f"{verb} nothing.")
    lines.extend(_group_lines(run))
    if run.unseen:
        folders = ", ".join(display_path(p) for p in run.unseen)
        lines.append(
            f"No change across files was made: {folders} could not be read, and a call "
            "there would be left behind."
        )
    copies = _copies_left(run)
    refused = {e.path: e.message for e in run.errors if e.refused}
    left = Counter((f.code, reason_left(f, fix, unsafe, copies, refused)) for f, fix in _left(run))
    if left:
        count = sum(left.values())
        remain = "would remain" if not run.write else ("remains" if count == 1 else "remain")
        lines.append(f"{_plural(count, 'finding')} {remain}:")
        for (code, reason), count in sorted(left.items()):
            lines.append(f"  {code} {count:>5}  {reason}")
    lines.extend(_groups_left(run))
    errors = run.all_errors
    if errors:
        # A file two rules could not check is one file, with two lines below; the other
        # rules may have checked it, and its fixes been written.
        files = len({e.path for e in errors})
        lines.append(f"{_plural(files, 'file')} not checked or written in full:")
        lines.extend(f"  {display_path(e.path)}: {e.message}" for e in errors)
    return "\n".join(lines)


@frozen
class CopyLeft:
    helper: str  # as planned: `CodeGenC::GetUniqueName`
    paths: tuple[Path, ...]
    reason: str


def _short(helper: str) -> str:
    return helper.replace("::", ".").rsplit(".", 1)[-1]


def _copies_left(run: FixRun) -> list[CopyLeft]:
    left = [CopyLeft(s.helper, (s.path,), s.reason) for s in run.groups_left]
    left += [
        CopyLeft(g.helper, g.paths, g.reason)
        for g in run.groups
        if not g.done and g.reason and not g.threaded
    ]
    left += [CopyLeft(g.helper, g.paths, WRAPPED) for g in run.groups if g.done and g.wrapped]
    return left


# A copy made a wrapper is known as one in the files its change touched; a file that only
# calls it learns it in the next check (GV202, GV203 know the run's thin wrappers).
WRAPPED = "now a wrapper of its NameSupply, defined in another file; the next check knows it"


def _copy_reason(finding: Finding, copies: Sequence[CopyLeft]) -> str:
    """Return why the copy a finding names (its subject) was left: the copy of that name
    (in the same file, for an unqualified name), else the reason all copies of that name
    share."""
    helper = finding.subject
    exact = [c for c in copies if c.helper == helper]
    similar = [c for c in copies if _short(c.helper) == _short(helper)]
    here = [c for c in similar if finding.path in c.paths]
    # A call names the helper unqualified (`GetUniqueName`), which a free function of
    # that name shares with every method copy: the copy in the same file comes first.
    qualified = helper != _short(helper)
    for candidates in (exact, here, similar) if qualified else (here, similar):
        reasons = {c.reason for c in candidates}
        if len(reasons) == 1:
            return reasons.pop()
    if similar:
        return "see the unique-name copies left as they are, below"
    if finding.path.suffix in (".py", ".pyi"):
        return (
            "only a method keeping `self.X = {}` from `__init__`, or a function keeping a "
            "module-level `X = {}`, is rewritten; call `name_supply.fresh_name(name)` instead"
        )
    return "no NameSupply rewrite is planned for this copy"


def _group_lines(run: FixRun) -> list[str]:
    lines = []
    done = [g for g in run.groups if g.done and not g.threaded and not g.wrapped]
    if done:
        verb = "Replaced" if run.write else "Would replace"
        sites = sum(g.sites for g in done)
        copies = _plural(len(done), "unique-name copy").replace("copys", "copies")
        helpers = ", ".join(g.helper for g in done)
        lines.append(f"{verb} {copies} with a supply ({_plural(sites, 'call site')}): {helpers}.")
    wrapped = [g for g in run.groups if g.done and g.wrapped]
    if wrapped:
        verb = "Made" if run.write else "Would make"
        copies = _plural(len(wrapped), "unique-name copy").replace("copys", "copies")
        helpers = ", ".join(g.helper for g in wrapped)
        lines.append(
            f"{verb} {copies} a wrapper of a supply (it returns what it made of the "
            f"name; its calls stay): {helpers}."
        )
    for group in (g for g in run.groups if g.done and g.threaded):
        verb = "Threaded" if run.write else "Would thread"
        function = group.helper.removesuffix(" (supply parameter)")
        lines.append(
            f"{verb} a GlobalVarSupply parameter into {function} "
            f"({_plural(group.sites, 'call')} updated; unsafe: {group.evidence})."
        )
    return lines


def _groups_left(run: FixRun) -> list[str]:
    left = [
        (g.helper, ", ".join(display_path(p) for p in g.paths[:1]), g.reason)
        for g in run.groups
        if not g.done and not g.threaded
    ]
    threads = sorted(
        (g for g in run.groups if not g.done and g.threaded),
        key=lambda g: (g.helper, [p.as_posix() for p in g.paths[:1]]),
    )
    lines = [
        f"  supply parameter not threaded into {g.helper.removesuffix(' (supply parameter)')} "
        f"({display_path(g.paths[0])}): {g.reason}"
        if g.paths
        else f"  no supply parameter threaded: {g.reason}"  # planning failed as a whole
        for g in threads
    ]
    left += [(s.helper, f"{display_path(s.path)}:{s.line}", s.reason) for s in run.groups_left]
    if not left:
        return lines
    copies = _plural(len(left), "unique-name copy").replace("copys", "copies")
    lines.append(f"{copies} left as {'it is' if len(left) == 1 else 'they are'}:")
    lines.extend(f"  {helper} ({where}): {reason}" for helper, where, reason in left)
    return lines


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
