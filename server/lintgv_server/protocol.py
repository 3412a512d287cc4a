"""pygls' protocol, made to answer every malformed message with a JSON-RPC error.

pygls drops a request whose params do not fit the method's type, a message without
`jsonrpc`, a batch, and any request after `shutdown`, without an answer; a client
waiting for the answer would hang. Here each gets the error the JSON-RPC and LSP
specifications name: a request before `initialize` gets ServerNotInitialized (-32002)
and a notification before it is dropped, as the LSP asks, instead of pygls answering
`null`. Commands also receive their whole params (for `workDoneToken`).
"""

import inspect
import logging
import re
from concurrent.futures import Future
from typing import Any

import cattrs
from lsprotocol import types
from pygls.exceptions import (
    JsonRpcException,
    JsonRpcInternalError,
    JsonRpcInvalidParams,
    JsonRpcInvalidRequest,
    JsonRpcParseError,
    JsonRpcServerNotInitialized,
)
from pygls.protocol import LanguageServerProtocol, default_converter
from pygls.protocol.json_rpc import RPCNotification, RPCRequest, RPCResponse
from pygls.protocol.language_server import lsp_method

log = logging.getLogger(__name__)


def converter() -> cattrs.Converter:
    """Return pygls' converter of LSP messages, but for integers: cattrs takes any value
    `int()` takes, so `"line": "1"`, `1.5` and `true` were read as numbers and answered.
    A number with a fraction of zero (`1.0`, as some JSON writers put an integer) is
    still one."""
    made: cattrs.Converter = default_converter()  # type: ignore[no-untyped-call]
    made.register_structure_hook(int, _strict_int)
    # `bool` is a subclass of `int`: it keeps cattrs' own reading.
    made.register_structure_hook(bool, lambda value, _type: bool(value))
    return made


def _strict_int(value: object, kind: type[int]) -> int:
    """Read an integer, or one of an enumeration of integers (`kind`: the hook for `int`
    serves its subclasses too, as cattrs' own did, by calling the class)."""
    if type(value) is float and value.is_integer():
        value = int(value)
    if type(value) is not int:
        raise ValueError(f"expected an integer, not {value!r}")
    return kind(value)


def _what_is_wrong(cause: BaseException) -> str:
    """Return what is wrong with a message's params, each problem with where it is
    (`invalid value for type, expected int @ $.params.position.line`)."""
    if isinstance(cause, cattrs.BaseValidationError):
        return "; ".join(_WHERE.sub(_as_sent, text) for text in cattrs.transform_error(cause))
    return str(cause) or type(cause).__name__


# Where a problem is, as cattrs writes it: `@ $.params.text_document.uri`.
_WHERE = re.compile(r"@ \$[\w.\[\]'\"]*")


def _as_sent(where: re.Match[str]) -> str:
    """Spell a path's attribute names as the message does: lsprotocol's `text_document`
    is LSP's `textDocument` (and `from_`, `from`); a key in brackets stays as it is."""
    return _ATTRIBUTE.sub(lambda m: "." + _camel(m.group(1)), where.group())


_ATTRIBUTE = re.compile(r"\.([A-Za-z_]\w*)")


def _camel(name: str) -> str:
    head, *rest = name.rstrip("_").split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


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


def _invalid_request(data: dict[str, Any]) -> str | None:
    """Return what makes a request or notification invalid, or None: the LSP's `id` is
    an integer or a string, and JSON-RPC's `method` a string."""
    if not isinstance(data["method"], str):
        return f"its method is {type(data['method']).__name__}, not a string"
    if "id" in data and _request_id(data) is None:
        return f"its id is {type(data['id']).__name__}, not an integer or a string"
    return None


