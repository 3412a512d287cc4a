"""A migration plan (lintgv/migration.py) as text or JSON, for `lintgv migrate --plan`."""

import json

from lintgv.migration import Counts, Plan, few_paths

_COLUMNS = ("sites", "safe", "unsafe", "suggested", "by hand")


def _row(label: str, counts: Counts, width: int) -> str:
    values = (counts.sites, counts.safe, counts.unsafe, counts.suggested, counts.by_hand)
    return f"  {label:<{width}}" + "".join(f"{v:>10}" for v in values)


def render_text(plan: Plan, limit: int = 40) -> str:
    """Return the plan for a terminal: the directories with most sites, then the steps."""
    total = plan.total
    if not total.sites:
        lines = ["Nothing to migrate: no sites left."]
        if plan.unchecked:
            lines.append(f"{plan.unchecked} files could not be checked (see `lintgv check`).")
        return "\n".join(lines)
    shown = plan.directories[:limit]
    width = max(len("directory"), *(len(d.path) for d in shown))
    lines = [
        f"{total.sites} sites in {len(plan.directories)} directories: {total.safe} safe, "
        f"{total.unsafe} unsafe, {total.suggested} suggested (shown, never applied), "
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
            f"{counts.sites} sites in {len(step.directories)} directories; "
            f"{step.phase.why_here}."
        )
        fixable = counts.safe + counts.unsafe
        if step.command and step.phase.multi_file:
            lines.append(
                f"   {step.command}  (rewrites the copies it can across files; preview with "
                "--diff; the others by hand)"
            )
        elif step.command:
            lines.append(f"   {fixable} with a fix: {step.command}")
        left = counts.suggested + counts.by_hand
        if left and not step.phase.multi_file:
            lines.append(
                f"   {left} by hand ({counts.suggested} with a suggestion): "
                f"lintgv check --select {','.join(step.phase.codes)} "
                + " ".join(few_paths(step.directories))
            )
    if plan.unchecked:
        lines += ["", f"{plan.unchecked} files could not be checked (see `lintgv check`)."]
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
