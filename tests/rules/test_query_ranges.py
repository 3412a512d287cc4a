"""A rule whose matches hold its trigger queries only the declarations around the
trigger, and finds exactly what a query of the whole file finds."""

import re
from pathlib import Path

import pytest

from lintgv.config import Config
from lintgv.engine import check
from lintgv.model import Language, SourceFile
from lintgv.parsing.cpp import parse_cpp
from lintgv.rules.gv101_direct_global_var import DirectGlobalVarCpp

FILLER = "".join(f"int Filler{i}(int x) {{\n  return x + {i};\n}}\n" for i in range(60))
PIECES = [
    "namespace tvm {\nnamespace relay {\nGlobalVar Make(IRModule mod) {\n"
    '  GlobalVar gv("main");\n  mod->Add(gv, f);\n  return gv;\n}\n}  // namespace relay\n'
    "}  // namespace tvm\n",
    '#ifdef TVM_USE_X\nstatic GlobalVar g = GlobalVar("x");\n#endif\n',
    'class Lifter {\n  GlobalVar Lift() { return GlobalVar("lifted"); }\n};\n',
    "auto n = make_object<GlobalVarNode>();\n",
    'MACRO_WITHOUT_SEMICOLON(x)\nvoid F(IRModule m) { m->Add(GlobalVar("f"), g); }\n',
    "// GlobalVar in a comment only\n",
]


@pytest.mark.parametrize("sparse", [True, False], ids=["sparse", "dense"])
def test_ranged_and_whole_file_queries_find_the_same(
    sparse: bool, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    text = (FILLER if sparse else "").join(PIECES) + (FILLER if sparse else "")
    source = SourceFile(tmp_path / "a.cc", Language.CPP, text)
    config = Config(root=tmp_path)
    ranged = check(source, config)
    monkeypatch.setattr(DirectGlobalVarCpp, "MATCHES_HOLD_TRIGGER", False)
    whole = check(source, config)
    assert len([f for f in whole.findings if f.code == "GV101"]) >= 5
    assert ranged == whole
    ranges = parse_cpp(text).declarations_around(re.compile(b"GlobalVar"), 32)
    assert ranges is not None
    # The sparse file is queried by ranges; the dense one (most of it triggers) whole.
    assert (sum(end - start for start, end in ranges) < len(text) // 2) == sparse
