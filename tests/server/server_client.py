"""Helpers for the server tests: a pytest-lsp client that drives `lintgv server` as a
subprocess, as an editor would, and a small TVM-like project for it to open."""

import asyncio
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest_asyncio
from lsprotocol import types
from pygls.protocol import default_converter
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import DEFAULT_CLIENT_FEATURES, register_lsp_features

from lintgv.checking import run

SERVER = [sys.executable, "-m", "lintgv", "server"]
# The server as a user root is not, so that a file of mode 000 cannot be read: when the
# tests run as root, every module of lintgv is imported first (the interpreter may live
# where `nobody` cannot read it), then the server drops to `nobody`.
UNPRIVILEGED_SERVER = [
    sys.executable,
    "-c",
    """
import importlib, os, pkgutil, pwd, sys
import tomllib  # imported by lintgv when it first reads a config file
import lintgv, lintgv_server
from lintgv.cli import main
if os.getuid() == 0:
    for package in (lintgv, lintgv_server):
        for module in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            if not module.name.endswith("__main__"):  # which would run the command line
                importlib.import_module(module.name)
    nobody = pwd.getpwnam("nobody")
    os.setgroups([])
    os.setgid(nobody.pw_gid)
    os.setuid(nobody.pw_uid)
sys.exit(main(["server"]))
""",
]
# Generous: the machine running the tests may be busy; nothing waits this long normally.
TIMEOUT = 60.0

PYTHON_SITE = '''"""Lift a function to a module-level global."""

import tvm


def lift(mod, func, name):
    gv = tvm.ir.GlobalVar(name)
    mod[gv] = func
    return gv
'''
CPP_SITE = """#include <tvm/ir/module.h>

namespace tvm {

GlobalVar Lower(IRModule mod, BaseFunc func, String name) {
  GlobalVar gv(name);
  mod->Add(gv, func);
  return gv;
}

}  // namespace tvm
"""


def write_project(root: Path, config: str = 'tvm-version = "0.16"\n') -> Path:
    """Write a small TVM-like project under `root` and return `root`."""
    (root / "python" / "tvm" / "relay").mkdir(parents=True)
    (root / "src" / "relay").mkdir(parents=True)
    (root / "lintgv.toml").write_text(config)
    (root / "python" / "tvm" / "relay" / "lift.py").write_text(PYTHON_SITE)
    (root / "src" / "relay" / "lower.cc").write_text(CPP_SITE)
    return root


def python_file(root: Path) -> Path:
    return root / "python" / "tvm" / "relay" / "lift.py"


def cpp_file(root: Path) -> Path:
    return root / "src" / "relay" / "lower.cc"


class Client(LanguageClient):
    """pytest-lsp's client, recording every push and applyEdit, with waits on them."""

    def __init__(self) -> None:
        super().__init__(converter_factory=default_converter)
        self.published: list[types.PublishDiagnosticsParams] = []
        self.applied: list[types.WorkspaceEdit] = []
        self.registrations: list[types.Registration] = []
        self.initialized_with: types.InitializeResult | None = None
        self._changed: asyncio.Event | None = None

    @property
    def changed(self) -> asyncio.Event:
        if self._changed is None:
            self._changed = asyncio.Event()
        return self._changed

    async def until(self, ready: Callable[[], Any], timeout: float = TIMEOUT) -> Any:
        """Return the first truthy value of `ready()`, re-evaluated on each message."""

        async def wait() -> Any:
            while True:
                value = ready()
                if value:
                    return value
                self.changed.clear()
                await self.changed.wait()

        return await asyncio.wait_for(wait(), timeout)

    async def diagnostics_for(
        self, uri: str, version: int | None = None, timeout: float = TIMEOUT
    ) -> list[types.Diagnostic]:
        """Wait for diagnostics of `uri` (of `version`, when given) and return them."""

        def ready() -> list[types.Diagnostic] | None:
            for params in reversed(self.published):
                if params.uri == uri and (version is None or params.version == version):
                    return list(params.diagnostics) or [_EMPTY]
            return None

        found = await self.until(ready, timeout)
        return [d for d in found if d is not _EMPTY]

    async def log_containing(self, text: str) -> types.LogMessageParams:
        return await self.until(
            lambda: next((m for m in self.log_messages if text in m.message), None)
        )

    def open(self, path: Path, text: str | None = None, version: int = 1) -> str:
        uri = path.as_uri()
        language = "python" if path.suffix == ".py" else "cpp"
        self.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(
                    uri=uri,
                    language_id=language,
                    version=version,
                    text=path.read_text() if text is None else text,
                )
            )
        )
        return uri

    async def fix_all(self, uri: str, text: str) -> str:
        """Return `text` with the edit of the fix-all action applied, as the editor would."""
        everything = types.Range(start=types.Position(0, 0), end=types.Position(10**6, 0))
        actions = await self.text_document_code_action_async(
            types.CodeActionParams(
                text_document=types.TextDocumentIdentifier(uri=uri),
                range=everything,
                context=types.CodeActionContext(diagnostics=[], only=["source.fixAll.lintgv"]),
            )
        )
        (action,) = [a for a in actions or [] if isinstance(a, types.CodeAction)]
        resolved = await self.code_action_resolve_async(action)
        assert resolved.edit is not None
        return apply_text_edits(text, edits_of(resolved.edit, uri))

    def replace_all(self, uri: str, version: int, text: str) -> None:
        self.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )


