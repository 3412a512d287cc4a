"""Headless Chromium driven over the DevTools protocol on a pipe (--remote-debugging-pipe:
commands on fd 3, replies on fd 4, each a JSON message ending in NUL), for tests that
must see a page as a browser renders it. Debian's chromium; scripts/test-all installs it.
"""

import base64
import contextlib
import json
import os
import select
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

TIMEOUT = 60
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
)


class Browser:
    """One Chromium with one page; `evaluate` runs JavaScript in it."""

    def __init__(self, profile: Path) -> None:
        binary = shutil.which("chromium") or shutil.which("chromium-browser")
        if binary is None:
            pytest.fail("chromium is not installed: apt-get install chromium")
        to_browser, self._commands = os.pipe()
        self._replies, from_browser = os.pipe()

        def arrange() -> None:  # in the child: the two pipe ends on fds 3 and 4
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self._process = subprocess.Popen(
            [binary, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # The child's fds 3 and 4 are made by `arrange`, which runs before the fds
            # not listed here are closed.
            pass_fds=(3, 4, to_browser, from_browser),
            preexec_fn=arrange,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._next = 0
        self._buffer = b""
        self._events: list[dict[str, Any]] = []
        target = self.send("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.send("Target.attachToTarget", targetId=target, flatten=True)[
            "sessionId"
        ]
        self.send("Page.enable", session=True)

    def _read(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            if not select.select([self._replies], [], [], TIMEOUT)[0]:
                raise RuntimeError(f"chromium sent nothing for {TIMEOUT} s")
            chunk = os.read(self._replies, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed its debugging pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        parsed: dict[str, Any] = json.loads(message)
        return parsed

    def send(self, method: str, session: bool = False, **params: Any) -> dict[str, Any]:
        """Send one command and return its result (events that arrive meanwhile are kept)."""
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params}
        if session:
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._read()
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                result: dict[str, Any] = reply["result"]
                return result
            self._events.append(reply)

    def _wait_for(self, event: str) -> None:
        while True:
            for index, seen in enumerate(self._events):
                if seen.get("method") == event:
                    del self._events[: index + 1]
                    return
            self._events.append(self._read())

    def open(self, url: str) -> None:
        """Load `url` and return once its load event has fired."""
        self._events.clear()
        self.send("Page.navigate", session=True, url=url)
        self._wait_for("Page.loadEventFired")

    def evaluate(self, expression: str) -> Any:
        """Return the value of a JavaScript expression in the page."""
        result = self.send(
            "Runtime.evaluate", session=True, expression=expression, returnByValue=True
        )
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> None:
        shot = self.send("Page.captureScreenshot", session=True, captureBeyondViewport=True)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        with contextlib.suppress(OSError, RuntimeError):
            self.send("Browser.close")
        try:
            self._process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._commands)
        os.close(self._replies)
