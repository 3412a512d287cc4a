"""Whole-workspace work: lintgv.checkWorkspace with $/progress and its cancellation, and
pulled diagnostics (textDocument/diagnostic, workspace/diagnostic)."""

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcRequestCancelled
from server_client import Client, Start, cpp_file, python_file, write_project

# A client may name its own progress token in `workDoneToken` without creating it first
# (LSP 3.17, "Work Done Progress"); pytest-lsp warns about it all the same.
pytestmark = pytest.mark.filterwarnings("ignore:Unknown progress token")


def _many_files(root: Path, count: int) -> None:
    folder = root / "src" / "many"
    folder.mkdir(parents=True)
    for index in range(count):
        (folder / f"f{index}.cc").write_text(
            f'GlobalVar F{index}() {{ return GlobalVar("f{index}"); }}\n'
        )


def _kinds(client: Client, token: str) -> list[str]:
    return [v.kind for v in client.progress_reports.get(token, [])]


async def test_check_workspace_reports_progress_and_pushes_closed_files(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root)
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="lintgv.checkWorkspace", work_done_token="scan")
    )
    assert answer == {"files": 2, "findings": 2, "cancelled": 0}
    kinds = _kinds(client, "scan")
    assert kinds[0] == "begin" and kinds[-1] == "end" and "report" in kinds
    for path in (python_file(root), cpp_file(root)):
        (diagnostic,) = await client.diagnostics_for(path.as_uri())
        assert diagnostic.code == "GV101"


async def test_cancel_request_stops_a_workspace_check(tmp_path: Path, start: Start) -> None:
    root = write_project(tmp_path)
    _many_files(root, 300)
    client = await start(root)
    params = types.ExecuteCommandParams(command="lintgv.checkWorkspace", work_done_token="scan")
    request = asyncio.wrap_future(
        client.protocol.send_request(types.WORKSPACE_EXECUTE_COMMAND, params, msg_id="scan-request")
    )
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id="scan-request"))
    with pytest.raises(JsonRpcRequestCancelled):
        await request
    await client.until(lambda: _kinds(client, "scan")[-1:] == ["end"])
    assert client.progress_reports["scan"][-1].message == "cancelled"
    uri = client.open(cpp_file(root))
    assert await client.diagnostics_for(uri, 1)


async def test_the_progress_cancel_button_stops_a_workspace_check(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    _many_files(root, 300)
    client = await start(root)
    params = types.ExecuteCommandParams(command="lintgv.checkWorkspace", work_done_token="scan")
    request = asyncio.ensure_future(client.workspace_execute_command_async(params))
    await client.until(lambda: _kinds(client, "scan")[:1] == ["begin"])
    client.window_work_done_progress_cancel(types.WorkDoneProgressCancelParams(token="scan"))
    assert await request == {"files": 0, "findings": 0, "cancelled": 1}


async def test_pulled_diagnostics_for_a_document_and_the_workspace(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root, options={"diagnosticMode": "pull"})
    assert client.initialized_with is not None
    assert client.initialized_with.capabilities.diagnostic_provider is not None
    uri = client.open(python_file(root))
    report = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert [d.code for d in report.items] == ["GV101"]
    # Settings that change nothing (the client's answer to workspace/configuration may
    # arrive between two pulls) leave the report unchanged.
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"lintgv": {"diagnosticMode": "pull"}})
    )
    again = await client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            previous_result_id=report.result_id,
        )
    )
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    workspace = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    by_uri = {item.uri: item for item in workspace.items}
    assert set(by_uri) == {uri, cpp_file(root).as_uri()}
    assert by_uri[uri].version == 1
    assert all(isinstance(i, types.WorkspaceFullDocumentDiagnosticReport) for i in by_uri.values())
    known = [types.PreviousResultId(uri=i.uri, value=i.result_id) for i in workspace.items]
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text="x = 1\n")],
        )
    )
    second = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=known)
    )
    kinds = {item.uri: type(item) for item in second.items}
    assert kinds == {
        uri: types.WorkspaceFullDocumentDiagnosticReport,
        cpp_file(root).as_uri(): types.WorkspaceUnchangedDocumentDiagnosticReport,
    }
    assert client.published == []
