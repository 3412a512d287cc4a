"""A migration plan (lintgv/migration.py) as one self-contained HTML page, for
`lintgv report --html`: a bar chart per directory (inline SVG), the steps, and sortable
tables of directories and findings linked to the rules' pages.

Everything from the analysed tree (paths, messages) is escaped, and the page's own script
runs only with this page's nonce (Content-Security-Policy): a hostile file name cannot
add a script. Nothing is loaded from the network.
"""

import secrets
from collections.abc import Sequence
from html import escape

from lintgv import __version__
from lintgv.links import rule_url
from lintgv.migration import Counts, Plan
from lintgv.model import Applicability, Finding
from lintgv.paths import display_path
from lintgv.report.plan import counted

# (label, key in Counts, colour): the order of the bars' segments and the legend.
_KINDS = (
    ("safe", "safe", "#2e7d32"),
    ("unsafe", "unsafe", "#f9a825"),
    ("across files", "across", "#6a1b9a"),
    ("suggested", "suggested", "#1565c0"),
    ("by hand", "by_hand", "#c62828"),
)
_CHART_DIRECTORIES = 20
_FINDINGS_SHOWN = 5000
_BAR_WIDTH = 560

_STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1100px;
       color: #1b1b1b; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left;
         overflow-wrap: anywhere; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; }
