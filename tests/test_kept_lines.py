"""A report reads the same lines from what `lintgv check` keeps of a file as from the whole
file: the text report's source line, and the fingerprints that baselines, SARIF and GitLab
reports match findings by."""

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from lintgv.baseline import fingerprints
from lintgv.cli_check import KeptLines
from lintgv.model import Finding, Severity, Span
from lintgv.report import text

PATH = Path("a.py")
LINES = st.lists(st.sampled_from(["", "  ", "\t", "x = 1", "  gv = GlobalVar('f')", "y"]))


def _finding(start: int, end: int, start_col: int, end_col: int) -> Finding:
    span = Span(start, start_col, end, end_col)
    return Finding("GV101", "direct-global-var", PATH, span, "m", Severity.WARNING)


FINDINGS = st.lists(
    st.builds(
        _finding,
        st.integers(-1, 12),
        st.integers(-1, 12),
        st.integers(0, 6),
        st.integers(0, 6),
    ),
    max_size=4,
)


@settings(max_examples=400)
@given(LINES, FINDINGS)
def test_reports_read_the_same_from_the_kept_lines(lines: list[str], found: list[Finding]) -> None:
    spans = [(f.span.start_line - 1, f.span.end_line - 1) for f in found]
    kept = KeptLines(lines, spans)
    assert len(kept) == len(lines)
    for finding in found:
        assert fingerprints(finding, kept) == fingerprints(finding, lines)
    shown = text.render(found, [], {"a.py": kept})
    assert shown == text.render(found, [], {"a.py": lines})


def test_only_the_lines_findings_read_are_kept() -> None:
    lines = ["import tvm", "", "x = 1", "", "", "gv = GlobalVar('f')", "", "y = 2", "z = 3"]
    kept = KeptLines(lines, [(5, 5)])
    # The finding's line and the nearest line that is not blank on either side.
    assert list(kept) == ["", "", "x = 1", "", "", "gv = GlobalVar('f')", "", "y = 2", ""]
    assert kept[-4] == "gv = GlobalVar('f')"
    assert kept[2:6] == ["x = 1", "", "", "gv = GlobalVar('f')"]
