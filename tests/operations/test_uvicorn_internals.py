"""The uvicorn internals web/ leans on are still there, as in uvicorn 0.54.0 (httptools 0.9.0),
the version these modules were written and tested against. They are not uvicorn's public API:
a release that moves one fails here, not in production.

- `ServerState.connections` (every open connection) and `ServerState.tasks` (one task per
  request in flight), as each HTTP protocol's `connections` and `tasks`: the connection bound
  (web/server/open_connections.py) and the cap on requests in flight (web/server/protocol.py).
- `HttpToolsProtocol.limit_concurrency`, read by its `on_headers_complete`: set to None, so
  uvicorn's own check (which counts idle connections) never answers.
- `HttpToolsProtocol.pipeline`, `cycle` with `response_complete` and `more_body`, `url`, and
  the parser callbacks the deadlines and bounds wrap (web/server/slow_clients.py).
"""

from __future__ import annotations

import inspect
from collections import deque

from starlette.applications import Starlette
from uvicorn.config import Config
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol, RequestResponseCycle
from uvicorn.server import ServerState

from web.server.protocol import server_protocol

CALLBACKS = ("on_message_begin", "on_url", "on_header", "on_headers_complete", "on_body",
             "on_message_complete", "on_response_complete")  # fmt: skip


def _source(function: object) -> str:
    return inspect.getsource(function)  # type: ignore[arg-type]


async def test_uvicorn_internals_the_protocol_shares_the_servers_sets() -> None:
    protocol_class = server_protocol(read_timeout=1, max_head_bytes=1024, max_in_flight=1)
    config = Config(Starlette(), http=protocol_class, limit_concurrency=1)
    state = ServerState()
    protocol = protocol_class(config=config, server_state=state, app_state={})
    assert protocol.connections is state.connections
    assert protocol.tasks is state.tasks
    assert protocol.limit_concurrency is None  # uvicorn's check, off
    assert isinstance(protocol.pipeline, deque)


def test_uvicorn_internals_the_sets_hold_what_the_bounds_count() -> None:
    assert "self.connections.add(self)" in _source(HttpToolsProtocol.connection_made)
    assert "self.connections.discard(self)" in _source(HttpToolsProtocol.connection_lost)
    assert "self.tasks.add(task)" in _source(HttpToolsProtocol._start_asgi_task)
    assert "self.limit_concurrency" in _source(HttpToolsProtocol.on_headers_complete)


def test_uvicorn_internals_the_parser_callbacks_and_cycle_state_are_there() -> None:
    assert all(callable(getattr(HttpToolsProtocol, name, None)) for name in CALLBACKS)
    cycle = _source(RequestResponseCycle.__init__)
    assert "self.response_complete = False" in cycle
    assert "self.more_body = True" in cycle
    assert "self.pipeline" in _source(HttpToolsProtocol.on_response_complete)
    assert "self.url += url" in _source(HttpToolsProtocol.on_url)
