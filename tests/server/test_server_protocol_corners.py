"""Corners of JSON-RPC and the LSP a client library would not reach: each gets the error
the specifications name, or a warning, and the server serves on and exits cleanly."""

import os
from pathlib import Path
from typing import Any

import pytest
from raw_rpc import RawServer, frame
from server_client import write_project

UNUSED = "x = 1  # lintgv: ignore[GV101]\n"


def _serving(tmp_path: Path) -> RawServer:
    server = RawServer(cwd=tmp_path)
    server.initialize(write_project(tmp_path))
    return server


def _still_serves(server: RawServer, msg_id: int) -> None:
    server.request(msg_id, "workspace/executeCommand", {"command": "lintgv.noSuchCommand"})
    assert server.response(msg_id)["error"]["code"] == -32602


def _shut_down(server: RawServer) -> int:
    server.request(999, "shutdown")
    assert server.response(999)["result"] is None
    server.notify("exit")
    return server.close()


def test_json_nested_deeper_than_the_decoder_goes_gets_a_parse_error(tmp_path: Path) -> None:
    server = _serving(tmp_path)
    nested = b"[" * 100_000 + b"]" * 100_000
    server.write(frame(b'{"jsonrpc":"2.0","id":1,"method":"shutdown","params":' + nested + b"}"))
    error = server.response(None)["error"]
    assert error == {"code": -32700, "message": "Parse error: nested too deeply"}
    _still_serves(server, 2)
    assert _shut_down(server) == 0


@pytest.mark.parametrize(
    ("field", "value", "problem"),
    [
        ("id", {"a": 1}, "its id is dict"),
        ("id", 1.5, "its id is float"),
        ("id", True, "its id is bool"),
        ("method", 5, "its method is int"),
    ],
)
def test_an_id_or_method_json_rpc_does_not_allow_is_an_invalid_request(
    tmp_path: Path, field: str, value: Any, problem: str
) -> None:
    server = _serving(tmp_path)
    message = {"jsonrpc": "2.0", "id": 1, "method": "shutdown", field: value}
    server.send(message)
    error = server.response(None)["error"]
    assert error["code"] == -32600
    assert error["message"].startswith(f"Invalid Request: {problem}")
    _still_serves(server, 2)
    assert _shut_down(server) == 0


def test_a_second_initialize_is_an_invalid_request(tmp_path: Path) -> None:
    server = _serving(tmp_path)
    server.request(1, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})
    assert server.response(1)["error"]["code"] == -32600
    assert _shut_down(server) == 0


def test_a_change_to_a_document_never_opened_is_a_warning(tmp_path: Path) -> None:
    server = _serving(tmp_path)
    uri = (tmp_path / "never_opened.py").as_uri()
    change = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": "x"}]}
    server.notify("textDocument/didChange", change)
    logged = server.wait_for(lambda m: m.get("method") == "window/logMessage")
    assert logged["params"]["type"] == 2  # a warning
    assert logged["params"]["message"].startswith(f"didChange for {uri}, which is not open")
    _still_serves(server, 2)
    assert _shut_down(server) == 0


def _fix_file(server: RawServer, uri: str) -> dict[str, Any]:
    """Ask for lintgv.fixFile and return the workspace/applyEdit the server sends."""
    server.request(1, "workspace/executeCommand", {"command": "lintgv.fixFile", "arguments": [uri]})
    return server.wait_for(lambda m: m.get("method") == "workspace/applyEdit")


def test_shutdown_while_an_apply_edit_is_unanswered_ends_cleanly(tmp_path: Path) -> None:
    server = _serving(tmp_path)
    path = tmp_path / "a.py"
    path.write_text(UNUSED)
    _fix_file(server, path.as_uri())
    assert _shut_down(server) == 0
    logged = [m["params"]["message"] for m in server.seen if m.get("method") == "window/logMessage"]
    assert not [m for m in logged if "error" in m]


def test_fix_file_reaches_a_file_whose_name_is_not_utf8(tmp_path: Path) -> None:
    server = _serving(tmp_path)
    path = Path(os.fsdecode(os.fsencode(tmp_path) + b"/lat\xe9.py"))
    path.write_text(UNUSED)
    uri = path.as_uri()
    assert uri.endswith("/lat%E9.py")
    request = _fix_file(server, uri)
    [(edited, edits)] = request["params"]["edit"]["changes"].items()
    assert edited == uri
    assert [e["range"]["start"] for e in edits] == [{"line": 0, "character": 5}]
    server.send({"jsonrpc": "2.0", "id": request["id"], "result": {"applied": True}})
    assert server.response(1)["result"] == {"applied": True, "fixes": 1}
    assert _shut_down(server) == 0


def test_a_cancel_of_an_id_json_rpc_does_not_allow_is_ignored(tmp_path: Path) -> None:
    server = _serving(tmp_path)
    server.notify("$/cancelRequest", {"id": {"x": 1}})
    _still_serves(server, 2)
    assert _shut_down(server) == 0
    errors = [m for m in server.seen if m.get("method") == "window/logMessage"]
    assert [m["params"]["message"] for m in errors if m["params"]["type"] == 1] == []