th { cursor: pointer; user-select: none; background: #f5f5f5; position: sticky; top: 0; }
th[aria-sort=ascending]::after { content: " \\25B2"; }
th[aria-sort=descending]::after { content: " \\25BC"; }
.legend span { display: inline-block; margin-right: 1.5em; }
.legend i { display: inline-block; width: 12px; height: 12px; margin-right: 4px; }
code { font-size: 0.95em; } .step { margin: 0.6em 0; }
"""

_SCRIPT = """
for (const table of document.querySelectorAll("table.sortable")) {
  const headers = Array.from(table.tHead.rows[0].cells);
  headers.forEach((th, column) => th.addEventListener("click", () => {
    const descending = th.getAttribute("aria-sort") === "ascending";
    headers.forEach((h) => h.removeAttribute("aria-sort"));
    th.setAttribute("aria-sort", descending ? "descending" : "ascending");
    const numeric = th.classList.contains("n");
    const key = (row) => {
      const cell = row.cells[column];
      const text = cell.dataset.value ?? cell.textContent;
      return numeric ? Number(text) : text;
    };
    const rows = Array.from(table.tBodies[0].rows);
    rows.sort((a, b) => {
      const x = key(a), y = key(b);
      const order = x < y ? -1 : x > y ? 1 : 0;
      return descending ? -order : order;
    });
    table.tBodies[0].append(...rows);
  }));
}
"""


def _counts_cells(counts: Counts) -> str:
    values = [counts.sites] + [getattr(counts, key) for _, key, _ in _KINDS]
    return "".join(f'<td class="n">{v}</td>' for v in values)


def _chart(plan: Plan) -> str:
    shown = plan.directories[:_CHART_DIRECTORIES]
    if not shown:
        return "<p>No sites left.</p>"
    most = max(d.counts.sites for d in shown)
    label_width, row_height = 330, 22
    height = row_height * len(shown) + 10
    parts = [
        f'<svg id="chart" xmlns="http://www.w3.org/2000/svg" role="img" '
        f'width="{label_width + _BAR_WIDTH + 60}" height="{height}" '
        f'aria-label="sites per directory">'
    ]
    for row, directory in enumerate(shown):
        y = row * row_height + 5
        name = directory.path if len(directory.path) <= 45 else "…" + directory.path[-44:]
        parts.append(
            f'<text x="{label_width - 8}" y="{y + 14}" text-anchor="end" font-size="12">'
            f"{escape(name)}</text>"
        )
        x = float(label_width)
        for label, key, colour in _KINDS:
            value = getattr(directory.counts, key)
            if not value:
                continue
            width = _BAR_WIDTH * value / most
            parts.append(
                f'<rect class="bar {key}" x="{x:.1f}" y="{y}" width="{width:.1f}" '
                f'height="{row_height - 6}" fill="{colour}">'
                f"<title>{escape(directory.path)}: {value} {label}</title></rect>"
            )
            x += width
        parts.append(
            f'<text x="{x + 6:.1f}" y="{y + 14}" font-size="12">{directory.counts.sites}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _legend() -> str:
    items = "".join(
        f'<span><i style="background:{colour}"></i>{label}</span>' for label, _, colour in _KINDS
    )
    return f'<p class="legend">{items}</p>'


def _code_links(codes: dict[str, int]) -> str:
    return ", ".join(
        f'<a href="{escape(rule_url(code))}">{code}</a>&nbsp;&times;{count}'
        for code, count in sorted(codes.items())
    )


def _directories(plan: Plan) -> str:
    head = "".join(f'<th class="n">{label}</th>' for label in ["sites", *(k[0] for k in _KINDS)])
    rows = "".join(
        f"<tr><td>{escape(d.path)}</td>{_counts_cells(d.counts)}"
        f"<td>{_code_links(dict(d.codes))}</td></tr>"
        for d in plan.directories
    )
    return (
        f'<table id="directories" class="sortable"><thead><tr><th>directory</th>{head}'
        f"<th>codes</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def _steps(plan: Plan) -> str:
    out = []
    for step in plan.steps:
        counts = step.counts
        command = f"<br><code>{escape(step.command)}</code>" if step.command else ""
        order = escape(", ".join(step.directories))
        if step.phase.multi_file:
            how = "rewritten across files where lintgv can (preview with <code>--diff</code>)"
        else:
            how = f"{counts.safe + counts.unsafe} with a fix, "
            how += f"{counts.across} across files where lintgv can, " if counts.across else ""
            how += f"{counts.suggested + counts.by_hand} by hand"
        out.append(
            f'<div class="step"><b>{step.order}. {escape(step.phase.title)}</b> '
            f"({', '.join(step.phase.codes)}): {counted(counts.sites, 'site')}, {how}; "
            f"{escape(step.phase.why_here)}.<br>In order: {order}{command}</div>"
        )
    return "".join(out)


def _fix_word(finding: Finding) -> str:
    kind = finding.fix.applicability if finding.fix is not None else Applicability.NONE
    return {
        Applicability.SAFE: "safe",
        Applicability.UNSAFE: "unsafe",
        Applicability.DISPLAY: "suggested",
    }.get(kind, "by hand")


def _findings(findings: Sequence[Finding]) -> str:
    shown = findings[:_FINDINGS_SHOWN]
    rows = "".join(
        f'<tr><td data-value="{escape(display_path(f.path))}:{f.span.start_line:09d}">'
        f"{escape(display_path(f.path))}:{f.span.start_line}</td>"
        f'<td><a href="{escape(rule_url(f.code))}">{f.code}</a></td>'
        f"<td>{_fix_word(f)}</td><td>{escape(f.message)}</td></tr>"
        for f in shown
    )
    more = (
        f"<p>The first {len(shown)} of {len(findings)} findings; "
        "<code>lintgv check --format json</code> lists them all.</p>"
        if len(findings) > len(shown)
        else ""
    )
    return (
        f'{more}<table id="findings" class="sortable"><thead><tr><th>where</th><th>code</th>'
        f"<th>fix</th><th>message</th></tr></thead><tbody>{rows}</tbody></table>"
    )


def render(plan: Plan, findings: Sequence[Finding]) -> str:
    """Return the report page."""
    nonce = secrets.token_urlsafe(16)
    total = plan.total
    policy = (
        f"default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-{nonce}'; img-src data:"
    )
    unchecked = (
        f"<p>{counted(plan.unchecked, 'file')} could not be checked "
        "(see <code>lintgv check</code>).</p>"
        if plan.unchecked
        else ""
    )
    sites = counted(total.sites, "site")
    directories = counted(len(plan.directories), "directory", "directories")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{policy}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>lintgv report</title><style>{_STYLE}</style></head>
<body>
<h1>lintgv report</h1>
<p id="summary">{sites} in {directories}:
{total.safe} safe, {total.unsafe} unsafe, {total.across} across files, {total.suggested}
suggested (shown, never applied), {total.by_hand} by hand. lintgv {escape(__version__)}.</p>
{unchecked}
<h2>Sites per directory</h2>
{_legend()}
{_chart(plan)}
<h2>Steps, callees before callers</h2>
{_steps(plan)}
<h2>Directories</h2>
{_directories(plan)}
<h2>Findings</h2>
{_findings(findings)}
<script nonce="{nonce}">{_SCRIPT}</script>
</body></html>
"""
