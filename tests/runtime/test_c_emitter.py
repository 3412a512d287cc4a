"""The C emitter: golden output, sanitising, long names and manifest errors."""

import os
from pathlib import Path

import pytest

from lintgv.runtime.c_emitter import emit_model, write_model
from lintgv.runtime.c_names import MAX_NAME_LENGTH, SymbolNamer, identifier_problem
from lintgv.runtime.errors import ManifestError
from lintgv.runtime.manifest import Manifest, load_manifest, parse_manifest

GOLDEN = Path(__file__).parent / "golden"


def test_output_matches_golden_files(tmp_path: Path) -> None:
    manifest = Manifest("mynet", ("run", "fused.add", "fused_add", "conv2d*/"))
    header, source = write_model(emit_model(manifest), tmp_path)
    for path in (header, source):
        golden = GOLDEN / path.name
        if os.environ.get("LINTGV_UPDATE_GOLDEN"):
            golden.write_text(path.read_text())
        assert path.read_text() == golden.read_text()


def test_default_model_uses_tvmgen_default() -> None:
    model = emit_model(Manifest(None, ("run",)))
    assert (model.stem, model.functions[0].symbol) == ("default", "tvmgen_default_run")


@pytest.mark.parametrize("name", ["__init", "_x", "int", "2d", "a-b", "..", "é", "x__y_"])
def test_every_symbol_is_an_unreserved_identifier(name: str) -> None:
    symbol = SymbolNamer("my net").symbol(name)
    assert symbol.startswith("tvmgen_my_net_")
    assert identifier_problem(symbol) is None


def test_names_equal_after_sanitising_stay_apart() -> None:
    namer = SymbolNamer("m")
    assert [namer.symbol(n) for n in ("a.b", "a_b", "a__b")] == [
        "tvmgen_m_a_b",
        "tvmgen_m_a_b_1",
        "tvmgen_m_a_b_2",
    ]


def test_names_equal_after_truncation_stay_apart_and_short() -> None:
    namer = SymbolNamer("m")
    long_a, long_b = "f" * 80 + "_relu", "f" * 80 + "_add"
    symbols = [namer.symbol(n) for n in (long_a, long_b, long_a + "2")]
    assert len(set(symbols)) == 3
    assert all(len(s) - len("tvmgen_m_") <= MAX_NAME_LENGTH for s in symbols)
    assert symbols[0] == "tvmgen_m_" + "f" * 80
    assert all(identifier_problem(s) is None for s in symbols)


@pytest.mark.parametrize(
    ("text", "key", "value"),
    [
        ("[1]", "(document)", "[1]"),
        ('{"model": 3, "functions": ["a"]}', "model", "3"),
        ('{"model": "..", "functions": ["a"]}', "model", "'..'"),
        ('{"model": "m"}', "functions", "None"),
        ('{"model": "m", "functions": []}', "functions", "[]"),
        ('{"functions": ["a", 7]}', "functions[1]", "7"),
        ('{"functions": ["a", ""]}', "functions[1]", "''"),
        ('{"functions": ["run", "x", "run"]}', "functions[2]", "'run'"),
        ('{"functions": ["a"], "extra": 1}', "extra", "1"),
    ],
)
def test_bad_manifest_names_key_and_value(text: str, key: str, value: str) -> None:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text, "m.json")
    message = str(caught.value)
    assert message.startswith(f"m.json: invalid value for `{key}`: {value}")


def test_malformed_json_gives_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{\n  "functions": [\n}')
    with pytest.raises(ManifestError, match=r"bad.json: .*not JSON: .* line 3, column 1"):
        load_manifest(path)


def test_missing_manifest_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="cannot read it"):
        load_manifest(tmp_path / "absent.json")
