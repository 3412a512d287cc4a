"""The summary of a fix run: a GV2xx finding left alone gives its copy's reason, found by
the finding's subject; another gives its remedy, or why its file was not fixed."""

from pathlib import Path

from lintgv.codemods.unique_names import Skipped
from lintgv.examples import check_snippet
from lintgv.fixing.run import FixRun
from lintgv.fixing.summary import render_summary
from lintgv.model import Applicability, FileError, FileResult, Finding, Fix, Severity, Span
from lintgv.rules.gv203_unique_name_helper_call import UniqueNameHelperCallPython

PRINTER = Path("src/printer.cc")
CACHE = Path("src/cache.cc")


def _finding(code: str, path: Path, helper: str) -> Finding:
    # The message does not name the helper: the subject alone does.
    message = "private unique-name helper; use a NameSupply"
    span = Span(1, 0, 1, 1)
    return Finding(code, "x", path, span, message, Severity.WARNING, subject=helper)


def _run(
    *findings: Finding, errors: tuple[FileError, ...] = (), more: tuple[Skipped, ...] = ()
) -> FixRun:
    left = (
        Skipped("Printer::GetUniqueName", PRINTER, 3, "it returns `Doc`, not a string"),
        Skipped("GetUniqueName", CACHE, 9, "a free function that takes its map"),
        *more,
    )
    untouched = tuple(FileResult(f.path, (f,), ()) for f in findings)
    return FixRun((), untouched, errors, len(findings), True, (), left)


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


def test_a_python_call_gets_the_reason_of_the_copy_it_calls() -> None:
    text = (
        "class Namer:\n    def get_unique_name(self, prefix):\n        return prefix\n\n"
        "    def emit(self, name):\n        return self.get_unique_name(name)\n"
    )
    checked = check_snippet(
        UniqueNameHelperCallPython,
        text,
        "python/namer.py",
        {"extra-unique-name-helpers": ["get_unique_name"]},
    )
    (call,) = checked.findings
    copy = Skipped("Namer.get_unique_name", call.path, 2, "it keeps its names in a list")
    summary = render_summary(_run(call, more=(copy,)), unsafe=True)
    assert "GV203     1  no automatic fix: it keeps its names in a list" in summary


def test_a_finding_with_no_fix_gives_the_remedy_it_carries() -> None:
    finding = Finding(
        "GV301",
        "x",
        Path("src/a.cc"),
        Span(1, 0, 1, 1),
        "global_symbol set; attach it once, as late as possible",
        Severity.WARNING,
        remedy="attach it once, as late as possible",
    )
    summary = render_summary(_run(finding), unsafe=True)
    assert "GV301     1  no automatic fix: by hand, attach it once, as late as possible" in summary


def test_a_fix_in_a_file_fix_may_not_write_gives_why() -> None:
    path = Path("src/linked.cc")
    fix = Fix("Replace", Applicability.SAFE, ())
    finding = Finding("GV901", "x", path, Span(1, 0, 1, 1), "m", Severity.WARNING, fix=fix)
    why = "not fixed: hard-linked (2 links)"
    summary = render_summary(_run(finding, errors=(FileError(path, why, refused=True),)), True)
    assert f"GV901     1  {why}" in summary
