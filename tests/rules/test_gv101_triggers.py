"""GV101's triggers decide which files are parsed at all: they must match wherever a
construction can be, and skip the files that only mention GlobalVar as a type."""

import re
from pathlib import Path

import pytest

from lintgv.config import Config, load_config
from lintgv.engine import check
from lintgv.model import Language, SourceFile
from lintgv.rules.gv101_direct_global_var import DirectGlobalVarCpp, DirectGlobalVarPython

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
    # Several declarators: a comma may lead to the constructing one.
    'GlobalVar a, b = x, c("y");',
    'GlobalVar a, b = {"y"};',
    'GlobalVar a, *b, c = x, d{"z"};',
    'GlobalVar a, b[2], c("y");',
    'GlobalVar a, /* c */ b("x");',
    'GlobalVar a, \\\n  b("x");',
    "auto n = make_object /* x */ <GlobalVarNode>(name);",
    "auto n = make_object\\\n<GlobalVarNode>(name);",
]

MENTIONS = [
    "void Visit(const PrimFunc& f, const GlobalVar& gv);",
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


PYTHON_CONSTRUCTIONS = [
    "import tvm\n\ngv = tvm.ir.GlobalVar('main')\n",
    "from tvm.ir import GlobalVar as GV\n\ngv = GV('main')\n",
    "from tvm.ir import (\n    GlobalVar as GV,\n)\n\ngv = GV('main')\n",
    "import tvm\n\nGV = tvm.ir.GlobalVar\ngv = GV('main')\n",
    "import tvm\n\nGV = tvm.ir.GlobalVar  # the class\ngv = GV('main')\n",
    "import tvm\n\ngv = tvm.ir.GlobalVar \\\n    ('main')\n",
    "import tvm\n\ngv = (tvm.ir.GlobalVar  # the class\n      ('main'))\n",
    "from tvm.ir import GlobalVar\n\ngv = GlobalVar\\\n('main')\n",
    "from tvm.ir import GlobalVar\n\ngv = (GlobalVar)('main')\n",
    "import tvm\n\ngv = (tvm.ir.\n      GlobalVar)('main')\n",
    "def f():\n    from tvm.ir import GlobalVar, Function\n\n    def g():\n"
    "        return GlobalVar('x')\n\n    return g\n",
    "class A:\n    from tvm.ir import GlobalVar, Function\n\n    def m(self):\n"
    "        return GlobalVar('x')\n",
    "try:\n    from tvm.ir import GlobalVar, Function\n"
    + "".join(f"    x{i} = {i}\n" for i in range(45))
    + "except ImportError:\n    pass\ngv = GlobalVar('x')\n",
    "import tvm\nGV = tvm.ir.GlobalVar; other = 1\n\n\ndef f():\n    return GV('y')\n",
    "import tvm\nGV = ((tvm.ir.GlobalVar))\n\n\ndef f():\n    return GV('y')\n",
    "from tvm import ir\nGV = ir.GlobalVar   \ngv = GV('x')\n",
    "import tvm\r\nGV = tvm.ir.GlobalVar\r\ngv = GV('x')\r\n",
]

PYTHON_MENTIONS = [
    "if isinstance(x, GlobalVar):",
    "def f(gv: GlobalVar) -> GlobalVar:",
    "from tvm.ir import GlobalVar, Function",
    "functions: dict[GlobalVar, Function] = {}",
]


@pytest.mark.parametrize("text", PYTHON_CONSTRUCTIONS)
def test_every_python_construction_is_found(text: str, tmp_path: Path) -> None:
    source = SourceFile(tmp_path / "a.py", Language.PYTHON, text)
    config = Config(root=tmp_path)
    partial = [f for f in check(source, config).findings if f.code == "GV101"]
    whole = [f for f in check(source, config, whole=True).findings if f.code == "GV101"]
    assert len(partial) == 1 and partial == whole


@pytest.mark.parametrize("line", PYTHON_MENTIONS)
def test_a_python_mention_that_cannot_construct_does_not_trigger(line: str, tmp_path: Path) -> None:
    assert not re.search("|".join(DirectGlobalVarPython.gate(Config(root=tmp_path))), line + "\n")


def test_an_extra_constructor_written_with_a_template_is_found(tmp_path: Path) -> None:
    (tmp_path / "lintgv.toml").write_text('extra-constructors = ["Factory<int>::Make"]\n')
    text = 'void F(IRModule mod) {\n  auto k = Factory<int>::Make("q");\n}\n'
    config = load_config(tmp_path / "lintgv.toml")
    source = SourceFile(tmp_path / "a.cc", Language.CPP, text)
    assert [f.span.start_line for f in check(source, config).findings] == [2]


def test_every_trigger_scan_is_bounded_and_errs_towards_parsing(tmp_path: Path) -> None:
    # A hostile file repeating `GlobalVar a =` before one `;` made each occurrence read to
    # it (minutes for a large file): past the bound, an initialiser may construct.
    statement, _ = DirectGlobalVarCpp.triggers(Config(root=tmp_path))
    pattern = re.compile("|".join(statement))
    assert not pattern.search("GlobalVar gv = " + "x" * 150 + ";")
    assert pattern.search("GlobalVar gv = " + "x" * 250 + ";")
    assert pattern.search("make_object<" + " " * 100 + "GlobalVarNode>()")
