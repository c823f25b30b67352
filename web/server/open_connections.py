"""A bound on open connections, `ARRAYGRAPH_MAX_CONNECTIONS`: a connection that would pass it
closes the longest-idle one instead of being turned away, so that idle sockets, however many a
client opens, never keep out a health check or a query.

A connection is **idle** while none of its requests is in flight: from its opening until a
request's head is in (a client that sent nothing yet, or only part of a head), and, kept alive,
from the end of an answer until the next request's head is in. One whose request is being
answered, or whose body is being read, is never closed here. WebSocket connections count towards
the bound but are never closed to admit another. When every other connection has a request in
flight, the new connection is the only idle one, and it is closed.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from typing import Any

from web.server.slow_clients import RequestDeadlineProtocol

logger = logging.getLogger("arraygraph.server")
# The order in which connections became idle: the lowest has been idle longest. A count, not a
# clock: connections accepted together would read the same time.
_became_idle = itertools.count()


def _closing(connection: object) -> bool:
    transport = getattr(connection, "transport", None)
    return transport is not None and transport.is_closing()


class ConnectionBoundProtocol(RequestDeadlineProtocol):
    """The read deadlines, and at most `max_connections` connections open at once."""

    max_connections: int | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # When it became idle (see `_became_idle`); None while a request of it is in flight.
        self.idle_order: int | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.idle_order = next(_became_idle)
        limit = self.max_connections
        # uvicorn's set of every open connection (`ServerState.connections`), this one included.
        if limit is not None and len(self.connections) > limit:
            self._make_room(limit)

    def _make_room(self, limit: int) -> None:
        # Closed ones stay in the set until their `connection_lost`: they no longer count.
        open_ = [c for c in self.connections if not _closing(c)]
        if len(open_) <= limit:
            return
        idle = [
            c
            for c in open_
            if isinstance(c, ConnectionBoundProtocol) and c.idle_order is not None and c is not self
        ]
        if not idle:
            logger.warning("Refused a connection: %d open, each with a request in flight", limit)
            self.transport.close()
            return
        oldest = min(idle, key=lambda c: c.idle_order or 0)
        # Not a warning: a client opening sockets would choose how many lines are written.
        logger.debug("Closed the longest-idle connection for a new one: %d open", limit)
        oldest.transport.close()

    def on_headers_complete(self) -> None:
        self.idle_order = None  # the app has the request, or will once those before it are done
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The latest request's answer is done: none runs, none waits behind it (pipelined).
        if self.cycle.response_complete and not self.transport.is_closing():
            self.idle_order = next(_became_idle)
