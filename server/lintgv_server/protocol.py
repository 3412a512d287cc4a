"""pygls' protocol, made to answer every malformed message with a JSON-RPC error.

pygls drops a request whose params do not fit the method's type, a message without
`jsonrpc`, a batch, and any request after `shutdown`, without an answer; a client
waiting for the answer would hang. Here each gets the error the JSON-RPC and LSP
specifications name: a request before `initialize` gets ServerNotInitialized (-32002)
and a notification before it is dropped, as the LSP asks, instead of pygls answering
`null`. Commands also receive their whole params (for `workDoneToken`).
"""

import logging
from collections.abc import Generator
from typing import Any

from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import RPCNotification, RPCRequest, RPCResponse
from pygls.protocol.language_server import lsp_method

log = logging.getLogger(__name__)


class _Answered:
    """A message that was already answered with an error while it was being read."""


ANSWERED = _Answered()
_CANCELLED_KEPT = 1000


def _request_id(data: object) -> int | str | None:
    if isinstance(data, dict):
        value = data.get("id")
        if isinstance(value, int | str) and not isinstance(value, bool):
            return value
    return None


class LintgvProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Requests the client cancelled: long handlers look here between steps, since
        # pygls can only cancel a handler that has not started yet.
        # Kept in arrival order and bounded: ids are not reused, so old ones can go.
        self.cancelled: dict[int | str, None] = {}
        # Whether `initialize` has arrived: before it, the LSP allows only it and `exit`.
        self.initialize_seen = False

    def _handle_cancel_notification(self, msg_id: int | str) -> None:
        self.cancelled[msg_id] = None
        if len(self.cancelled) > _CANCELLED_KEPT:
            del self.cancelled[next(iter(self.cancelled))]
        super()._handle_cancel_notification(msg_id)

    def is_cancelled(self, msg_id: int | str | None) -> bool:
        """Tell whether the client cancelled the request `msg_id`."""
        return msg_id is not None and msg_id in self.cancelled

    def send_error(self, msg_id: int | str | None, error: JsonRpcException) -> None:
        """Send an error response (an `id` of null when the request's id is unknown)."""
        self._send_data(
            {
                "jsonrpc": "2.0",
                "id": msg_id,
                "error": {"code": error.code, "message": error.message},
            }
        )

    def structure_message(self, data: dict[str, Any]) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            method = data.get("method")
            if "method" not in data or "id" not in data:
                raise
            cause = exc.__cause__ or exc
            message = f"invalid params for {method}: {type(cause).__name__}"
            log.warning("%s", message, exc_info=True)
            self.send_error(_request_id(data), JsonRpcInvalidParams(message))
            return ANSWERED

    def handle_message(self, message: Any) -> None:
        if message is ANSWERED:
            return
        if not isinstance(message, RPCRequest | RPCNotification | RPCResponse) and not hasattr(
            message, "error"
        ):
            self._reject(message)
            return
        is_request = isinstance(message, RPCRequest)
        if not self.initialize_seen and not self._accept_before_initialize(message):
            return
        if self._shutdown and is_request and message.method != types.EXIT:
            error = JsonRpcInvalidRequest(f"{message.method}: the server is shutting down")
            self.send_error(message.id, error)
            return
        super().handle_message(message)

    def _accept_before_initialize(self, message: Any) -> bool:
        """Tell whether `message` may be handled; answer or drop it if not.

        Before `initialize`, a request gets ServerNotInitialized and a notification
        other than `exit` is dropped; responses (to nothing we sent) pass through."""
        method = getattr(message, "method", None)
        if method == types.INITIALIZE:
            self.initialize_seen = True
            return True
        if method is None or method == types.EXIT:
            return True
        if isinstance(message, RPCRequest):
            log.warning("%s before initialize: answered with ServerNotInitialized", method)
            error = JsonRpcServerNotInitialized(f"{method}: the server is not initialized yet")
            self.send_error(message.id, error)
        else:
            log.warning("%s before initialize: dropped", method)
        return False

    def _reject(self, message: object) -> None:
        """Answer a message that is not a JSON-RPC 2.0 request, response or notification."""
        log.warning("not a JSON-RPC 2.0 message: %.200r", message)
        if isinstance(message, dict) and "method" in message and "id" not in message:
            return  # a notification cannot be answered
        what = "a batch" if isinstance(message, list) else "not a JSON-RPC 2.0 message"
        error = JsonRpcInvalidRequest(f"Invalid Request: {what}")
        self.send_error(_request_id(message), error)

    def report_parse_error(self, error: Exception) -> None:
        """Answer a frame whose body is not JSON, as JSON-RPC asks: an error with id null."""
        self.send_error(None, JsonRpcParseError(f"Parse error: {error}"))

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(
        self, params: types.ExecuteCommandParams
    ) -> Generator[Any, Any, Any]:
        """Run a command; its handler gets the whole params, `workDoneToken` included."""
        handler = self.fm.commands.get(params.command)
        if handler is None:
            raise JsonRpcInvalidParams(f"unknown command {params.command!r}")
        result = yield handler, (params,), None
        return result
