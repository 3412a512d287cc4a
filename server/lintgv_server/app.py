"""The lintgv language server: `build_server()` makes one, `serve()` runs it (what
`lintgv server` calls). Lifecycle, settings and file-watching handlers live here; the
others in documents.py, features.py and commands.py."""

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.io_ import StdinAsyncReader, StdoutWriter

from lintgv.config import Config
from lintgv.errors import LintgvError
from lintgv_server import commands, documents, features, scan
from lintgv_server.framing import read_messages
from lintgv_server.protocol import LintgvProtocol
from lintgv_server.settings import ClientSettings
from lintgv_server.state import LintgvServer, is_alive, use_lintgv_documents

log = logging.getLogger(__name__)

CONFIG_NAMES = ("pyproject.toml", "lintgv.toml")
# How often the server looks whether the editor that started it still runs.
PARENT_CHECK_SECONDS = 1.0


class Server(LintgvServer):
    """The server, with pygls' out-of-band error reports turned into log lines."""

    def report_server_error(self, error: Exception, source: Any) -> None:
        protocol = self.protocol
        if isinstance(error, ValueError | RecursionError) and source is JsonRpcException:
            # A frame whose body is not JSON (or not UTF-8, or nested deeper than the
            # decoder goes): JSON-RPC's parse error.
            assert isinstance(protocol, LintgvProtocol)
            protocol.report_parse_error(error)
            return
        if source is not None and source.__name__ == "FeatureRequestError":
            return  # already answered with an error response
        self.log_message(f"lintgv server error: {error}", types.MessageType.Error)

    def start_io(self, stdin: BinaryIO | None = None, stdout: BinaryIO | None = None) -> None:
        """Serve over stdio with lintgv's frame reader (framing.py), which logs a
        malformed frame and reads on from the next header instead of going deaf."""
        reader = StdinAsyncReader(stdin or sys.stdin.buffer, self.thread_pool)
        self.protocol.set_writer(StdoutWriter(stdout or sys.stdout.buffer))
        try:
            asyncio.run(read_messages(reader, self._handle_frame, self._bad_frame))
        except BrokenPipeError:
            log.error("the connection to the client is lost; the server exits")
        except (KeyboardInterrupt, SystemExit):
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]  # unannotated in pygls

    def start_tcp(self, host: str, port: int) -> None:
        """Listen on `host`:`port` and serve one client at a time with lintgv's frame
        reader; the server ends when a client's connection ends."""

        async def listen() -> None:
            listening: asyncio.Server | None = None

            async def connection(reader: asyncio.StreamReader, writer: Any) -> None:
                self.protocol.set_writer(writer)
                await read_messages(reader, self._handle_frame, self._bad_frame)
                if listening is not None:
                    listening.close()

            listening = await asyncio.start_server(connection, host, port)
            where = ", ".join(str(s.getsockname()) for s in listening.sockets)
            log.info("Serving on %s", where)
            async with listening:
                try:
                    await listening.serve_forever()
                except asyncio.CancelledError:
                    log.debug("the client's connection ended")

        asyncio.run(listen())

    def _handle_frame(self, body: bytes) -> None:
        protocol = self.protocol
        try:
            protocol.handle_message(json.loads(body, object_hook=protocol.structure_message))
        except Exception as exc:
            log.exception("Unable to handle message")
            self.report_server_error(exc, JsonRpcException)

    def _bad_frame(self, problem: str) -> None:
        log.warning("%s", problem)
        self.log_message(f"lintgv server: {problem}", types.MessageType.Warning)


def _exit_when_gone(pid: int, server: LintgvServer) -> None:
    """Exit the process once the editor process `pid` has ended."""
    stop = threading.Event()

    def watch() -> None:
        while is_alive(pid):
            if stop.wait(PARENT_CHECK_SECONDS):
                return
        log.warning("the editor (process %d) has ended; the server exits", pid)
        _exit(server, 0)

    threading.Thread(target=watch, name="lintgv-parent-watch", daemon=True).start()


def _exit(server: LintgvServer, code: int) -> None:
    """End the process now: nothing is left to save, and pygls' reader thread would
    otherwise keep it waiting on a stdin that may never close."""
    server.lint_thread.shutdown(wait=False, cancel_futures=True)
    # Worker processes of a background index still running end with the server.
    for pid in _workers():
        with contextlib.suppress(OSError):  # ended already
            os.kill(pid, signal.SIGKILL)
    logging.shutdown()
    sys.stdout.flush()
    os._exit(code)


def _workers() -> set[int]:
    """Return the processes this one started, but multiprocessing's resource tracker
    (which removes the workers' semaphores once they and the server are gone). The
    system's list holds a worker still being started, which multiprocessing lists only
    once started (one left alive would write a traceback to the log as the server ends)."""
    processes = sys.modules.get("multiprocessing")
    if processes is None:
        return set()
    found = {child.pid for child in processes.active_children() if child.pid is not None}
    with contextlib.suppress(OSError):  # where the system does not list them (not Linux)
        for task in Path("/proc/self/task").iterdir():
            found |= {int(pid) for pid in (task / "children").read_text().split()}
    from multiprocessing import resource_tracker

    tracker = getattr(resource_tracker._resource_tracker, "_pid", None)
    return found - {tracker}


