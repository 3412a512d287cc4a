"""Document sync: lint on open, on change (debounced per document) and on save, clear on
close, and publish only results that are still current."""

import asyncio
import logging
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from lsprotocol import types

from lintgv.model import FileError
from lintgv_server import scan
from lintgv_server.actions import docs_href
from lintgv_server.analysis import Analysis
from lintgv_server.convert import CONFIG_ERROR_CODE, error_diagnostic, fs_path, to_diagnostic
from lintgv_server.state import LintgvServer

log = logging.getLogger(__name__)

_tasks: set[asyncio.Task[None]] = set()


def spawn(work: Coroutine[Any, Any, None]) -> None:
    """Run `work` in the background, keeping a reference until it ends."""
    task = asyncio.get_running_loop().create_task(work)
    _tasks.add(task)
    task.add_done_callback(_tasks.discard)


def diagnostics_of(ls: LintgvServer, analysis: Analysis) -> list[types.Diagnostic]:
    """Return the diagnostics of an analysis: findings, a parse error, a config error."""
    codec = ls.workspace.position_codec
    index = analysis.index
    if analysis.config_error is not None:
        error = FileError(Path(analysis.uri), analysis.config_error)
        return [error_diagnostic(index, codec, error, CONFIG_ERROR_CODE)]
    template = ls.settings.docs_url
    found = [
        to_diagnostic(index, codec, f, docs_href(f.code, template))
        for f in analysis.result.findings
    ]
    found += [error_diagnostic(index, codec, e) for e in analysis.result.errors if not e.crash]
    return found


def publish(
    ls: LintgvServer, uri: str, version: int | None, diagnostics: list[types.Diagnostic]
) -> None:
    """Push diagnostics for one document."""
    ls.published[uri] = version
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=diagnostics)
    )


async def lint_and_publish(ls: LintgvServer, uri: str) -> None:
    """Check the document's current version and push its diagnostics, unless it changed
    (or closed) meanwhile: then a newer run is on its way and this result is stale."""
    ls.pending.pop(uri, None)
    document = ls.current_document(uri)
    if document is None or ls.settings.diagnostic_mode != "push":
        return  # pulled diagnostics are computed when asked for
    analysis = await ls.analyse(document)
    ls.log_crashes(analysis)
    current = ls.current_document(uri)
    if current is None or current.version != analysis.version or current.source != analysis.text:
        return
    if analysis.generation != ls.generation:
        schedule(ls, uri, 0)  # settings changed while it ran
        return
    publish(ls, uri, analysis.version, diagnostics_of(ls, analysis))


def schedule(ls: LintgvServer, uri: str, delay_ms: int) -> None:
    """Lint `uri` after `delay_ms`, replacing any run of it still waiting."""
    waiting = ls.pending.pop(uri, None)
    if waiting is not None:
        waiting.cancel()
    loop = asyncio.get_running_loop()
    ls.pending[uri] = loop.call_later(delay_ms / 1000, lambda: spawn(lint_and_publish(ls, uri)))


def relint_open(ls: LintgvServer) -> None:
    """Lint every open document again (settings or configs changed)."""
    for uri in ls.open_uris():
        schedule(ls, uri, 0)
    refresh = ls.client_capabilities.workspace
    diagnostics = refresh.diagnostics if refresh is not None else None
    if ls.settings.diagnostic_mode == "pull" and diagnostics and diagnostics.refresh_support:
        ls.workspace_diagnostic_refresh(None)


async def _reindex_saved(ls: LintgvServer, path: Path) -> None:
    """A saved file may define helpers others call, or no longer: the index follows."""
    if await scan.reindex(ls, [path], []):
        relint_open(ls)


def register(server: LintgvServer) -> None:
    """Register the document sync handlers."""

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LintgvServer, params: types.DidOpenTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LintgvServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if ls.current_document(uri) is None:
            ls.log_message(
                f"didChange for {uri}, which is not open, ignored: a document is opened "
                "(didOpen) before it is changed",
                types.MessageType.Warning,
            )
            return
        schedule(ls, uri, ls.settings.debounce_ms)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE, types.SaveOptions(include_text=False))
    def did_save(ls: LintgvServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        schedule(ls, uri, 0)
        path = fs_path(uri)
        if path:
            spawn(_reindex_saved(ls, Path(path)))

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LintgvServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.forget(uri)
        if ls.settings.diagnostic_mode == "push":
            publish(ls, uri, None, [])
