"""GV101's C++ trigger decides which files are parsed at all: it must match wherever a
construction can be, and skip the files that only mention GlobalVar as a type."""

import re
from pathlib import Path

import pytest

from lintgv.config import Config
from lintgv.engine import check
from lintgv.model import Language, SourceFile
from lintgv.rules.gv101_direct_global_var import DirectGlobalVarCpp

CONSTRUCTIONS = [
    'GlobalVar gv = GlobalVar("main");',
    'auto gv = tvm::GlobalVar ("main");',
    'GlobalVar gv /* name */ ("main");',
    'GlobalVar gv{"main"};',
    'const GlobalVar gv("main");',
    "GlobalVar gv(name);",
    'GlobalVar a, b("main");',
    'GlobalVar a, *p, b("main");',
    'GlobalVar a = Lookup(x), b("main");',
    "auto n = make_object<GlobalVarNode>(name);",
    "auto n = tvm::make_object<tvm::GlobalVarNode >(name);",
    'return relay::GlobalVar(\n      "main");',
]

MENTIONS = [
    "void Visit(const GlobalVar& gv, const PrimFunc& f);",
    "GlobalVar gv;",
    "GlobalVar gv = GetRef<GlobalVar>(op);",
    "GlobalVar gv = mod->GetGlobalVar(name);",
    "Map<GlobalVar, BaseFunc> functions;",
    "if (auto* n = op.as<GlobalVarNode>()) {}",
    "using tvm::GlobalVar;",
    "ObjectRef x = GlobalVar::ContainerType();",
]


@pytest.mark.parametrize("line", CONSTRUCTIONS)
def test_every_construction_is_found(line: str, tmp_path: Path) -> None:
    text = f"void F(IRModule mod, String name, GlobalVar x) {{\n  {line}\n}}\n"
    source = SourceFile(tmp_path / "a.cc", Language.CPP, text)
    findings = [f for f in check(source, Config(root=tmp_path)).findings if f.code == "GV101"]
    assert [f.span.start_line for f in findings] == [2]


@pytest.mark.parametrize("line", MENTIONS)
def test_a_mention_that_cannot_construct_does_not_trigger(line: str, tmp_path: Path) -> None:
    statement, _ = DirectGlobalVarCpp.triggers(Config(root=tmp_path))
    assert not re.search("|".join(statement), line)


def test_a_declaration_with_an_initialiser_list_triggers(tmp_path: Path) -> None:
    statement, _ = DirectGlobalVarCpp.triggers(Config(root=tmp_path))
    assert re.search("|".join(statement), 'GlobalVar gv = {"main"};')
