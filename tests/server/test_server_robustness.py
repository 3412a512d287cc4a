"""The server under bad conditions: a crashing rule, malformed JSON-RPC, requests after
shutdown, the exit handshake, the editor dying, and TCP instead of stdio."""

import json
import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from raw_rpc import SERVER, TIMEOUT, RawServer, frame, read_message
from server_client import Start, cpp_file, write_project

CRASHING = [sys.executable, str(Path(__file__).with_name("crashing_server.py"))]


async def test_a_crashing_rule_is_logged_and_the_other_rules_still_report(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    client = await start(root, command=CRASHING)
    # A GlobalVar made by hand (GV101, whose check crashes) and a global_symbol set (GV301).
    text = cpp_file(root).read_text() + (
        "PrimFunc Rename(PrimFunc func, const String& name) {\n"
        "  return WithAttr(std::move(func), tvm::attr::kGlobalSymbol, name);\n}\n"
    )
    uri = client.open(cpp_file(root), text)
    diagnostics = await client.diagnostics_for(uri, 1)
    assert [d.code for d in diagnostics] == ["GV301"]
    logged = await client.log_containing("rule GV101 crashed")
    assert "injected crash" in logged.message


def _error(server: RawServer, msg_id: int | str | None) -> int:
    return int(server.response(msg_id)["error"]["code"])


def test_malformed_messages_get_json_rpc_errors_and_the_server_stays_up(tmp_path: Path) -> None:
    server = RawServer(cwd=tmp_path)
    server.initialize(write_project(tmp_path))
    server.write(frame(b"{this is not json"))
    assert _error(server, None) == -32700
    server.request(7, "textDocument/hover", {"textDocument": 3})
    assert _error(server, 7) == -32602
    assert "$.params.textDocument" in server.response(7)["error"]["message"]
    server.request(8, "lintgv/noSuchMethod", {})
    assert _error(server, 8) == -32601
    server.send([{"jsonrpc": "2.0", "id": 9, "method": "shutdown"}])
    server.send({"id": 10, "method": "shutdown"})
    assert _error(server, 10) == -32600
    server.notify("lintgv/noSuchNotification", {"x": 1})
    server.request(11, "workspace/executeCommand", {"command": "lintgv.noSuchCommand"})
    assert _error(server, 11) == -32602
    server.request(12, "shutdown")
    assert server.response(12)["result"] is None
    hover = {
        "textDocument": {"uri": tmp_path.as_uri() + "/a.py"},
        "position": {"line": 0, "character": 0},
    }
    server.request(13, "textDocument/hover", hover)
    assert _error(server, 13) == -32600
    unknown_ids = [m["error"]["code"] for m in server.seen if "error" in m and m["id"] is None]
    assert unknown_ids == [-32700, -32600]  # the broken frame, then the batch
    server.notify("exit")
    assert server.close() == 0


@pytest.mark.parametrize("line", ["1", 1.5, True, -1])
def test_a_position_that_is_no_line_number_is_invalid_params_naming_the_field(
    tmp_path: Path, line: object
) -> None:
    root = write_project(tmp_path)
    server = RawServer(cwd=tmp_path)
    server.initialize(root)
    uri = cpp_file(root).as_uri()
    server.notify(
        "textDocument/didOpen",
        {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1, "text": "int a;\n"}},
    )
    end = {"line": 0, "character": 0}
    params = {
        "textDocument": {"uri": uri},
        "range": {"start": {"line": line, "character": 0}, "end": end},
        "context": {"diagnostics": []},
    }
    server.request(1, "textDocument/codeAction", params)
    error = server.response(1)["error"]
    assert error["code"] == -32602
    # (A negative line fails lsprotocol's own check of the position as a whole.)
    assert ("$.params.range.start" if line == -1 else "$.params.range.start.line") in error[
        "message"
    ]
    # An integer written with a zero fraction is one; the server answers and stays up.
    params["range"] = {"start": {"line": 0.0, "character": 0}, "end": end}
    server.request(2, "textDocument/codeAction", params)
    assert "error" not in server.response(2)
    server.request(3, "shutdown")
    server.response(3)
    server.notify("exit")
    assert server.close() == 0


def test_exit_without_shutdown_ends_with_code_1(tmp_path: Path) -> None:
    server = RawServer(cwd=tmp_path)
    server.initialize(tmp_path)
    server.notify("exit")
    assert server.process.wait(timeout=TIMEOUT) == 1


