"""GV101 fixes in Python: before and after, beyond the rule's own examples."""

from collections.abc import Callable
from pathlib import Path

from lintgv.config import Config, apply_settings
from lintgv.edits import apply_edits
from lintgv.engine import check
from lintgv.fixing.settle import settle
from lintgv.model import Applicability, FileResult, Language, SourceFile

ROOT = Path("/project")
HEAD = "import tvm\nfrom tvm import relay\n"
IMPORT = "from tvm.ir.supply import GlobalVarSupply\n"


def _checker(tvm_version: str = "0.16") -> Callable[[str], FileResult]:
    config = apply_settings(Config(root=ROOT), {"tvm-version": tvm_version}, None)

    def run(text: str) -> FileResult:
        source = SourceFile(ROOT / "tests" / "test_a.py", Language.PYTHON, text)
        return check(source, config, whole=True)

    return run


def fixed(code: str, tvm_version: str = "0.16") -> str:
    return settle(code, Language.PYTHON, _checker(tvm_version), unsafe=True).text


def findings(code: str) -> list[tuple[str, str | None]]:
    result = _checker()(code)
    return [(f.message, f.fix.applicability if f.fix else None) for f in result.findings]


def test_a_taken_supply_name_gets_a_counter() -> None:
    code = HEAD + (
        "\n\ndef f(mod: tvm.IRModule, global_var_supply):\n"
        '    a = relay.GlobalVar("a")\n    mod[a] = 1\n'
        '    b = relay.GlobalVar("b")\n    mod[b] = 2\n'
    )
    result = fixed(code)
    assert "    global_var_supply_2 = GlobalVarSupply(mod)\n" in result
    assert 'b = global_var_supply_2.fresh_global("b", False)' in result


def test_sites_in_a_loop_share_a_supply_made_before_the_loop() -> None:
    code = HEAD + (
        "\n\ndef f(names):\n    mod = tvm.IRModule()\n    for name in names:\n"
        "        gv = relay.GlobalVar(name)\n        mod[gv] = 1\n"
        '    main = relay.GlobalVar("main")\n    mod[main] = 2\n'
    )
    assert fixed(code) == HEAD + IMPORT + (
        "\n\ndef f(names):\n    mod = tvm.IRModule()\n"
        "    global_var_supply = GlobalVarSupply(mod)\n"
        "    for name in names:\n        gv = global_var_supply.fresh_global(name, False)\n"
        '        mod[gv] = 1\n    main = global_var_supply.fresh_global("main", False)\n'
        "    mod[main] = 2\n"
    )


def test_the_module_a_global_is_added_to_is_used_inline() -> None:
    code = HEAD + (
        "\n\nclass Ops:\n    def define(self):\n"
        '        take_var = relay.GlobalVar("take")\n        self.prelude.mod[take_var] = 1\n'
    )
    assert 'take_var = GlobalVarSupply(self.prelude.mod).fresh_global("take", False)' in fixed(code)


def test_a_lambda_builds_its_supply_inline() -> None:
    code = HEAD + '\n\ndef f(mod: tvm.IRModule):\n    return lambda: relay.GlobalVar("x")\n'
    assert 'lambda: GlobalVarSupply(mod).fresh_global("x", False)' in fixed(code)


def test_a_class_body_gets_no_fix() -> None:
    code = HEAD + '\n\nclass A:\n    main = relay.GlobalVar("main")\n'
    [(message, applicability)] = findings(code)
    assert applicability is None
    assert message.endswith("no automatic fix: in a class body; no supply can be made")


def test_two_modules_in_scope_make_the_fix_display_only() -> None:
    code = HEAD + '\n\ndef f(a: tvm.IRModule, b: tvm.IRModule):\n    return relay.GlobalVar("x")\n'
    [(_, applicability)] = findings(code)
    assert applicability == Applicability.DISPLAY
    assert fixed(code) == code


def test_a_keyword_name_gets_no_fix() -> None:
    code = HEAD + '\n\ndef f(mod: tvm.IRModule):\n    return relay.GlobalVar(name_hint="x")\n'
    [(message, applicability)] = findings(code)
    assert applicability is None
    assert "passed by keyword" in message


def test_the_import_goes_after_the_docstring_and_future_imports() -> None:
    code = (
        '"""Doc."""\nfrom __future__ import annotations\n\nimport tvm\nfrom tvm import relay\n'
        "x = 1\nimport numpy\n\n\ndef f(mod: tvm.IRModule):\n    return relay.GlobalVar('x')\n"
    )
    assert fixed(code).startswith(
        '"""Doc."""\nfrom __future__ import annotations\n\nimport tvm\nfrom tvm import relay\n'
        + IMPORT
        + "x = 1\n"
    )


