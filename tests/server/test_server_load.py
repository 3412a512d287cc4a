"""The server under load: a thousand rapid edits, fifty open documents, garbage between
good messages, a client that goes away mid-request. It stays up, and what it finally
reports is what `lintgv check` reports for the same text."""

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from lsprotocol import types
from raw_rpc import TIMEOUT, RawServer, frame
from server_client import PYTHON_SITE, Start, python_file, write_project

TYPED_LINE = "gv = tvm.ir.GlobalVar(n)\n"


def _cli(paths: list[Path], cwd: Path) -> dict[str, list[tuple[str, int, int]]]:
    """Return `lintgv check --format json` findings per file: code, line, column (0-based)."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "lintgv",
            "check",
            "--no-cache",
            "--format",
            "json",
            *map(str, paths),
        ],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode in (0, 1), done.stderr
    found: dict[str, list[tuple[str, int, int]]] = {}
    for finding in json.loads(done.stdout)["findings"]:
        path = str(Path(cwd, finding["path"]).resolve())
        found.setdefault(path, []).append(
            (finding["code"], finding["line"] - 1, finding["column"] - 1)
        )
    return found


def _pushed(diagnostics: list[Any]) -> list[tuple[str, int, int]]:
    return [(str(d.code), d.range.start.line, d.range.start.character) for d in diagnostics]


async def test_a_thousand_rapid_edits_end_in_the_diagnostics_of_the_final_text(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    path = python_file(root)
    client = await start(root)
    uri = client.open(path)
    text = PYTHON_SITE
    line = len(text.split("\n")) - 1
    typed = TYPED_LINE * 40  # a thousand keystrokes
    column = 0
    for version, char in enumerate(typed, 2):
        where = types.Position(line, column)
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(start=where, end=where), text=char
                    )
                ],
            )
        )
        line, column = (line + 1, 0) if char == "\n" else (line, column + 1)
    final = await client.diagnostics_for(uri, len(typed) + 1)
    path.write_text(text + typed)
    assert _pushed(final) == _cli([path], root)[str(path.resolve())]
    assert len(final) == 41


async def test_fifty_open_documents_each_get_the_findings_of_lintgv_check(
    tmp_path: Path, start: Start
) -> None:
    root = write_project(tmp_path)
    folder = root / "python" / "tvm" / "many"
    folder.mkdir()
    paths = []
    for index in range(50):
        path = folder / f"m{index}.py"
        path.write_text("import tvm\n" + TYPED_LINE * (index % 4) + f"x = {index}\n")
        paths.append(path)
    client = await start(root)
    uris = [client.open(path) for path in paths]
    expected = _cli([folder], root)
    for path, uri in zip(paths, uris, strict=True):
        assert _pushed(await client.diagnostics_for(uri, 1)) == expected.get(
            str(path.resolve()), []
        )


def _did_change(uri: str, version: int, text: str) -> dict[str, Any]:
    return {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]}


def test_garbage_between_good_messages_does_not_stop_the_server(tmp_path: Path) -> None:
    root = write_project(tmp_path)
    path = python_file(root)
    uri = path.as_uri()
    server = RawServer(cwd=root)
    server.initialize(root)
    item = {"uri": uri, "languageId": "python", "version": 1, "text": PYTHON_SITE}
    server.notify("textDocument/didOpen", {"textDocument": item})
    text = PYTHON_SITE
    for version in range(2, 202):
        text += TYPED_LINE if version % 2 else "# note\n"
        server.notify("textDocument/didChange", _did_change(uri, version, text))
        if version % 10 == 0:
            server.write(frame(b'{"jsonrpc": "2.0", "id": '))
            server.request(f"x{version}", "lintgv/unknown", {})
            server.notify("lintgv/unknownNotification", [1, 2])
            server.send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": 5})
    final = server.wait_for(
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics" and m["params"]["version"] == 201
        )
    )
    for version in range(10, 202, 10):
        assert server.response(f"x{version}")["error"]["code"] == -32601
    path.write_text(text)
    pushed = [
        (d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"])
        for d in final["params"]["diagnostics"]
    ]
    assert pushed == _cli([path], root)[str(path.resolve())]
    server.request("end", "shutdown")
    server.response("end")
    server.notify("exit")
    assert server.close() == 0


def test_a_client_that_disconnects_mid_request_lets_the_server_exit(tmp_path: Path) -> None:
    root = write_project(tmp_path)
    many = root / "src" / "many"
    many.mkdir()
    for index in range(200):
        (many / f"f{index}.cc").write_text(f'GlobalVar F() {{ return GlobalVar("f{index}"); }}\n')
    server = RawServer(cwd=root)
    server.initialize(root)
    server.request(1, "workspace/executeCommand", {"command": "lintgv.checkWorkspace"})
    assert server.close() == 0
    assert server.process.wait(timeout=TIMEOUT) == 0


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(n) for n in (task / "children").read_text().split()]
    return found


def test_an_exit_while_the_index_runs_in_workers_writes_nothing_to_the_log(
    tmp_path: Path,
) -> None:
    # The index of this many files runs in worker processes; the server is told to exit
    # while they run. Its standard error is an editor's log, and stays empty.
    root = write_project(tmp_path)
    many = root / "src" / "many"
    many.mkdir()
    for index in range(400):
        (many / f"f{index}.cc").write_text(f'GlobalVar F() {{ return GlobalVar("f{index}"); }}\n')
    log = tmp_path / "server.log"
    server = RawServer(cwd=root, log=log)
    server.initialize(root)
    deadline = time.monotonic() + TIMEOUT
    while len(children := _children(server.process.pid)) < 2:  # the index's processes
        assert time.monotonic() < deadline
    server.request("end", "shutdown")
    server.response("end")
    server.notify("exit")
    assert server.close() == 0
    # What the server started writes to its log too, until it ends.
    while any(Path(f"/proc/{child}").exists() for child in children):
        assert time.monotonic() < deadline
    assert log.read_text() == ""
