"""The summary of a fix run: a GV2xx finding left alone gives its copy's reason."""

from pathlib import Path

from lintgv.codemods.unique_names import Skipped
from lintgv.fixing.run import FixRun
from lintgv.fixing.summary import render_summary
from lintgv.model import FileResult, Finding, Severity, Span

PRINTER = Path("src/printer.cc")
CACHE = Path("src/cache.cc")


def _finding(code: str, path: Path, helper: str) -> Finding:
    message = f"unique-name helper `{helper}`; use a NameSupply"
    return Finding(code, "x", path, Span(1, 0, 1, 1), message, Severity.WARNING)


def _run(*findings: Finding) -> FixRun:
    left = (
        Skipped("Printer::GetUniqueName", PRINTER, 3, "it returns `Doc`, not a string"),
        Skipped("GetUniqueName", CACHE, 9, "a free function that takes its map"),
    )
    untouched = tuple(FileResult(f.path, (f,), ()) for f in findings)
    return FixRun((), untouched, (), len(findings), True, (), left)


def test_a_call_gets_the_reason_of_the_copy_in_its_file() -> None:
    summary = render_summary(_run(_finding("GV203", PRINTER, "GetUniqueName")), unsafe=True)
    assert "GV203     1  no automatic fix: it returns `Doc`, not a string" in summary


def test_a_qualified_helper_gets_its_own_copy_reason() -> None:
    finding = _finding("GV201", CACHE, "Printer::GetUniqueName")
    assert "GV201     1  no automatic fix: it returns `Doc`" in render_summary(_run(finding), True)


def test_a_call_elsewhere_to_an_ambiguous_name_points_to_the_list() -> None:
    finding = _finding("GV203", Path("src/other.cc"), "GetUniqueName")
    summary = render_summary(_run(finding), unsafe=True)
    assert "no automatic fix: see the unique-name copies left as they are, below" in summary


def test_a_python_copy_says_it_is_left_to_a_human() -> None:
    finding = _finding("GV201", Path("python/namer.py"), "Namer.get_unique_name")
    summary = render_summary(_run(finding), unsafe=True)
    assert "is rewritten; call `name_supply.fresh_name(name)` instead" in summary


def test_a_finding_with_no_fix_gives_the_remedy_of_its_message() -> None:
    finding = Finding(
        "GV301",
        "x",
        Path("src/a.cc"),
        Span(1, 0, 1, 1),
        "global_symbol set; attach it once, as late as possible",
        Severity.WARNING,
    )
    summary = render_summary(_run(finding), unsafe=True)
    assert "GV301     1  no automatic fix: by hand, attach it once, as late as possible" in summary
