"""The GitHub Action (action.yml), run step by step as a runner runs a composite action:
each `run:` script under `bash --noprofile --norc -eo pipefail`, with `${{ inputs.* }}` and
`${{ github.action_path }}` resolved in its environment, RUNNER_TEMP and GITHUB_OUTPUT
set. The install step really builds lintgv from this checkout into a fresh venv, with pip,
which fetches lintgv's dependencies from a package index (the tests marked `network`)."""

import json
import os
import re
import subprocess
from collections.abc import Mapping
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).parent.parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
_EXPRESSION = re.compile(r"\$\{\{\s*([\w.-]+)\s*\}\}")


def _resolve(text: str, inputs: Mapping[str, str]) -> str:
    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name == "github.action_path":
            return str(ROOT)
        if name.startswith("inputs."):
            key = name.removeprefix("inputs.")
            return inputs.get(key, str(ACTION["inputs"][key].get("default", "")))
        raise AssertionError(f"the test runner does not know `{name}`")

    return _EXPRESSION.sub(value, text)


def _run_action(workspace: Path, temp: Path, **inputs: str) -> tuple[int, str, dict[str, str]]:
    """Run every step in order; return the last exit code, all output and the outputs."""
    output_file = temp / "github_output"
    output_file.touch()
    printed = []
    status = 0
    for step in ACTION["runs"]["steps"]:
        assert "run" in step and step["shell"] == "bash", "only bash steps are emulated"
        assert _EXPRESSION.search(step["run"]) is None, "inputs must reach scripts by env"
        env = {
            **os.environ,
            "RUNNER_TEMP": str(temp),
            "GITHUB_OUTPUT": str(output_file),
            **{k: _resolve(str(v), inputs) for k, v in step.get("env", {}).items()},
        }
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
            cwd=workspace,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        printed.append(result.stdout + result.stderr)
        status = result.returncode
        if status != 0:
            break
    outputs = dict(
        line.split("=", 1) for line in output_file.read_text().splitlines() if "=" in line
    )
    return status, "".join(printed), outputs


@pytest.fixture(scope="module")
def runner_temp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # One venv for the module: the install step builds lintgv once.
    return tmp_path_factory.mktemp("runner")


@pytest.mark.network
def test_the_action_annotates_findings_writes_sarif_and_fails(
    runner_temp: Path, tmp_path: Path
) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "passes.py").write_text("import tvm\ngv = tvm.ir.GlobalVar('f')\n")
    (tmp_path / "clean.py").write_text("x = 1\n")
    inputs = {"paths": "src clean.py", "sarif-file": "out.sarif"}
    status, printed, outputs = _run_action(tmp_path, runner_temp, **inputs)
    assert status == 1, printed
    assert outputs["exit-code"] == "1"
    assert "::warning file=src/passes.py,line=2," in printed
    log = json.loads((tmp_path / "out.sarif").read_text())
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["GV101"]


@pytest.mark.network
def test_the_action_passes_on_a_clean_tree_and_hands_on_extra_arguments(
    runner_temp: Path, tmp_path: Path
) -> None:
    (tmp_path / "passes.py").write_text("import tvm\ngv = tvm.ir.GlobalVar('f')\n")
    status, printed, outputs = _run_action(tmp_path, runner_temp, args="--ignore GV101")
    assert (status, outputs["exit-code"]) == (0, "0"), printed
    assert not (tmp_path / "out.sarif").exists()
    status, printed, _ = _run_action(tmp_path, runner_temp, args="--select GV999")
    assert status == 2
    assert "GV999" in printed


def test_the_source_input_chooses_what_is_installed(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-lintgv"
    status, printed, _ = _run_action(tmp_path, tmp_path, source=str(missing))
    assert status != 0
    assert str(missing) in printed  # pip was asked for it, not for the action's checkout
    assert not (tmp_path / "lintgv-venv" / "bin" / "lintgv").exists()


@pytest.mark.network
def test_an_input_cannot_inject_a_command(runner_temp: Path, tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("x = 1\n")
    marker = tmp_path / "pwned"
    status, printed, _ = _run_action(tmp_path, runner_temp, paths=f"a.py; touch {marker}")
    assert not marker.exists()
    assert status == 2, printed  # `;` and `touch` are taken as paths, which do not exist


def test_the_readme_uses_the_action_with_inputs_it_has() -> None:
    section = (ROOT / "README.md").read_text(encoding="utf-8").split("### In CI", 1)[1]
    snippet = section.split("```yaml", 1)[1].split("```", 1)[0]
    [step] = [s for s in yaml.safe_load(snippet) if "lintgv" in s.get("uses", "")]
    assert set(step["with"]) <= set(ACTION["inputs"])


def test_docs_output_lists_every_input_of_the_action() -> None:
    section = (ROOT / "docs" / "output.md").read_text(encoding="utf-8").split("## In CI", 1)[1]
    table = section.split("| input |", 1)[1].split("\n\n", 1)[0]
    documented = re.findall(r"^\| `([\w-]+)` \|", table, flags=re.MULTILINE)
    assert documented == list(ACTION["inputs"])
