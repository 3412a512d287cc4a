"""A quick fix passes the applier's check before it is offered: an edit whose place does
not hold the text it replaces is never sent to the editor (as `lintgv fix` refuses it)."""

from pathlib import Path
from typing import Any

import pytest
from lintgv_server import analysis as analysis_module
from lintgv_server.actions import quick_fix
from lintgv_server.analysis import Analysis
from pygls.workspace.position_codec import PositionCodec

from lintgv.config import Config
from lintgv.discovery import Candidate
from lintgv.engine import check
from lintgv.model import (
    Applicability,
    Edit,
    FileResult,
    Finding,
    Fix,
    Language,
    Severity,
    SourceFile,
    Span,
)

TEXT = "import tvm\ngv = tvm.ir.GlobalVar('f')\n"
SITE = Span(2, 5, 2, 26)


def _analysis() -> Analysis:
    target = Candidate(Path("/p/a.py"), Language.PYTHON, Config(root=Path("/p")), "a")
    return Analysis("file:///p/a.py", 1, 0, TEXT, target)


def _finding(old: str) -> Finding:
    fix = Fix("Use a supply", Applicability.UNSAFE, (Edit(SITE, "supply.fresh_global('f')", old),))
    return Finding("GV101", "direct-global-var", Path("/p/a.py"), SITE, "m", Severity.WARNING, fix)


def test_a_quick_fix_whose_edit_finds_its_text_is_offered() -> None:
    finding = _finding("tvm.ir.GlobalVar('f')")
    action = quick_fix(_analysis(), PositionCodec(), finding, finding, None, False)
    assert action is not None and action.edit is not None


def test_a_quick_fix_whose_edit_finds_other_text_is_not_offered() -> None:
    finding = _finding("something else")
    assert quick_fix(_analysis(), PositionCodec(), finding, finding, None, False) is None


IN_A_PASS = "import tvm\n\n\ndef f(mod, x):\n    gv = tvm.ir.GlobalVar('f')\n    mod[gv] = x\n"


def _checked(text: str) -> Analysis:
    target = Candidate(Path("/p/a.py"), Language.PYTHON, Config(root=Path("/p")), "a")
    result = check(SourceFile(target.path, Language.PYTHON, text), target.config)
    return Analysis("file:///p/a.py", 1, 0, text, target, result)


def test_quick_fixes_reuse_the_check_the_diagnostics_came_from(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    whole: list[str] = []

    def counted(source: SourceFile, *args: object, **kwargs: Any) -> FileResult:
        whole.append(source.text)
        return check(source, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(analysis_module, "check", counted)
    analysis = _checked(IN_A_PASS)
    [finding] = analysis.fix_findings()
    assert finding.fix is not None and whole == []
    settled = analysis.settled(unsafe=True)
    assert settled is not None and settled.applied
    assert whole and IN_A_PASS not in whole  # only fixed texts were checked, to prove them
    # With CRLF line ends fixes are computed on another text: it is checked whole.
    crlf = _checked(IN_A_PASS.replace("\n", "\r\n"))
    assert crlf.fix_findings() and whole[-1] == IN_A_PASS


def test_a_document_that_does_not_parse_offers_no_quick_fix() -> None:
    # The diagnostics' partial parse keeps the site's lines, not the broken function's:
    # its fixes are not reused, and the whole parse, which fails, offers none.
    broken = _checked(IN_A_PASS + "\n\ndef broken(:\n    pass\n")
    assert [f.code for f in broken.result.findings] == ["GV101"]
    assert broken.fix_findings() == ()
    settled = broken.settled(unsafe=True)
    assert settled is not None and not settled.applied
