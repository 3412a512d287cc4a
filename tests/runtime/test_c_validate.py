"""`validate_manifests` with the real C toolchain (`cc`, `nm`: see tests/conftest.py)."""

import json
from pathlib import Path

import pytest

from lintgv.registry import rule_codes
from lintgv.runtime.c_build import Toolchain
from lintgv.runtime.c_validate import validate_manifests
from lintgv.runtime.symbol_checks import ModelSymbols, check_symbols

pytestmark = pytest.mark.system("cc", "nm")


def manifest(folder: Path, name: str, model: str | None, functions: list[str]) -> Path:
    path = folder / name
    path.write_text(json.dumps({"model": model, "functions": functions}, indent=1))
    return path


def test_toolchain_is_installed() -> None:
    Toolchain().require()


def test_three_models_compile_link_and_run(tmp_path: Path) -> None:
    paths = [
        manifest(tmp_path, "a.json", "mynet", ["run", "fused.add", "fused_add", "__init", "int"]),
        manifest(tmp_path, "b.json", None, ["run", "2d"]),
        manifest(tmp_path, "c.json", "vision-v2", ["run", "f" * 100, "f" * 90]),
    ]
    result = validate_manifests(paths, tmp_path / "build")
    assert (result.findings, result.errors) == ((), ())
    assert result.ran
    assert result.output == "10 calls ok\n"


def test_symbol_clash_between_models_is_a_finding(tmp_path: Path) -> None:
    first = manifest(tmp_path, "a.json", "my_net", ["run"])
    second = manifest(tmp_path, "b.json", "my", ["init", "net.run"])
    result = validate_manifests([first, second], tmp_path / "build")
    assert not result.ran
    [finding] = result.findings
    assert (finding.code, finding.path, finding.span.start_line) == ("GV501", second, 5)
    assert "`tvmgen_my_net_run` is also exported by model `my_net`" in finding.message


def test_same_model_twice_clashes_on_every_symbol(tmp_path: Path) -> None:
    first = manifest(tmp_path, "a.json", "m", ["run", "f"])
    second = manifest(tmp_path, "b.json", "m", ["run"])
    result = validate_manifests([first, second], tmp_path / "build")
    assert [f.code for f in result.findings] == ["GV501"]


def test_bad_manifest_is_an_error_and_others_still_checked(tmp_path: Path) -> None:
    good = manifest(tmp_path, "a.json", "m", ["run"])
    bad = tmp_path / "b.json"
    bad.write_text('{"model": "n", "functions": "run"}')
    result = validate_manifests([good, bad], tmp_path / "build")
    [error] = result.errors
    assert error.path == bad
    assert "`functions`" in error.message
    assert not result.ran


def symbols(*names: str, prefix: str = "tvmgen_m") -> ModelSymbols:
    return ModelSymbols(Path("m.json"), "m", prefix, names)


def test_reserved_identifier_is_caught() -> None:
    found = check_symbols([symbols("tvmgen_m__init", "_tvmgen_m_run")])
    assert [f.code for f in found] == ["GV503", "GV502", "GV503"]
    assert "double underscore" in found[0].message
    assert "starts with an underscore" in found[2].message


def test_symbol_without_prefix_is_caught() -> None:
    [finding] = check_symbols([symbols("main_run")])
    assert finding.code == "GV502"
    assert "lacks the prefix `tvmgen_m_`" in finding.message


def test_over_long_name_part_is_caught() -> None:
    [finding] = check_symbols([symbols("tvmgen_m_" + "x" * 81)])
    assert finding.code == "GV504"


def test_truncation_collision_is_caught_as_a_clash() -> None:
    cut = "tvmgen_m_" + "x" * 80
    found = check_symbols([symbols(cut), symbols(cut)])
    assert [f.code for f in found] == ["GV501"]


def test_every_symbol_finding_is_a_registered_rule_with_its_metadata() -> None:
    long_name = "tvmgen_m_" + "x" * 81
    first = symbols("tvmgen_m__init", "main_run", long_name, "tvmgen_m_int")
    found = check_symbols([first, symbols("tvmgen_m_int")])
    assert sorted({f.code for f in found}) == ["GV501", "GV502", "GV503", "GV504"]
    for finding in found:
        [rule] = rule_codes()[finding.code]
        assert (finding.rule, finding.severity) == (rule.META.name, rule.META.severity)
    # Each message reads as a sentence: the symbol, then what is wrong with it.
    reserved = next(f for f in found if f.code == "GV503")
    assert reserved.message.startswith("C symbol `tvmgen_m__init` contains a double underscore")