_EMPTY = types.Diagnostic(
    range=types.Range(start=types.Position(0, 0), end=types.Position(0, 0)), message=""
)


def _waking(handler: Callable[[Client, Any], Any]) -> Callable[[Client, Any], Any]:
    def wrapped(ls: Client, params: Any) -> Any:
        result = handler(ls, params)
        ls.changed.set()
        return result

    return wrapped


def _make_client() -> Client:
    client = Client()
    features = dict(DEFAULT_CLIENT_FEATURES)
    default_publish = features.pop(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    # Every other notification the tests wait on wakes the waiters up too.
    for method in (types.WINDOW_LOG_MESSAGE, types.WINDOW_SHOW_MESSAGE, types.PROGRESS):
        features[method] = _waking(features[method])
    register_lsp_features(client, features)

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def publish(ls: Client, params: types.PublishDiagnosticsParams) -> None:
        default_publish(ls, params)
        ls.published.append(params)
        ls.changed.set()

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply_edit(
        ls: Client, params: types.ApplyWorkspaceEditParams
    ) -> types.ApplyWorkspaceEditResult:
        ls.applied.append(params.edit)
        ls.changed.set()
        return types.ApplyWorkspaceEditResult(applied=True)

    @client.feature(types.CLIENT_REGISTER_CAPABILITY)
    def register_capability(ls: Client, params: types.RegistrationParams) -> None:
        ls.registrations.extend(params.registrations)
        ls.changed.set()

    return client


Start = Callable[..., Awaitable[Client]]


@pytest_asyncio.fixture
async def start() -> AsyncIterator[Start]:
    """Yield a function that starts a server and initialises a session with it."""
    running: list[Client] = []

    async def launch(
        root: Path | None = None,
        *,
        options: dict[str, Any] | None = None,
        editor: str = "visual-studio-code",
        folders: list[Path] | None = None,
        command: list[str] | None = None,
        configuration: dict[str, Any] | None = None,
    ) -> Client:
        config = ClientServerConfig(server_command=command or SERVER, client_factory=_make_client)
        client = await config.start()
        assert isinstance(client, Client)
        running.append(client)
        for scope, value in (configuration or {}).items():
            client.set_configuration(value, section="lintgv", scope_uri=scope)
        client.initialized_with = await client.initialize_session(
            types.InitializeParams(
                capabilities=client_capabilities(editor),
                root_uri=root.as_uri() if root else None,
                workspace_folders=[
                    types.WorkspaceFolder(uri=f.as_uri(), name=f.name)
                    for f in (folders or ([root] if root else []))
                ],
                initialization_options=options,
            )
        )
        return client

    yield launch
    for client in running:
        if client._server is not None and client._server.returncode is None:
            try:
                await asyncio.wait_for(client.shutdown_session(), TIMEOUT)
            except TimeoutError:
                client._server.kill()  # a server that stopped answering: the test failed
        await client.stop()


def engine_findings(path: Path) -> list[tuple[str, int, int, str]]:
    """Return what `lintgv check` finds in `path`: the same run, in this process."""
    result = run([path], {}, use_cache=False, jobs=1)
    return [
        (f.code, f.span.start_line, f.span.start_col, f.message)
        for r in result.results
        for f in r.findings
    ]


def summary(diagnostics: list[types.Diagnostic]) -> list[tuple[str, int, int, str]]:
    """Return diagnostics in the form of engine_findings (ASCII text only)."""
    return [
        (str(d.code), d.range.start.line + 1, d.range.start.character, d.message)
        for d in diagnostics
    ]


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits (UTF-16 positions) to `text`, as an editor would: lines end at
    `\n`, `\r\n` or `\r`."""
    lines = re.split(r"(?<=\r\n)|(?<=\r)(?!\n)|(?<=\n)", text)

    def offset(position: types.Position) -> int:
        before = sum(len(line) for line in lines[: position.line])
        line = lines[position.line].rstrip("\r\n") if position.line < len(lines) else ""
        units = 0
        for index, char in enumerate(line):
            if units >= position.character:
                return before + index
            units += 2 if ord(char) > 0xFFFF else 1
        return before + len(line)

    located = sorted(
        ((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits), reverse=True
    )
    for start, end, new in located:
        text = text[:start] + new + text[end:]
    return text


def edits_of(edit: types.WorkspaceEdit, uri: str) -> list[types.TextEdit]:
    """Return the edits of one document in a workspace edit, either form."""
    if edit.changes:
        return list(edit.changes.get(uri, []))
    found: list[types.TextEdit] = []
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit) and change.text_document.uri == uri:
            found.extend(e for e in change.edits if isinstance(e, types.TextEdit))
    return found