def _register_lifecycle(server: LintgvServer, parent_pid: int | None) -> None:
    @server.feature(types.INITIALIZE)
    def initialize(ls: LintgvServer, params: types.InitializeParams) -> None:
        use_lintgv_documents(ls)
        if params.initialization_options is not None:
            ls.apply_client_settings(params.initialization_options, initial=True)
        if ls.settings.diagnostic_mode == "pull":
            commands.register_pull(ls)
        pid = parent_pid or params.process_id
        if pid:
            _exit_when_gone(pid, ls)

    @server.feature(types.INITIALIZED)
    async def initialized(ls: LintgvServer, params: types.InitializedParams) -> None:
        await _watch_files(ls)
        await ls.fetch_folder_settings()
        documents.relint_open(ls)
        if ls.settings.index_workspace:
            documents.spawn(_index(ls))

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: LintgvServer, params: None) -> None:
        for handle in ls.pending.values():
            handle.cancel()
        ls.pending.clear()
        ls.lint_thread.shutdown(wait=False, cancel_futures=True)

    @server.feature(types.EXIT)
    def exit_(ls: LintgvServer, params: None) -> None:
        _exit(ls, 0 if ls.protocol._shutdown else 1)


async def _index(ls: LintgvServer) -> None:
    before = ls.project_facts
    await scan.index_in_background(ls)
    if ls.project_facts != before:
        documents.relint_open(ls)


async def _watch_files(ls: LintgvServer) -> None:
    """Ask the client to report changes of config files (read again) and of source files
    (the helper index follows them), when it can register watchers."""
    workspace = ls.client_capabilities.workspace
    watched = workspace.did_change_watched_files if workspace is not None else None
    if watched is None or not watched.dynamic_registration:
        return
    globs = [f"**/{name}" for name in CONFIG_NAMES] + [f"**/*{s}" for s in _source_suffixes()]
    options = types.DidChangeWatchedFilesRegistrationOptions(
        watchers=[types.FileSystemWatcher(glob_pattern=glob) for glob in globs]
    )
    registration = types.Registration(
        id="lintgv-watched-files",
        method=types.WORKSPACE_DID_CHANGE_WATCHED_FILES,
        register_options=options,
    )
    try:
        await ls.client_register_capability_async(
            types.RegistrationParams(registrations=[registration])
        )
    except Exception:  # changes then need a restart or a settings change
        log.debug("client/registerCapability failed", exc_info=True)


def _source_suffixes() -> list[str]:
    """The suffixes of the files lintgv checks by default (a config may add C++ ones,
    which then reach the index through saves and workspace checks)."""
    return [".py", *Config().cpp_extensions]


def _register_workspace(server: LintgvServer) -> None:
    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(
        ls: LintgvServer, params: types.DidChangeConfigurationParams
    ) -> None:
        if params.settings:
            ls.apply_client_settings(params.settings)
        await ls.fetch_folder_settings()
        documents.relint_open(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    async def did_change_watched_files(
        ls: LintgvServer, params: types.DidChangeWatchedFilesParams
    ) -> None:
        configs = [c.uri for c in params.changes if c.uri.rsplit("/", 1)[-1] in CONFIG_NAMES]
        if configs:
            ls.log_message(f"configuration changed ({', '.join(configs)}); checking again")
            ls.invalidate()
        sources = [c for c in params.changes if c.uri not in configs]
        deleted = [c for c in sources if c.type == types.FileChangeType.Deleted]
        moved = await scan.reindex(
            ls,
            [Path(features.path_of(c.uri)) for c in sources if c not in deleted],
            [Path(features.path_of(c.uri)) for c in deleted],
        )
        if configs or moved:
            documents.relint_open(ls)

    @server.feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)
    async def did_change_folders(
        ls: LintgvServer, params: types.DidChangeWorkspaceFoldersParams
    ) -> None:
        for removed in params.event.removed:
            ls.folder_settings.pop(features.path_of(removed.uri), None)
        await ls.fetch_folder_settings()
        documents.relint_open(ls)


def build_server(
    settings: ClientSettings | None = None, parent_pid: int | None = None
) -> LintgvServer:
    """Return a new server with every handler registered."""
    server = Server(settings)
    _register_lifecycle(server, parent_pid)
    _register_workspace(server)
    documents.register(server)
    features.register(server)
    commands.register(server)
    return server


def _address(tcp: str) -> tuple[str, int]:
    host, _, port = tcp.rpartition(":")
    if not host or not port.isdigit():
        raise LintgvError(f"--tcp expects HOST:PORT, such as 127.0.0.1:2087, not {tcp!r}")
    if not 0 <= int(port) <= 65535:
        raise LintgvError(f"--tcp: port {port} is not between 0 and 65535")
    return host.removeprefix("[").removesuffix("]"), int(port)


def serve(tcp: str | None = None, client_process_id: int | None = None) -> int:
    """Run the server over stdio, or on a TCP address; return the exit code.

    Raises LintgvError for a malformed TCP address."""
    if not logging.getLogger().isEnabledFor(logging.DEBUG):
        # pygls logs every message at INFO; that is for debugging only.
        logging.getLogger("pygls").setLevel(logging.WARNING)
    server = build_server(parent_pid=client_process_id)
    if tcp is None:
        server.start_io()
    else:
        host, port = _address(tcp)
        try:
            server.start_tcp(host, port)
        except OSError as exc:  # the address is in use, not this machine's, unknown...
            raise LintgvError(f"--tcp {tcp}: cannot listen there: {exc.strerror or exc}") from exc
    server.lint_thread.shutdown(wait=False, cancel_futures=True)
    return 0