@pytest.mark.parametrize("how", ["initialize", "--clientProcessId"])
def test_the_server_exits_when_the_editor_process_dies(tmp_path: Path, how: str) -> None:
    editor = subprocess.Popen(
        [sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE
    )
    flag = [f"--clientProcessId={editor.pid}"] if how != "initialize" else []
    server = RawServer([*SERVER, *flag], cwd=tmp_path)
    server.initialize(tmp_path, processId=editor.pid if how == "initialize" else None)
    editor.kill()
    editor.wait(timeout=TIMEOUT)
    # The server's stdin stays open here: only the editor's death can end it.
    assert server.process.wait(timeout=TIMEOUT) == 0
    assert editor.stdin is not None
    editor.stdin.close()


def test_the_server_listens_on_tcp(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "lintgv", "-vv", "server", "--tcp", "127.0.0.1:0"],
        stderr=subprocess.PIPE,
        cwd=tmp_path,
        text=True,
    )
    assert process.stderr is not None
    port = 0
    for line in process.stderr:
        found = re.search(r"Serving on \('127\.0\.0\.1', (\d+)\)", line)
        if found:
            port = int(found.group(1))
            break
    assert port, "the server did not say where it listens"
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as connection:
        stream = connection.makefile("rwb")
        body = {"processId": None, "rootUri": tmp_path.as_uri(), "capabilities": {}}
        stream.write(
            frame(
                json.dumps(
                    {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": body}
                ).encode()
            )
        )
        stream.flush()
        answer = read_message(stream)
        assert answer is not None
        assert answer["result"]["serverInfo"]["name"] == "lintgv"
        for message in ({"id": 2, "method": "shutdown"}, {"method": "exit"}):
            stream.write(frame(json.dumps({"jsonrpc": "2.0", **message}).encode()))
            stream.flush()
    assert process.wait(timeout=TIMEOUT) == 0
    process.stderr.close()


def test_a_bad_tcp_address_is_a_clear_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [*SERVER, "--tcp", "nowhere"], capture_output=True, text=True, cwd=tmp_path, check=False
    )
    assert done.returncode == 2
    assert "HOST:PORT" in done.stderr


def test_a_request_before_initialize_gets_server_not_initialized(tmp_path: Path) -> None:
    server = RawServer(cwd=tmp_path)
    hover = {
        "textDocument": {"uri": tmp_path.as_uri() + "/a.py"},
        "position": {"line": 0, "character": 0},
    }
    server.request(1, "textDocument/hover", hover)
    assert _error(server, 1) == -32002
    server.request(2, "shutdown")
    assert _error(server, 2) == -32002
    assert "capabilities" in server.initialize(write_project(tmp_path))["result"]
    server.request(3, "shutdown")
    assert server.response(3)["result"] is None
    server.notify("exit")
    assert server.close() == 0


_GOOD = json.dumps({"jsonrpc": "2.0", "id": 5, "method": "shutdown"}).encode()


@pytest.mark.parametrize(
    "broken",
    [
        b"Content-Length: abc\r\n\r\n" + _GOOD,
        b"Content-Length: -3\r\n\r\n" + _GOOD,
        b"Content-Lenght: 52\r\n\r\n" + _GOOD,
        b"\r\n" + _GOOD,
        b"no header at all\r\n\r\n" + _GOOD,
        b"Content-Length: 5\r\n\r\n" + _GOOD,  # too short: the body's rest runs on
    ],
    ids=["not-a-number", "negative", "misspelt", "no-header", "garbage", "short"],
)
def test_after_a_malformed_frame_the_server_logs_it_and_reads_on(
    tmp_path: Path, broken: bytes
) -> None:
    server = RawServer(cwd=tmp_path)
    server.initialize(write_project(tmp_path))
    server.write(broken)
    server.request(6, "shutdown")
    assert server.response(6)["result"] is None
    logged = server.wait_for(
        lambda m: (
            m.get("method") == "window/logMessage" and "malformed frame" in m["params"]["message"]
        )
    )
    assert logged["params"]["type"] == 2  # a warning
    server.notify("exit")
    assert server.close() == 0


def test_a_frame_larger_than_any_message_ends_the_connection(tmp_path: Path) -> None:
    server = RawServer(cwd=tmp_path)
    server.initialize(write_project(tmp_path))
    server.write(b"Content-Length: 99999999999\r\n\r\n{")
    logged = server.wait_for(
        lambda m: m.get("method") == "window/logMessage" and "bytes" in m["params"]["message"]
    )
    assert "the connection is closed" in logged["params"]["message"]
    assert server.process.wait(timeout=TIMEOUT) is not None
