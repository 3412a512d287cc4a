"""Where the server's edits may go: `lintgv fix`'s rule, with the workspace folders as
the tree. A file other than the document a request is about gets an edit only when its
real path is under a workspace folder and it is not hard-linked; the others are refused
with a reason, and a document outside every folder gets no multi-file change."""

import os
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from server_client import Client, Start

UNUSED = "x = 1  # lintgv: ignore[GV101]\n"  # GV902, removed by a safe fix
MAKER = "import tvm\n\n\ndef make():\n    return tvm.ir.GlobalVar('f')\n"
CALLER = "from lib import make\n\n\ndef build(mod):\n    return make()\n"


def _folders(tmp_path: Path) -> tuple[Path, Path]:
    """Return a workspace folder and a folder beside it, outside the workspace."""
    workspace, outside = tmp_path / "ws", tmp_path / "outside"
    workspace.mkdir()
    outside.mkdir()
    (workspace / "lintgv.toml").write_text('tvm-version = "0.16"\n')
    return workspace, outside


def _edited(client: Client) -> set[str]:
    """Return the URIs of every file an applied workspace edit touched."""
    return {
        change.text_document.uri
        for edit in client.applied
        for change in edit.document_changes or []
        if isinstance(change, types.TextDocumentEdit)
    }


async def _fix_workspace(client: Client) -> object:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.fixWorkspaceFiles", arguments=[])
    )


async def test_fix_workspace_edits_no_file_reached_through_a_link_out_or_hard_linked(
    tmp_path: Path, start: Start
) -> None:
    workspace, outside = _folders(tmp_path)
    for path in (workspace / "a.py", outside / "c.py", outside / "h.py"):
        path.write_text(UNUSED)
    (outside / "dir").mkdir()
    (outside / "dir" / "b.py").write_text(UNUSED)
    (workspace / "link.py").symlink_to(outside / "c.py")
    (workspace / "out").symlink_to(outside / "dir")
    os.link(outside / "h.py", workspace / "hard.py")
    client = await start(workspace)

    answer = await _fix_workspace(client)

    inside = (workspace / "a.py").as_uri()
    assert answer == {"applied": True, "fixes": 1, "files": [inside], "cancelled": False}
    assert _edited(client) == {inside}
    # `out/`, a link to a folder outside, is not walked at all (lintgv/discovery.py).
    logged = await client.log_containing(f"{(workspace / 'link.py').as_uri()}: not fixed")
    assert "outside the tree" in logged.message
    await client.log_containing(f"{(workspace / 'hard.py').as_uri()}: not fixed: hard-linked")


@pytest.mark.parametrize("reach", ["outside", "dot-dot", "link", "hard link"])
async def test_fix_file_refuses_a_closed_file_it_may_not_write_naming_it(
    tmp_path: Path, start: Start, reach: str
) -> None:
    workspace, outside = _folders(tmp_path)
    target = outside / "c.py"
    target.write_text(UNUSED)
    uri = {
        "outside": target.as_uri(),
        "dot-dot": workspace.as_uri() + "/../outside/c.py",
        "link": (workspace / "link.py").as_uri(),
        "hard link": (workspace / "hard.py").as_uri(),
    }[reach]
    (workspace / "link.py").symlink_to(target)
    os.link(target, workspace / "hard.py")
    if reach != "hard link":
        os.unlink(workspace / "hard.py")  # a single link: only the path decides
    client = await start(workspace)

    why = "hard-linked" if reach == "hard link" else "outside the tree"
    with pytest.raises(JsonRpcInvalidParams) as raised:
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="lintgv.fixFile", arguments=[uri])
        )
    assert f"lintgv.fixFile: {uri}: not fixed: {why}" in str(raised.value)
    assert client.applied == []


async def _supply_actions(client: Client, path: Path) -> list[types.CodeAction]:
    """Open `path` and return the multi-file actions offered on its GV101."""
    uri = client.open(path)
    (diagnostic,) = [d for d in await client.diagnostics_for(uri, 1) if d.code == "GV101"]
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic]),
        )
    )
    return [
        a
        for a in result or []
        if isinstance(a, types.CodeAction) and a.title.startswith("Pass a GlobalVarSupply")
    ]


async def test_a_multi_file_change_editing_a_file_through_a_link_out_is_not_offered(
    tmp_path: Path, start: Start
) -> None:
    workspace, outside = _folders(tmp_path)
    (workspace / "lib.py").write_text(MAKER)
    (outside / "user.py").write_text(CALLER)
    (workspace / "user.py").symlink_to(outside / "user.py")
    client = await start(workspace)

    assert await _supply_actions(client, workspace / "lib.py") == []
    logged = await client.log_containing("not offered")
    assert f"{workspace / 'user.py'} outside the tree" in logged.message


async def test_the_same_change_is_offered_when_the_caller_is_in_the_folder(
    tmp_path: Path, start: Start
) -> None:
    workspace, _ = _folders(tmp_path)
    (workspace / "lib.py").write_text(MAKER)
    (workspace / "user.py").write_text(CALLER)
    client = await start(workspace)

    (action,) = await _supply_actions(client, workspace / "lib.py")
    assert action.title.endswith("(2 files)")


async def test_a_document_outside_every_workspace_folder_gets_no_multi_file_change(
    tmp_path: Path, start: Start
) -> None:
    # Planned over the document's parent folder, the change would walk it (for /x.py,
    # the whole file system) and edit the files it found there.
    workspace, outside = _folders(tmp_path)
    (outside / "lib.py").write_text(MAKER)
    (outside / "user.py").write_text(CALLER)
    client = await start(workspace)

    assert await _supply_actions(client, outside / "lib.py") == []
