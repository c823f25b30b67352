"""A deadline for receiving each request: its head and body must arrive within
`ARRAYGRAPH_REQUEST_READ_TIMEOUT_S` of the connection opening (or of the previous response
ending, on a kept-alive connection), or the connection is closed.

uvicorn bounds only the idle time between requests, and restarts that timer on every byte, so a
client sending one byte every few seconds (a slow-loris) holds a socket, and a request slot,
forever. The deadline here is set once per request and is not moved by the bytes that arrive;
it is lifted once the whole request is in, so a slow answer (a heavy query) is never cut, also
when the request came pipelined behind another.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class RequestDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with a deadline on receiving each request."""

    read_timeout: float = 30.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None

    def _arm(self) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()  # the app, if it was reading the body, sees a disconnect

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._disarm()  # the request is in: its answer may take as long as it takes

    def on_response_complete(self) -> None:
        # A pipelined request waits here (uvicorn runs it now) once its head is in; its whole
        # message may be in too, and then its deadline is over (it was lifted at its end).
        waiting = self.pipeline[-1][0] if self.pipeline else None
        super().on_response_complete()
        if self.transport.is_closing() or (waiting is not None and not waiting.more_body):
            return
        self._arm()  # the next request on this connection gets its own deadline

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def request_deadline_protocol(read_timeout: float) -> type[RequestDeadlineProtocol]:
    """The protocol class for `uvicorn.run(http=...)`, with this deadline."""
    return type("RequestDeadline", (RequestDeadlineProtocol,), {"read_timeout": read_timeout})
