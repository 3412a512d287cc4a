"""`lintgv emit-c`, `lintgv validate` and `lintgv validate-copies` as subprocesses."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.system("cc", "c++", "nm", "bwrap")


def lintgv(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "lintgv", *args], cwd=cwd, capture_output=True, text=True
    )


def write(path: Path, document: object) -> Path:
    path.write_text(json.dumps(document))
    return path


def test_emit_c_writes_header_and_source(tmp_path: Path) -> None:
    write(tmp_path / "m.json", {"model": "mynet", "functions": ["run"]})
    done = lintgv("emit-c", "m.json", "-o", "out", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["out/mynet.h", "out/mynet.c"]
    assert "int32_t tvmgen_mynet_run(void);" in (tmp_path / "out/mynet.h").read_text()


def test_emit_c_bad_manifest_exits_2_naming_key(tmp_path: Path) -> None:
    write(tmp_path / "m.json", {"model": ["x"], "functions": ["run"]})
    done = lintgv("emit-c", "m.json", "-o", "out", cwd=tmp_path)
    assert done.returncode == 2
    assert "m.json: invalid value for `model`: ['x']" in done.stderr
    assert not (tmp_path / "out").exists()


def test_validate_clean_models_exit_0(tmp_path: Path) -> None:
    write(tmp_path / "a.json", {"model": "a", "functions": ["run"]})
    write(tmp_path / "b.json", {"functions": ["run"]})
    done = lintgv("validate", "a.json", "b.json", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the program printed: 2 calls ok" in done.stdout


def test_validate_clash_is_a_json_finding_exit_1(tmp_path: Path) -> None:
    write(tmp_path / "a.json", {"model": "my_net", "functions": ["run"]})
    write(tmp_path / "b.json", {"model": "my", "functions": ["net_run"]})
    done = lintgv("validate", "--format", "json", "a.json", "b.json", cwd=tmp_path)
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report["errors"] == []
    [finding] = report["findings"]
    assert (finding["code"], finding["rule"], finding["path"]) == (
        "GV501",
        "c-symbol-clash",
        "b.json",
    )


def test_validate_copies_reports_differences(tmp_path: Path) -> None:
    (tmp_path / "namer.cc").write_text(
        "#include <string>\n#include <unordered_map>\n\n"
        "class Namer {\n public:\n"
        "  std::string GetUniqueName(std::string name) {\n"
        "    auto it = used_.find(name);\n"
        "    if (it == used_.end()) {\n"
        "      used_[name] = 0;\n"
        "      return name;\n"
        "    }\n"
        "    std::string next = name + std::to_string(++it->second);\n"
        "    used_[next] = 0;\n"
        "    return next;\n"
        "  }\n\n private:\n"
        "  std::unordered_map<std::string, int> used_;\n};\n"
    )
    done = lintgv("validate-copies", "--format", "json", ".", cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    [finding] = json.loads(done.stdout)["findings"]
    assert finding["code"] == "GV511"
    assert "x1 → x_1" in finding["message"]


def test_validate_copies_models_the_configured_release(tmp_path: Path) -> None:
    copy = (Path(__file__).parent / "copies" / "supply_like.cc").read_text()
    (tmp_path / "printer.cc").write_text(copy)
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.24"\n')
    assert lintgv("validate-copies", ".", cwd=tmp_path).returncode == 0
    (tmp_path / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    done = lintgv("validate-copies", ".", cwd=tmp_path)
    assert done.returncode == 1
    assert 'names differ from NameSupply.fresh_name at 2 of 17: v → "", v_1 → _1' in done.stdout


def test_emit_c_into_a_file_exits_2(tmp_path: Path) -> None:
    write(tmp_path / "m.json", {"functions": ["run"]})
    (tmp_path / "taken").write_text("a file, not a folder\n")
    done = lintgv("emit-c", "m.json", "-o", "taken", cwd=tmp_path)
    assert done.returncode == 2
    assert "lintgv: error: cannot write into taken" in done.stderr
    assert (tmp_path / "taken").read_text() == "a file, not a folder\n"
