"""The editor and `lintgv check` are one analysis: the workspace's pulled diagnostics are
the findings `check` reports for the same tree — the same codes, places and messages —
on TVM-shaped projects whose unique-name helpers and thin wrappers live in other files."""

import json
import shutil
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from lsprotocol import types
from server_client import Start

ROOT = Path(__file__).parent.parent.parent
FIXTURES = ROOT / "tests" / "fixtures"

# Added to check_project: a header that declares a helper whose definition elsewhere is
# a thin wrapper of a NameSupply, and a caller of it: GV202 and GV203 depend on what the
# other file holds.
WRAPPED = {
    "printer.h": (
        "#include <string>\n\nclass RelayTextPrinter {\n public:\n"
        "  Doc GetUniqueName(const std::string& prefix);\n  NameSupply name_supply_;\n};\n"
    ),
    "printer.cc": (
        '#include "printer.h"\n\nDoc RelayTextPrinter::GetUniqueName(const std::string& prefix) {\n'
        "  return Doc::Text(name_supply_->FreshName(prefix));\n}\n"
    ),
    "caller.cc": (
        '#include "printer.h"\n\nDoc Print(RelayTextPrinter* p) { return p->GetUniqueName("x"); }\n'
    ),
}

Place = tuple[str, str, int, int, str]


def _copy(name: str, root: Path) -> Path:
    if name == "example":
        shutil.copytree(ROOT / "examples" / "tvm_like", root)
    elif name == "wrapped":
        shutil.copytree(FIXTURES / "check_project", root)
        for file, text in WRAPPED.items():
            (root / "src" / file).write_text(text)
    else:
        shutil.copytree(FIXTURES / name, root)
    return root


def _check(root: Path) -> set[Place]:
    command = [sys.executable, "-m", "lintgv", "check", "--no-cache", "--format", "json", "."]
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode in (0, 1), done.stderr
    return {
        (f["path"], f["code"], f["line"], f["column"], f["message"])
        for f in json.loads(done.stdout)["findings"]
    }


def _relative(uri: str, root: Path) -> str:
    return Path(unquote(urlparse(uri).path)).relative_to(root.resolve()).as_posix()


@pytest.mark.parametrize(
    "project", ["example", "check_project", "fix_unique_names", "thread_project", "wrapped"]
)
async def test_workspace_diagnostics_are_the_findings_of_check(
    tmp_path: Path, start: Start, project: str
) -> None:
    root = _copy(project, tmp_path / project)
    expected = _check(root)
    assert expected, "a project with nothing to find compares nothing"
    client = await start(root, options={"diagnosticMode": "pull"})
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    shown = {
        (
            _relative(item.uri, root),
            str(d.code),
            d.range.start.line + 1,
            d.range.start.character + 1,
            d.message,
        )
        for item in report.items
        if isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
        for d in item.items
        if d.source == "lintgv"
    }
    assert shown == expected
