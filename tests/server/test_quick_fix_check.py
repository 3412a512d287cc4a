"""A quick fix passes the applier's check before it is offered: an edit whose place does
not hold the text it replaces is never sent to the editor (as `lintgv fix` refuses it)."""

from pathlib import Path

from lintgv_server.actions import quick_fix
from lintgv_server.analysis import Analysis
from pygls.workspace.position_codec import PositionCodec

from lintgv.config import Config
from lintgv.discovery import Candidate
from lintgv.model import Applicability, Edit, Finding, Fix, Language, Severity, Span

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