class _StructuringReported(logging.Filter):
    """Drops pygls' log of a message it cannot structure, which carries the whole
    traceback at ERROR: LintgvProtocol.structure_message answers and logs it in a line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.getMessage().startswith("Unable to deserialize message")


_PYGLS_RPC_LOG = logging.getLogger("pygls.protocol.json_rpc")
_STRUCTURING_REPORTED = _StructuringReported()


class LintgvProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _PYGLS_RPC_LOG.addFilter(_STRUCTURING_REPORTED)  # once: the same filter
        # Requests the client cancelled: long handlers look here between steps, since
        # pygls can only cancel a handler that has not started yet.
        # Kept in arrival order and bounded: ids are not reused, so old ones can go.
        self.cancelled: dict[int | str, None] = {}
        # Whether `initialize` has arrived: before it, the LSP allows only it and `exit`.
        self.initialize_seen = False

    def _handle_cancel_notification(self, msg_id: int | str) -> None:
        if not isinstance(msg_id, int | str) or isinstance(msg_id, bool):
            log.warning("$/cancelRequest of an id that is not an integer or a string: ignored")
            return
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
        if "jsonrpc" in data and "method" in data:
            problem = _invalid_request(data)
            if problem is not None:
                log.warning("Invalid Request: %s", problem)
                if "id" in data:  # a notification cannot be answered
                    self.send_error(None, JsonRpcInvalidRequest(f"Invalid Request: {problem}"))
                return ANSWERED
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            method = data.get("method")
            if "method" not in data or "id" not in data:
                raise
            cause = exc.__cause__ or exc
            message = f"invalid params for {method}: {_what_is_wrong(cause)}"
            log.warning("%s", message)
            log.debug("%s", message, exc_info=cause)
            self.send_error(_request_id(data), JsonRpcInvalidParams(message))
            return ANSWERED

    def _send_handler_result(self, future: Future[Any], *, msg_id: int | str) -> None:
        """Answer a request whose handler failed with the error's message alone, and log
        it in one line (the traceback at debug level): pygls would put the traceback in
        the answer's `data` and log it at ERROR, for an invalid request too."""
        failure = None if future.cancelled() else future.exception()
        if failure is None:
            super()._send_handler_result(future, msg_id=msg_id)
            return
        self._request_futures.pop(msg_id, None)
        if isinstance(failure, JsonRpcException):
            error = failure
            log.warning("request %s: %s", msg_id, error.message)
        else:
            error = JsonRpcInternalError(f"{type(failure).__name__}: {failure}")
            log.error("request %s failed: %s", msg_id, error.message)
        log.debug("request %s", msg_id, exc_info=failure)
        self._send_response(msg_id, error=error.to_response_error())

    def handle_message(self, message: Any) -> None:
        if message is ANSWERED:
            return
        if not isinstance(message, RPCRequest | RPCNotification | RPCResponse) and not hasattr(
            message, "error"
        ):
            self._reject(message)
            return
        is_request = isinstance(message, RPCRequest)
        if is_request and message.method == types.INITIALIZE and self.initialize_seen:
            error = JsonRpcInvalidRequest("initialize: the server is already initialized")
            self.send_error(message.id, error)
            return
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
        reason = "nested too deeply" if isinstance(error, RecursionError) else str(error)
        self.send_error(None, JsonRpcParseError(f"Parse error: {reason}"))

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    async def lsp_workspace__execute_command(  # type: ignore[override]  # a coroutine, see below
        self, params: types.ExecuteCommandParams
    ) -> Any:
        """Run a command; its handler gets the whole params, `workDoneToken` included.

        A coroutine, not pygls' generator: a generator's request is a thread future,
        whose cancellation at `shutdown` runs pygls' callback at once, and that callback
        removes the request from the table pygls is iterating ("dictionary changed size
        during iteration", and `exit` then ends with 1)."""
        handler = self.fm.commands.get(params.command)
        if handler is None:
            raise JsonRpcInvalidParams(f"unknown command {params.command!r}")
        result = handler(params)
        return await result if inspect.isawaitable(result) else result
