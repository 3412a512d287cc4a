"""GitHub workflow commands: levels and escaping."""

from pathlib import Path

from lintgv.model import FileError, Finding, Severity, Span
from lintgv.report.github import error_line, finding_line


def _finding(severity: Severity, span: Span, message: str = "m") -> Finding:
    return Finding("GV101", "direct-global-var", Path("a,b:c.py"), span, message, severity)


def test_single_line_finding_has_columns() -> None:
    line = finding_line(_finding(Severity.WARNING, Span(3, 4, 3, 9)))
    assert line == (
        "::warning file=a%2Cb%3Ac.py,line=3,endLine=3,title=GV101 direct-global-var,"
        "col=5,endColumn=10::GV101 m"
    )


def test_multi_line_finding_has_no_columns() -> None:
    line = finding_line(_finding(Severity.ERROR, Span(3, 4, 5, 1)))
    assert line.startswith("::error ") and "col=" not in line


def test_info_becomes_a_notice_and_newlines_are_escaped() -> None:
    line = finding_line(_finding(Severity.INFO, Span(1, 0, 1, 1), "50% done\nnext"))
    assert line.startswith("::notice ")
    assert line.endswith("::GV101 50%25 done%0Anext")


def test_error_annotation_names_the_position() -> None:
    line = error_line(FileError(Path("x.py"), "not valid UTF-8", line=2, column=9))
    assert line == (
        "::error file=x.py,line=2,col=9,title=lintgv could not check this file::not valid UTF-8"
    )
