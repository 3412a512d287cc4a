"""No default command and no editor request runs code of the analysed tree: a hostile tree
whose unique-name copies create a marker file when run is checked, fixed every way,
baselined and served, and the marker never appears."""

from pathlib import Path

import pytest
from hostile import hostile_tree, run_lintgv
from lsprotocol import types
from server_client import Start

COMMANDS = {
    "check": ("check", "--no-cache"),
    "fix": ("fix", "--no-cache"),
    "fix-diff": ("fix", "--no-cache", "--diff"),
    "fix-unsafe": ("fix", "--no-cache", "--unsafe"),
    "fix-unsafe-diff": ("fix", "--no-cache", "--unsafe", "--diff"),
    "baseline": ("baseline", "-o", "baseline.json"),
}


@pytest.mark.parametrize("command", COMMANDS.values(), ids=COMMANDS.keys())
def test_no_command_runs_code_of_the_tree(tmp_path: Path, command: tuple[str, ...]) -> None:
    marker = tmp_path / "marker"
    root = hostile_tree(tmp_path / "tree", marker)
    result = run_lintgv(*command, ".", cwd=root)
    assert result.returncode in (0, 1), result.stderr
    # It saw the copy (baseline writes its findings to a file instead).
    assert "GetUniqueName" in result.stdout + result.stderr or command[0] == "baseline"
    assert not marker.exists(), f"`lintgv {' '.join(command)}` ran a copy of the tree"


@pytest.mark.system("c++", "bwrap")
def test_the_copies_do_run_when_asked_in_the_sandbox(tmp_path: Path) -> None:
    """The control: the hostile C++ copy compiles and runs (so the test above means
    something); with --prove-names it runs in the sandbox, where the marker's folder does
    not exist, and its names prove the rewrite safe."""
    marker = tmp_path / "marker"
    root = hostile_tree(tmp_path / "tree", marker)
    result = run_lintgv("fix", "--no-cache", "--prove-names", "--diff", ".", cwd=root)
    assert "Would replace 1 unique-name copy with a supply" in result.stderr, result.stderr
    assert "+  NameSupply name_supply_" in result.stdout
    assert not marker.exists()


async def test_no_editor_request_runs_code_of_the_tree(tmp_path: Path, start: Start) -> None:
    marker = tmp_path / "marker"
    root = hostile_tree(tmp_path / "tree", marker)
    client = await start(root)
    source = root / "src" / "printer.cc"
    uri = client.open(source)
    diagnostics = await client.diagnostics_for(uri, 1)
    assert "GV201" in {d.code for d in diagnostics}
    document = types.TextDocumentIdentifier(uri=uri)
    everything = types.Range(start=types.Position(0, 0), end=types.Position(60, 0))
    quick = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=document,
            range=everything,
            context=types.CodeActionContext(diagnostics=diagnostics),
        )
    )
    titles = [a.title for a in quick or [] if isinstance(a, types.CodeAction)]
    assert any("NameSupply" in t for t in titles), titles  # the rewrite was planned
    fix_all = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=document,
            range=everything,
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.lintgv"]),
        )
    )
    for action in fix_all or []:
        if isinstance(action, types.CodeAction):
            await client.code_action_resolve_async(action)
    for options in ({}, {"unsafe": True}):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="lintgv.fixFile", arguments=[uri, options])
        )
    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.checkWorkspace", arguments=[])
    )
    assert not marker.exists(), "a request of the editor ran a copy of the tree"
