"""A bare JSON-RPC connection to `lintgv server` over pipes, for what a well-behaved
client library would never send: broken frames, batches, messages after shutdown."""

import contextlib
import json
import os
import queue
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO

TIMEOUT = 60.0
SERVER = [sys.executable, "-m", "lintgv", "server"]


def frame(body: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def read_message(stream: BinaryIO) -> dict[str, Any] | None:
    """Read one framed message; None at the end of the stream."""
    length = 0
    while True:
        line = stream.readline()
        if not line:
            return None
        if line in (b"\r\n", b"\n"):
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.strip().lower() == "content-length":
            length = int(value)
    body = stream.read(length)
    return dict(json.loads(body)) if body else None


class RawServer:
    """A server process and a thread that reads its messages into a queue."""

    def __init__(
        self, command: list[str] | None = None, cwd: Path | None = None, log: Path | None = None
    ) -> None:
        """Start the server; its log (stderr) goes to the file `log`, else nowhere."""
        stderr = log.open("wb") if log is not None else contextlib.nullcontext(subprocess.DEVNULL)
        with stderr as into:  # the server holds its own copy of the file
            self.process = subprocess.Popen(
                command or SERVER,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=into,
                cwd=cwd,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        while True:
            message = read_message(self.process.stdout)
            self.messages.put(message)
            if message is None:
                return

    def write(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def send(self, message: object) -> None:
        self.write(frame(json.dumps(message).encode()))

    def request(self, msg_id: int | str, method: str, params: object = None) -> None:
        self.send({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params})

    def notify(self, method: str, params: object = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def wait_for(self, wanted: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        """Return the first message (seen earlier or arriving) for which `wanted` holds."""
        for message in self.seen:
            if wanted(message):
                return message
        while True:
            message = self.messages.get(timeout=TIMEOUT)
            if message is None:
                raise EOFError("the server closed its output")
            self.seen.append(message)
            if wanted(message):
                return message

    def response(self, msg_id: int | str | None) -> dict[str, Any]:
        return self.wait_for(lambda m: "method" not in m and m.get("id", "absent") == msg_id)

    def initialize(self, root: Path, **extra: object) -> dict[str, Any]:
        params = {"processId": None, "rootUri": root.as_uri(), "capabilities": {}, **extra}
        self.request(0, "initialize", params)
        answer = self.response(0)
        self.notify("initialized", {})
        return answer

    def close(self) -> int:
        """Close the server's input and return its exit code."""
        assert self.process.stdin is not None
        if not self.process.stdin.closed:
            self.process.stdin.close()
        return self.process.wait(timeout=TIMEOUT)
