"""Prometheus metrics, one registry per application, served at `GET /metrics`.

Each app owns its `CollectorRegistry` (never the process-wide default), so several apps in one
process (tests) count apart. Every label is bounded: operation names are the client's choice,
so at most `ARRAYGRAPH_METRICS_OPERATIONS` distinct names are kept per app and the rest fold
into `other` (each kept name adds a histogram's lines to every scrape); command names and
outcomes are bounded the same way.
"""

from __future__ import annotations

import re
import threading
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from prometheus_client import CollectorRegistry, Gauge, ProcessCollector
from prometheus_client.exposition import choose_encoder
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from runtime.request.document_cache import DocumentCache
from settings import METRICS_OPERATIONS
from web.observability.plain_metrics import CountsAndTimings, Family
from web.state import AppState

Lifespan = Callable[[Starlette], AbstractAsyncContextManager[None]]

COMMAND_LABEL_LIMIT = 50  # distinct MongoDB command names per app (arraygraph sends ~15)
OUTCOME_LABEL_LIMIT = 50  # distinct outcomes per app (the error table has ~12 codes)
ANONYMOUS = "anonymous"
OTHER = "other"
NO_OPERATION = "none"  # the type of a request that never became an operation (a 413, a 400)
NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
OUTCOME = re.compile(r"ok|error:[A-Z][A-Z0-9_]{0,63}")
REQUEST_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30)
COMMAND_BUCKETS = (0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25,
                   0.5, 1, 2.5, 5)  # fmt: skip

REQUEST_FAMILIES = (
    Family(
        "arraygraph_graphql_requests",
        "GraphQL requests by operation name, operation type and outcome",
        ("operation", "type", "outcome"),
    ),
    Family(
        "arraygraph_graphql_request_duration_seconds",
        "Time from a GraphQL request's arrival to the end of its response",
        ("operation", "type"),
    ),
)
COMMAND_FAMILIES = (
    Family(
        "arraygraph_mongodb_commands",
        "MongoDB commands (round trips) sent, by command name",
        ("command",),
    ),
    Family(
        "arraygraph_mongodb_command_duration_seconds",
        "Time from a MongoDB command's sending to its reply, by command name",
        ("command",),
    ),
)


class BoundedLabel:
    """Label values kept to `limit` distinct ones that match `pattern`; any other is `other`."""

    def __init__(self, limit: int, pattern: re.Pattern[str] = NAME) -> None:
        self.limit = limit
        self.pattern = pattern
        self.kept: set[str] = set()

    def __call__(self, value: str) -> str:
        if value in self.kept:
            return value
        if len(self.kept) >= self.limit or not self.pattern.fullmatch(value):
            return OTHER
        self.kept.add(value)
        return value


def outcome(error_codes: Sequence[str], status: int) -> str:
    """`ok`, or `error:` and the first error's code (`HTTP_<status>` when none was given)."""
    if error_codes:
        return f"error:{error_codes[0]}"
    return "ok" if status < 400 else f"error:HTTP_{status}"


class Metrics:
    """The app's metrics; a `store.commands.CommandWatcher` of its database's commands."""

    def __init__(
        self, document_cache: DocumentCache, operation_names: int = METRICS_OPERATIONS
    ) -> None:
        self.registry = CollectorRegistry()
        self.operation = BoundedLabel(operation_names)
        self.command = BoundedLabel(COMMAND_LABEL_LIMIT)
        self.outcome = BoundedLabel(OUTCOME_LABEL_LIMIT, OUTCOME)
        registry = self.registry
        self.requests = CountsAndTimings(*REQUEST_FAMILIES, REQUEST_BUCKETS)
        registry.register(self.requests)
        # A plain count (RequestLog adds and subtracts; one event loop), read at each scrape: a
        # Gauge's inc and dec take a lock each, twice per request.
        self.in_flight = 0
        Gauge(
            "arraygraph_graphql_requests_in_flight",
            "GraphQL requests being answered now",
            registry=registry,
        ).set_function(lambda: float(self.in_flight))
        # The engine's worker thread tells of commands as the event loop's thread does.
        self._commands_lock = threading.Lock()
        self.commands = CountsAndTimings(
            *COMMAND_FAMILIES, COMMAND_BUCKETS, lock=self._commands_lock
        )
        registry.register(self.commands)
        cache = Gauge(
            "arraygraph_document_cache_documents",
            "Parsed and validated GraphQL documents held by the document cache",
            registry=registry,
        )
        cache.set_function(lambda: float(document_cache.documents.cache_info().currsize))
        ProcessCollector(registry=registry)

    def observe_request(
        self,
        *,
        operation_name: str | None,
        operation_type: str | None,
        error_codes: Sequence[str],
        status: int,
        seconds: float,
    ) -> None:
        operation = ANONYMOUS if operation_name is None else self.operation(operation_name)
        result = self.outcome(outcome(error_codes, status))
        key = (operation, operation_type or NO_OPERATION, result)
        self.requests.count(key)
        self.requests.time(key, seconds)

    def command_started(self, name: str) -> None:
        with self._commands_lock:
            self.commands.count((self.command(name),))

    def command_finished(self, name: str, seconds: float) -> None:
        with self._commands_lock:
            self.commands.time((self.command(name),), seconds)


def metrics_route(metrics: Metrics, path: str = "/metrics") -> Route:
    """`GET /metrics`: Prometheus' text format (or OpenMetrics, when the scraper asks)."""

    async def endpoint(request: Request) -> Response:
        encode, content_type = choose_encoder(request.headers.get("accept", ""))
        return Response(encode(metrics.registry), headers={"content-type": content_type})

    return Route(path, endpoint, methods=["GET"])


def watching_commands(lifespan: Lifespan, state: AppState, metrics: Metrics) -> Lifespan:
    """`lifespan`, with `metrics` told of the database's commands while the app serves."""

    @asynccontextmanager
    async def run(app: Starlette) -> AsyncIterator[None]:
        async with lifespan(app):
            watchers = state.database.commands.watchers
            if metrics not in watchers:
                watchers.append(metrics)
            try:
                yield
            finally:
                if metrics in watchers:
                    watchers.remove(metrics)

    return run
