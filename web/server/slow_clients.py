"""Deadlines for receiving each request: its head (request line and headers) must arrive within
`ARRAYGRAPH_HEAD_TIMEOUT_S`, and the whole request within `ARRAYGRAPH_REQUEST_READ_TIMEOUT_S`,
or the connection is closed. Both count from the connection opening, or, on a kept-alive
connection, from the next request's first byte: the wait before that byte is the keep-alive
timeout's (`ARRAYGRAPH_KEEP_ALIVE_S`, uvicorn's `timeout_keep_alive`).

uvicorn bounds only the idle time between requests, and restarts that timer on every byte, so a
client sending one byte every few seconds (a slow-loris) holds a socket, and a request slot,
forever. The deadlines here are set once per request and are not moved by the bytes that
arrive. The head's is short, so a connection that sends nothing, or dribbles a head, is gone in
seconds; the whole request's is lifted once it is in, so a slow answer (a heavy query) is never
cut, also when the request came pipelined behind another.
"""

from __future__ import annotations

import asyncio
from typing import Any, Literal

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol


class RequestDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol, with deadlines on receiving each request."""

    read_timeout: float = 30.0
    head_timeout: float = 10.0

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._head_deadline: asyncio.TimerHandle | None = None
        self._reading: Literal["head", "body"] | None = None  # what of a request is arriving

    def _arm(self, *, head: bool) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(self.read_timeout, self._too_slow)
        if head:
            self._head_deadline = self.loop.call_later(self.head_timeout, self._too_slow)

    def _disarm_head(self) -> None:
        if self._head_deadline is not None:
            self._head_deadline.cancel()
            self._head_deadline = None

    def _disarm(self) -> None:
        self._disarm_head()
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._disarm()
        if not self.transport.is_closing():
            self.transport.close()  # the app, if it was reading the body, sees a disconnect

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(head=True)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._reading = "head"
        answered = self.cycle is None or self.cycle.response_complete
        if self._deadline is None and answered:
            self._arm(head=True)  # kept alive: this request's deadlines start at its first byte

    def on_headers_complete(self) -> None:
        self._reading = "body"
        self._disarm_head()
        super().on_headers_complete()

    def on_message_complete(self) -> None:
        super().on_message_complete()
        self._reading = None
        self._disarm()  # the request is in: its answer may take as long as it takes

    def on_response_complete(self) -> None:
        # A pipelined request waits here (uvicorn runs it now) once its head is in; its whole
        # message may be in too, and then its deadline is over (it was lifted at its end).
        waiting = self.pipeline[-1][0] if self.pipeline else None
        super().on_response_complete()
        if self.transport.is_closing():
            return
        if waiting is not None:
            if waiting.more_body:
                self._arm(head=False)  # its body must still arrive in time
        elif self._reading is not None:
            # A request still arriving: the next one, begun while this one was answered, or
            # this one's body, when it was answered before the body was read (a 405, a 413).
            self._arm(head=self._reading == "head")
        # Otherwise the connection waits for a next request under the keep-alive timeout.

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def request_deadline_protocol(
    read_timeout: float, head_timeout: float | None = None
) -> type[RequestDeadlineProtocol]:
    """The protocol class for `uvicorn.run(http=...)`, with these deadlines (the head's, when
    not given, the whole request's)."""
    attributes = {"read_timeout": read_timeout, "head_timeout": head_timeout or read_timeout}
    return type("RequestDeadline", (RequestDeadlineProtocol,), attributes)
