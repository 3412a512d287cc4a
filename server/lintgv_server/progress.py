"""`$/progress` for long work: a workspace check or fix, and the background index."""

import logging
import uuid

from lsprotocol import types

from lintgv_server.protocol import LintgvProtocol
from lintgv_server.state import LintgvServer

log = logging.getLogger(__name__)


class Progress:
    """`$/progress` for one piece of work: the client's token, else one the server makes."""

    def __init__(self, ls: LintgvServer, token: types.ProgressToken | None) -> None:
        self.ls = ls
        self.token = token
        self.request = ls.protocol.msg_id

    async def begin(self, title: str) -> None:
        window = self.ls.client_capabilities.window
        if self.token is None and window is not None and window.work_done_progress:
            token = f"lintgv-{uuid.uuid4()}"
            try:
                await self.ls.work_done_progress.create_async(token)
                self.token = token
            except Exception:  # the client refused: work on without progress
                log.debug("window/workDoneProgress/create failed", exc_info=True)
        if self.token is not None:
            self.ls.work_done_progress.begin(
                self.token,
                types.WorkDoneProgressBegin(title=title, cancellable=True, percentage=0),
            )

    def report(self, message: str, percentage: int) -> None:
        if self.token is not None:
            value = types.WorkDoneProgressReport(message=message, percentage=percentage)
            self.ls.work_done_progress.report(self.token, value)

    def is_cancelled(self) -> bool:
        """Tell whether the client cancelled the request or the progress."""
        protocol = self.ls.protocol
        if isinstance(protocol, LintgvProtocol) and protocol.is_cancelled(self.request):
            return True
        future = self.ls.work_done_progress.tokens.get(self.token) if self.token else None
        return future is not None and future.cancelled()

    def end(self, message: str) -> None:
        if self.token is not None:
            self.ls.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            self.ls.work_done_progress.tokens.pop(self.token, None)
