"""A migration plan (lintgv/migration.py) as text or JSON, for `lintgv migrate --plan`."""

import json

from lintgv.migration import Counts, Plan, few_paths

_COLUMNS = ("sites", "safe", "unsafe", "across", "suggested", "by hand")
_ORDER_SHOWN = 8  # directories named per step in text; JSON names them all


def counted(count: int, noun: str, nouns: str = "") -> str:
    """Return "1 site", "2 sites" (`nouns` for an irregular plural: "directories")."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def _unchecked(plan: Plan) -> str:
    files = counted(plan.unchecked, "file")
    return f"{files} could not be checked (see `lintgv check`)."


def _work_order(directories: tuple[str, ...]) -> str:
    shown = ", ".join(directories[:_ORDER_SHOWN])
    more = len(directories) - _ORDER_SHOWN
    return f"   in order: {shown}" + (f", and {more} more (--format json)" if more > 0 else "")


def _row(label: str, counts: Counts, width: int) -> str:
    values = (
        counts.sites,
        counts.safe,
        counts.unsafe,
        counts.across,
        counts.suggested,
        counts.by_hand,
    )
    return f"  {label:<{width}}" + "".join(f"{v:>10}" for v in values)


def render_text(plan: Plan, limit: int = 40) -> str:
    """Return the plan for a terminal: the directories with most sites, then the steps."""
    total = plan.total
    if not total.sites and plan.unchecked:
        # Not "nothing to migrate": what could not be checked may hold sites.
        return f"No sites in the files checked; {_unchecked(plan)}"
    if not total.sites:
        return "Nothing to migrate: no sites left."
    shown = plan.directories[:limit]
    width = max(len("directory"), *(len(d.path) for d in shown))
    lines = [
        f"{counted(total.sites, 'site')} in "
        f"{counted(len(plan.directories), 'directory', 'directories')}: {total.safe} safe, "
        f"{total.unsafe} unsafe, {total.across} across files (where `lintgv fix --unsafe` "
        f"can prove the change), {total.suggested} suggested (shown, never applied), "
        f"{total.by_hand} by hand.",
        "",
        f"  {'directory':<{width}}" + "".join(f"{c:>10}" for c in _COLUMNS),
        *(_row(d.path, d.counts, width) for d in shown),
    ]
    if len(plan.directories) > limit:
        lines.append(f"  ... {len(plan.directories) - limit} more directories (--format json)")
    lines += ["", "Steps, callees before callers:"]
    for step in plan.steps:
        counts = step.counts
        lines.append(
            f"{step.order}. {step.phase.title} ({', '.join(step.phase.codes)}): "
            f"{counted(counts.sites, 'site')} in "
            f"{counted(len(step.directories), 'directory', 'directories')}; "
            f"{step.phase.why_here}."
        )
        lines.append(_work_order(step.directories))
        fixable = counts.safe + counts.unsafe
        if step.command and step.phase.multi_file:
            lines.append(
                f"   {step.command}  (rewrites the copies it can across files; preview with "
                "--diff; the others by hand)"
            )
        elif step.command:
            across = f", {counts.across} across files where it can" if counts.across else ""
            lines.append(f"   {fixable} with a fix{across}: {step.command}")
        left = counts.suggested + counts.by_hand
        if left and not step.phase.multi_file:
            lines.append(
                f"   {left} by hand ({counts.suggested} with a suggestion): "
                f"lintgv check --select {','.join(step.phase.codes)} "
                + " ".join(few_paths(step.directories))
            )
    if plan.unchecked:
        lines += ["", _unchecked(plan)]
    return "\n".join(lines)


def render_json(plan: Plan) -> str:
    """Return the plan as one JSON object (docs/output.md describes it)."""
    document = {
        "version": 1,
        "total": plan.total.as_dict(),
        "unchecked": plan.unchecked,
        "directories": [
            {"path": d.path, **d.counts.as_dict(), "codes": dict(sorted(d.codes.items()))}
            for d in plan.directories
        ],
        "steps": [
            {
                "order": s.order,
                "title": s.phase.title,
                "codes": list(s.phase.codes),
                **s.counts.as_dict(),
                "directories": list(s.directories),
                "command": s.command or None,
            }
            for s in plan.steps
        ],
    }
    return json.dumps(document, indent=2)