def test_an_existing_import_is_not_repeated() -> None:
    code = HEAD + IMPORT + '\n\ndef f(mod: tvm.IRModule):\n    return relay.GlobalVar("x")\n'
    assert fixed(code).count(IMPORT) == 1


def test_a_global_symbol_through_a_variable_uses_unique_global_for() -> None:
    code = HEAD + (
        "\n\ndef f(mod: tvm.IRModule, func):\n"
        '    name = func.attrs["global_symbol"]\n    return relay.GlobalVar(name)\n'
    )
    assert "GlobalVarSupply(mod).unique_global_for(name, False)" in fixed(code)


def test_a_derived_name_is_fresh() -> None:
    code = HEAD + (
        "\n\ndef f(mod: tvm.IRModule, gv):\n    return relay.GlobalVar(gv.name_hint + '_grad')\n"
    )
    assert "fresh_global(gv.name_hint + '_grad', False)" in fixed(code)


def test_a_file_with_a_trailing_line_without_newline_is_fixed() -> None:
    code = HEAD + '\n\ndef f(mod: tvm.IRModule):\n    return relay.GlobalVar("x")'
    assert fixed(code).endswith('    return GlobalVarSupply(mod).fresh_global("x", False)')


def test_a_module_level_site_is_fixed_in_a_whole_parse() -> None:
    code = HEAD + 'mod = tvm.IRModule()\nmain = relay.GlobalVar("main")\nmod[main] = 1\n'
    assert 'main = GlobalVarSupply(mod).fresh_global("main", False)' in fixed(code)


def test_a_name_also_set_as_the_global_symbol_keeps_its_name() -> None:
    code = HEAD + (
        "\n\ndef lift(mod: tvm.IRModule, func, name):\n"
        '    func = func.with_attr("global_symbol", name)\n'
        "    gv = relay.GlobalVar(name)\n    mod[gv] = func\n"
    )
    assert "gv = GlobalVarSupply(mod).unique_global_for(name, False)" in fixed(code)


MULTI_LINE = HEAD + (
    "\n\ndef f(mod: tvm.IRModule, func):\n"
    "    # the lifted function\n"
    '    gv = relay.GlobalVar(\n        "lifted"  # its name\n    )\n    mod[gv] = func\n'
    '    other = relay.GlobalVar("other")\n    mod[other] = func\n'
)


def test_multi_line_calls_keep_comments_and_share_one_supply() -> None:
    assert fixed(MULTI_LINE) == HEAD + IMPORT + (
        "\n\ndef f(mod: tvm.IRModule, func):\n"
        "    global_var_supply = GlobalVarSupply(mod)\n"
        "    # the lifted function\n"
        '    gv = global_var_supply.fresh_global(\n        "lifted", False  # its name\n    )\n'
        "    mod[gv] = func\n"
        '    other = global_var_supply.fresh_global("other", False)\n    mod[other] = func\n'
    )


def test_tvm_0_26_names_globals_with_a_unique_name_supply() -> None:
    assert fixed(MULTI_LINE, "0.26") == HEAD + "from tvm.ir.supply import UniqueNameSupply\n" + (
        "\n\ndef f(mod: tvm.IRModule, func):\n"
        "    global_names = UniqueNameSupply()\n"
        "    for _gvar in mod.get_global_vars():\n"
        "        global_names.reserve_name(_gvar.name_hint, False)\n"
        "    # the lifted function\n"
        "    gv = relay.GlobalVar(\n"
        '        global_names.fresh_name("lifted", False)  # its name\n    )\n'
        "    mod[gv] = func\n"
        '    other = relay.GlobalVar(global_names.fresh_name("other", False))\n'
        "    mod[other] = func\n"
    )


def test_without_supply_or_module_a_new_supply_is_shown_not_applied() -> None:
    code = "import tvm\n\n\ndef make():\n    return tvm.ir.GlobalVar('g')\n"
    [finding] = _checker()(code).findings
    assert finding.fix is not None
    assert finding.fix.applicability == Applicability.DISPLAY
    shown = apply_edits(code, finding.fix.edits)
    assert "    return GlobalVarSupply().fresh_global('g', False)\n" in shown
    assert "from tvm.ir.supply import GlobalVarSupply\n" in shown
    assert "no GlobalVarSupply or IRModule in scope" in finding.message
    assert fixed(code) == code
