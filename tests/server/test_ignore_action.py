""" "Ignore GVxxx on this line" only offers a comment that is a comment where it goes: not
after a `\\` that continues a Python line (a syntax error), not inside a C++ string
continued with `\\` or a raw string (where it would change the string)."""

from pathlib import Path

import pytest
from lintgv_server.actions import ignore_action
from lintgv_server.analysis import Analysis
from pygls.workspace.position_codec import PositionCodec
from server_client import apply_text_edits

from lintgv.config import Config
from lintgv.discovery import Candidate
from lintgv.engine import check
from lintgv.model import Language, SourceFile

PYTHON = "import tvm\n\ndef f(mod):\n    gv = {}\n    mod[gv] = 1\n"
CPP = 'void f(IRModule mod) {{\n  GlobalVar gv("a");{}\n  mod->Add(gv, f);\n}}\n'


def _analysis(name: str, text: str) -> Analysis:
    language = Language.PYTHON if name.endswith(".py") else Language.CPP
    target = Candidate(Path("/p") / name, language, Config(root=Path("/p")), "a")
    result = check(SourceFile(target.path, language, text), target.config)
    return Analysis(f"file:///p/{name}", 1, 0, text, target, result)


def _ignored(name: str, text: str) -> str | None:
    """Return the text with the ignore action of its GV101 applied (None: not offered)."""
    analysis = _analysis(name, text)
    [finding] = [f for f in analysis.result.findings if f.code == "GV101"]
    action = ignore_action(analysis, PositionCodec(), finding, None, False)
    if action is None:
        return None
    assert action.edit is not None and action.edit.changes is not None
    return apply_text_edits(text, action.edit.changes[analysis.uri])


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("continued.py", PYTHON.format('tvm.ir.GlobalVar("a") + \\\n        1')),
        ("string.cc", CPP.format(' const char* s = "x\\\n  y";')),
        ("raw.cc", CPP.format(' auto s = R"(\n  y)";')),
    ],
)
def test_no_ignore_comment_is_offered_where_it_would_not_be_a_comment(name: str, text: str) -> None:
    assert _ignored(name, text) is None


@pytest.mark.parametrize(
    ("name", "text"),
    [
        ("plain.py", PYTHON.format('tvm.ir.GlobalVar("a")')),
        ("plain.cc", CPP.format("")),
        ("closed.cc", CPP.format(' const char* s = "x";')),
    ],
)
def test_an_ignore_comment_that_is_a_comment_silences_the_finding(name: str, text: str) -> None:
    ignored = _ignored(name, text)
    assert ignored is not None and "lintgv: ignore[GV101]" in ignored
    assert [f.code for f in _analysis(name, ignored).result.findings] == []
