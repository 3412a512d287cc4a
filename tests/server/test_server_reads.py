"""What the server reads for a request: the open documents, and closed files only as
`lintgv fix` reads them (regular files, within max-file-size). A request about a
document that is not open is refused unread, with a message and no traceback."""

import asyncio
import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from lintgv_server import scan
from lsprotocol import types
from pygls.exceptions import JsonRpcInvalidParams
from raw_rpc import RawServer
from server_client import TIMEOUT, Client, Start, python_file, write_project

from lintgv.config import Config
from lintgv.discovery import Candidate
from lintgv.model import FileError, FileResult, Language
from lintgv.reading import Loaded

UNUSED = "x = 1  # lintgv: ignore[GV101]\n"  # GV902, removed by a safe fix


def _not_open(root: Path) -> list[str]:
    """Return URIs of documents that are not open: a FIFO (a read would wait forever), a
    folder, a file that is not UTF-8, a missing file, and schemes with no file."""
    os.mkfifo(root / "fifo.py")
    (root / "folder.py").mkdir()
    (root / "latin.py").write_bytes(b"x = '\xe9'\n")
    names = ("fifo.py", "folder.py", "latin.py", "missing.py")
    return [(root / n).as_uri() for n in names] + ["untitled:Untitled-1", "https://host/a.py"]


def _code_action(client: Client, uri: str) -> Awaitable[Any]:
    return client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.lintgv"]),
        )
    )


def _resolve(client: Client, uri: str) -> Awaitable[Any]:
    # A fix-all action listed without its edit, as the server lists it; `data` is the
    # client's to send back, so nothing stops it from naming any URI.
    forged = types.CodeAction(title="x", data={"kind": "lintgv.fixAll", "uri": uri})
    return client.code_action_resolve_async(forged)


def _pull(client: Client, uri: str) -> Awaitable[Any]:
    return client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )


@pytest.mark.parametrize(
    ("method", "ask"),
    [
        ("textDocument/codeAction", _code_action),
        ("codeAction/resolve", _resolve),
        ("textDocument/diagnostic", _pull),
    ],
)
async def test_a_request_about_a_document_not_open_is_refused_unread(
    tmp_path: Path,
    start: Start,
    method: str,
    ask: Callable[[Client, str], Awaitable[Any]],
) -> None:
    root = write_project(tmp_path)
    client = await start(root, options={"diagnosticMode": "pull"})
    for uri in _not_open(root):
        with pytest.raises(JsonRpcInvalidParams) as raised:
            await asyncio.wait_for(ask(client, uri), TIMEOUT)
        assert str(raised.value) == (
            f"{method}: {uri} is not open; lintgv answers for open documents only"
        )
    uri = client.open(python_file(root))
    report = await asyncio.wait_for(_pull(client, uri), TIMEOUT)
    assert [d.code for d in report.items] == ["GV101"]  # and it serves on


def test_refused_requests_answer_with_a_message_and_log_one_line_without_traceback(
    tmp_path: Path,
) -> None:
    root = write_project(tmp_path / "ws")
    log = tmp_path / "server.log"
    server = RawServer(cwd=root, log=log)
    server.initialize(root)
    at = {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
    context = {"diagnostics": []}
    requests: list[tuple[str, object]] = [
        ("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": at, "context": context})
        for uri in _not_open(root)
    ]
    requests += [
        ("codeAction/resolve", {"title": "x", "data": {"kind": "lintgv.fixAll", **data}})
        for data in ({}, {"uri": 7})
    ]
    negative = {"line": -1, "character": 0}
    requests.append(
        ("textDocument/hover", {"textDocument": {"uri": root.as_uri()}, "position": negative})
    )
    for msg_id, (method, params) in enumerate(requests, 1):
        server.request(msg_id, method, params)
        error = server.response(msg_id)["error"]
        assert error["code"] == -32602
        assert set(error) == {"code", "message"}  # no `data`: no traceback
        assert method in error["message"]
    server.request(999, "shutdown")
    server.response(999)
    server.notify("exit")
    assert server.close() == 0
    lines = log.read_text().splitlines()
    # The whole log on failure: a line nobody expected is what to look at.
    assert len(lines) == len(requests), "\n".join(lines)
    assert all(line.startswith("lintgv: WARNING: ") for line in lines), "\n".join(lines)


async def test_fix_file_keeps_the_max_file_size_of_a_closed_file(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path, 'tvm-version = "0.16"\nmax-file-size = 100\n')
    path = root / "big.py"
    path.write_text(UNUSED + "# padding\n" * 10)
    client = await start(root)
    with pytest.raises(JsonRpcInvalidParams, match="over max-file-size"):
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="lintgv.fixFile", arguments=[path.as_uri()])
        )
    assert client.applied == []


def test_a_scan_places_diagnostics_reading_no_more_than_max_file_size(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A scan's workers report a file over max-file-size; its error diagnostic is placed
    # on line 1 without reading the file whole to index its lines.
    path = tmp_path / "huge.py"
    path.write_text("x = 1\n" * 100)
    config = Config(max_file_size=200)
    limits: list[int] = []

    def read_source(at: Path, limit: int) -> Loaded | FileError:
        limits.append(limit)
        return FileError(at, "over max-file-size")

    monkeypatch.setattr(scan, "read_source", read_source)
    result = FileResult(path, errors=(FileError(path, "over max-file-size"),))
    scan._read_index(Candidate(path, Language.PYTHON, config, "huge"), result)
    assert limits == [200]
