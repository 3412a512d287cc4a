"""The comparison as text for the terminal and as Markdown for docs/benchmarks.md."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from typing import TYPE_CHECKING

from benchmarks.findings import CATEGORIES, CONSTRUCTION, GLOBAL_SYMBOL, Counts

if TYPE_CHECKING:
    from benchmarks.measured import Measured

# The targets for a whole TVM tree on a 2-core machine.
COLD_RATIO_TARGET = 1.0
WARM_SECONDS_TARGET = 0.5
MEMORY_MB_TARGET = 150
LABELS = {CONSTRUCTION: "GlobalVar construction", GLOBAL_SYMBOL: "global_symbol write"}


def _mb(kb: int) -> str:
    return f"{kb / 1024:.0f}" if kb else "—"


def _timing_row(result: Measured) -> list[str]:
    command = result.command
    what = f"{command.tool} {command.scenario}"
    if command.skipped or result.failure or not result.seconds:
        why = command.skipped or result.failure or "no run"
        return [what, why, "", "", "", "", ""]
    spread = f"{min(result.seconds):.2f}-{max(result.seconds):.2f}"
    files = "" if result.counts is None or result.counts.files is None else result.counts.files
    return [
        what,
        f"{result.median:.2f}",
        spread,
        str(len(result.seconds)),
        _mb(max(result.max_rss_kb)),
        _mb(result.tree_rss_kb),
        str(files),
    ]


TIMING_HEADER = [
    "command",
    "median s",
    "min-max s",
    "runs",
    "peak RSS MB (largest process)",
    "peak RSS MB (process tree)",
    "files",
]


def _lintgv_counts(results: Sequence[Measured]) -> Counts | None:
    for result in results:
        command = result.command
        if command.tool == "lintgv" and command.scenario.startswith("check, cold"):
            return result.counts
    return None


def _agreement(tool: Counts, ours: Counts | None, category: str) -> str:
    if ours is None:
        return ""
    theirs, mine = tool.by(category), ours.by(category)
    return f"{len(theirs & mine)} / {len(theirs - mine)} / {len(mine - theirs)}"


def _count_rows(
    results: Sequence[Measured], lintgv_families: frozenset[str]
) -> tuple[list[str], list[list[str]]]:
    ours = _lintgv_counts(results)
    header = ["tool", "files"]
    for category in CATEGORIES:
        label = LABELS[category]
        header += [f"{label}: Python", f"{label}: C++", f"{label}: both / only tool / only lintgv"]
    header += ["lintgv's other findings", "files with errors"]
    rows = []
    seen: set[str] = set()
    for result in results:
        command, counts = result.command, result.counts
        if counts is None or command.tool in seen or command.scenario.startswith("fix"):
            continue
        seen.add(command.tool)
        row = [command.tool, "" if counts.files is None else str(counts.files)]
        for category in CATEGORIES:
            no_rule = category == GLOBAL_SYMBOL and "GV3" not in lintgv_families
            if command.tool == "lintgv" and no_rule:
                row += ["no rule yet", "no rule yet", ""]
                continue
            row += [
                str(len(counts.by(category, "python"))),
                str(len(counts.by(category, "cpp"))),
                "" if command.tool == "lintgv" else _agreement(counts, ours, category),
            ]
        other = counts.codes().get("other", 0) if command.tool == "lintgv" else ""
        row += [str(other), str(counts.errors)]
        rows.append(row)
    return header, rows


def _median_of(results: Sequence[Measured], tool: str, scenario: str) -> float | None:
    for result in results:
        if result.command.tool == tool and result.command.scenario.startswith(scenario):
            return result.median if result.seconds else None
    return None


def _paired_ratios(
    results: Sequence[Measured], ours: tuple[str, str], theirs: tuple[str, str]
) -> list[float]:
    """Return our time over theirs for each round in which both ran (same load)."""

    def find(tool: str, scenario: str) -> Measured | None:
        return next(
            (
                r
                for r in results
                if r.command.tool == tool and r.command.scenario.startswith(scenario)
            ),
            None,
        )

    mine, other = find(*ours), find(*theirs)
    if mine is None or other is None:
        return []
    return [a / b for a, b in zip(mine.seconds, other.seconds, strict=False) if b]


def verdicts(results: Sequence[Measured]) -> list[str]:
    """Return one line per target: the figure, the target, met or not."""
    lines = []
    cold = _median_of(results, "lintgv", "check, cold")
    ast_grep = _median_of(results, "ast-grep", "scan")
    if cold is not None and ast_grep:
        ratio = cold / ast_grep
        paired = _paired_ratios(results, ("lintgv", "check, cold"), ("ast-grep", "scan"))
        rounds = (
            f"; per round {', '.join(f'{r:.2f}' for r in paired)}, "
            f"median {statistics.median(paired):.2f}"
            if paired
            else ""
        )
        met = "met" if ratio <= COLD_RATIO_TARGET else "NOT met"
        lines.append(
            f"cold check / ast-grep scan = {cold:.2f} s / {ast_grep:.2f} s = {ratio:.2f}"
            f"{rounds} (target ≤ {COLD_RATIO_TARGET:.1f}): {met}"
        )
    warm = _median_of(results, "lintgv", "check, warm (nothing")
    if warm is not None:
        met = "met" if warm < WARM_SECONDS_TARGET else "NOT met"
        lines.append(
            f"warm re-check, nothing changed = {warm:.2f} s "
            f"(target < {WARM_SECONDS_TARGET} s): {met}"
        )
    peaks = [
        (max(r.max_rss_kb), r.tree_rss_kb)
        for r in results
        if r.command.tool == "lintgv" and r.command.scenario.startswith("check") and r.max_rss_kb
    ]
    if peaks:
        largest = max(p for p, _ in peaks) / 1024
        tree = max(t for _, t in peaks) / 1024
        met = "met" if largest < MEMORY_MB_TARGET else "NOT met"
        lines.append(
            f"peak memory of `lintgv check` = {largest:.0f} MB in its largest process, "
            f"{tree:.0f} MB for the whole process tree (target < {MEMORY_MB_TARGET} MB): {met}"
        )
    return lines


def _table(header: list[str], rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def render_markdown(
    label: str,
    info: dict[str, str],
    versions: dict[str, str],
    results: Sequence[Measured],
    lintgv_families: frozenset[str] = frozenset(),
) -> str:
    """Return the whole comparison as a Markdown section."""
    out = [f"### {label}", ""]
    out.append("Machine: " + "; ".join(f"{k}: {v}" for k, v in info.items()) + ".")
    out.append("")
    out.append("Versions: " + "; ".join(f"{k}: {v}" for k, v in versions.items()) + ".")
    out += ["", _table(TIMING_HEADER, [_timing_row(r) for r in results]), ""]
    header, rows = _count_rows(results, lintgv_families)
    out += [_table(header, rows), ""]
    notes = [
        f"- {r.command.tool} {r.command.scenario}: {r.counts.note}"
        for r in results
        if r.counts and r.counts.note
    ]
    out += notes + ([""] if notes else [])
    out += [f"- {line}" for line in verdicts(results)] + [""]
    out += ["Commands (TREE is a copy of the tree, CACHE a fresh folder):", "", "```sh"]
    out += [r.command.shown for r in results if not r.command.skipped] + ["```", ""]
    return "\n".join(out)
