"""Suppressions apply before fixes are planned: a site kept by hand with a suppression
comment does not shape the fix of another site (GV101 plans one shared supply for the
sites of a function, and a suppressed site must not count among them)."""

from pathlib import Path

import pytest

from tests.cli.conftest import Lintgv

PYTHON = """from tvm import relay


def build(mod, f, g):
{kept}    gv2 = relay.GlobalVar("g2")
    mod[gv2] = g
    return mod
"""
PYTHON_KEPT = [
    '    gv = relay.GlobalVar("g1")  # lintgv: ignore[GV101]\n    mod[gv] = f\n',
    # A suppression on the statement's first line covers a call on a later line.
    '    mod[relay.GlobalVar(  # lintgv: ignore[GV101]\n        "g1"\n    )] = f\n',
]
CPP = """#include <tvm/ir/module.h>

namespace tvm {{
void Build(IRModule mod, BaseFunc f, BaseFunc g) {{
{kept}  GlobalVar gv2("g2");
  mod->Add(gv2, g);
}}
}}  // namespace tvm
"""
CPP_KEPT = [
    '  GlobalVar gv("g1");  // lintgv: ignore[GV101]\n  mod->Add(gv, f);\n',
    '  mod->Add(  // lintgv: ignore[GV101]\n      GlobalVar("g1"), f);\n',
    # A name built twice in a function is looked up again (UniqueGlobalFor) unless one of
    # the two is kept by hand.
    '  GlobalVar gv("g2");  // lintgv: ignore[GV101]\n  mod->Add(gv, f);\n',
]


@pytest.mark.parametrize(
    ("name", "template", "kept"),
    [("a.py", PYTHON, k) for k in PYTHON_KEPT] + [("a.cc", CPP, k) for k in CPP_KEPT],
)
def test_a_suppressed_site_leaves_the_other_sites_fix_as_without_it(
    lintgv: Lintgv, tmp_path: Path, name: str, template: str, kept: str
) -> None:
    fixed = {}
    for folder, text in (
        ("with", template.format(kept=kept)),
        ("without", template.format(kept="")),
    ):
        root = tmp_path / folder
        root.mkdir()
        (root / name).write_text(text)
        done = lintgv("fix", "--unsafe", "--no-cache", ".", cwd=root)
        assert done.returncode == 0, done.stdout + done.stderr
        fixed[folder] = (root / name).read_text()
        after = lintgv("check", "--no-cache", ".", cwd=root)
        assert after.returncode == 0, after.stdout  # the suppression is used, nothing left
    assert kept in fixed["with"], "the suppressed site was changed"
    assert fixed["with"].replace(kept, "") == fixed["without"]
    assert fixed["with"] != template.format(kept=kept), "the other site was not fixed"
