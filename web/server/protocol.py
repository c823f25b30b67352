"""The HTTP protocol `arraygraph serve` runs: uvicorn's, with the read deadlines of
`web/server/slow_clients.py`, the connection bound of `web/server/open_connections.py`, a bound
on a request's head, a cap on requests in flight, and GraphQL answers for both refusals it makes
before the app sees a request.

- **The head** (request line and headers) is not bounded by uvicorn's httptools parser, nor
  by the body limit (`web/body_limit.py`): a 50 MB header was read in full. Past
  `MAX_REQUEST_HEAD_BYTES` the answer is 431 with `LIMIT_EXCEEDED`, and the connection closes;
  a head that has not ended by then is refused as its bytes arrive, so no more is buffered.
- **Past `ARRAYGRAPH_MAX_CONCURRENCY` requests in flight** the answer is a GraphQL one,
  `SERVICE_UNAVAILABLE` with `Retry-After`, so a client reads every refusal the same way.
  uvicorn's own check (`limit_concurrency`) is off: it counted open connections too, idle ones
  included, so idle sockets alone made every request 503; open connections have their own
  bound. `/healthz` and `/readyz` answer whatever the number in flight: a container's health
  check and a load balancer's probe must not fail because the service is busy.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from starlette.types import Receive, Scope, Send

from settings import MAX_REQUEST_HEAD_BYTES, Settings
from web.server.open_connections import ConnectionBoundProtocol

logger = logging.getLogger("arraygraph.server")

OVERLOADED_RETRY_AFTER_S = 1
# The bound counts the URL and each header as `name: value\r\n`; the bytes of a head that has
# not ended also hold the method, " HTTP/1.1", and line ends.
REQUEST_LINE_FRAMING = 64
HEALTH_PATHS = frozenset({b"/healthz", b"/readyz"})  # web/health.py


def _error_body(message: str, code: str) -> bytes:
    return json.dumps({"errors": [{"message": message, "extensions": {"code": code}}]}).encode()


def _head_too_large(limit: int) -> bytes:
    body = _error_body(f"the request line and headers are over {limit} bytes", "LIMIT_EXCEEDED")
    head = (
        "HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    )
    return head.encode() + body


async def _overloaded(scope: Scope, receive: Receive, send: Send) -> None:
    body = _error_body(
        "The server is at its limit of requests at once; retry in a moment", "SERVICE_UNAVAILABLE"
    )
    headers = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
        (b"retry-after", str(OVERLOADED_RETRY_AFTER_S).encode()),
        (b"connection", b"close"),
    ]
    await send({"type": "http.response.start", "status": 503, "headers": headers})
    await send({"type": "http.response.body", "body": body, "more_body": False})


class GuardedProtocol(ConnectionBoundProtocol):
    """The deadlines, the connection bound, the head bound, and the cap on requests in flight
    answered as GraphQL."""

    max_head_bytes: int = 64 * 1024
    max_in_flight: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # uvicorn's own check counts connections too, and answers in plain text: off.
        self.limit_concurrency = None
        self._head_bytes: int | None = 0  # None once the current request's head is in
        self._head_ended = False  # a head ended in the bytes being parsed
        self._refused = False

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return  # answered 431: the rest of what the client sends is dropped
        before, self._head_ended = self._head_bytes, False
        super().data_received(data)
        if before is None or self._head_ended or self._head_bytes is None or self._refused:
            # Not in a head, or one ended in `data` (measured when it ended): a next one begun
            # in `data` (pipelined) counts from the next bytes, as where it starts is not known.
            return
        self._head_bytes = before + len(data)
        if self._head_bytes > self.max_head_bytes + REQUEST_LINE_FRAMING:
            self._refuse_head()  # no end yet, and past the bound whatever it holds

    def on_headers_complete(self) -> None:
        head = len(self.url) + sum(len(name) + len(value) + 4 for name, value in self.headers)
        self._head_bytes, self._head_ended = None, True
        if head > self.max_head_bytes:
            self._refuse_head()
            return
        limit = self.max_in_flight
        # uvicorn's set of running requests (`ServerState.tasks`), one task each.
        if limit is not None and len(self.tasks) >= limit and not self._health_check():
            logger.warning("Refused a request: %d requests in flight", limit)
            app, self.app = self.app, _overloaded
            try:
                super().on_headers_complete()
            finally:
                self.app = app
            return
        super().on_headers_complete()

    def _health_check(self) -> bool:
        return self.url.partition(b"?")[0] in HEALTH_PATHS

    def on_body(self, body: bytes) -> None:
        if not self._refused:
            super().on_body(body)

    def on_message_complete(self) -> None:
        if not self._refused:
            super().on_message_complete()

    def on_message_begin(self) -> None:
        # A request's head counts from its first byte: not from the answer before it, which
        # may go out before that request's body is read (a 405, a 413), the body still coming.
        self._head_bytes = 0
        super().on_message_begin()

    def _refuse_head(self) -> None:
        self._refused = True
        if not self.transport.is_closing():
            self.transport.write(_head_too_large(self.max_head_bytes))
            self.transport.close()


def server_protocol(
    *,
    read_timeout: float,
    max_head_bytes: int,
    head_timeout: float | None = None,
    max_in_flight: int | None = None,
    max_connections: int | None = None,
) -> type[GuardedProtocol]:
    """The protocol class for `uvicorn.run(http=...)`; a bound not given is not applied (the
    head's deadline, not given, is the whole request's)."""
    attributes = {
        "read_timeout": read_timeout,
        "head_timeout": head_timeout or read_timeout,
        "max_head_bytes": max_head_bytes,
        "max_in_flight": max_in_flight,
        "max_connections": max_connections,
    }
    return type("ArraygraphProtocol", (GuardedProtocol,), attributes)


def server_options(settings: Settings) -> dict[str, Any]:
    """What `arraygraph serve` sets on uvicorn besides its address and logging: the protocol
    with every bound above, and how long a kept-alive connection may wait for its next request
    (uvicorn's `timeout_keep_alive`)."""
    protocol = server_protocol(
        read_timeout=settings.request_read_timeout_s,
        head_timeout=settings.head_timeout_s,
        max_head_bytes=MAX_REQUEST_HEAD_BYTES,
        max_in_flight=settings.max_concurrency,
        max_connections=settings.max_connections,
    )
    return {"http": protocol, "timeout_keep_alive": settings.keep_alive_s}
