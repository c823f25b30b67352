"""The ASGI application: Starlette routes around the Strawberry GraphQL endpoint."""

from __future__ import annotations

import asyncio
import gc
import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import orjson
from cross_web import AsyncHTTPRequestAdapter
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from strawberry.asgi import GraphQL
from strawberry.http import GraphQLHTTPResponse, GraphQLRequestData
from strawberry.http.temporal_response import TemporalResponse
from strawberry.types import ExecutionResult

from resolvers.context import Clock, Context, build_context
from resolvers.error_policy import apply_error_policy
from schema.schema import build_schema
from settings import Settings
from store.database import Database, open_database
from store.demo import seed_demo_data

logger = logging.getLogger("arraygraph")

READY_TIMEOUT_SECONDS = 2.0


def utc_now() -> datetime:
    return datetime.now(UTC)


class ArraygraphGraphQL(GraphQL[Context, None]):
    def __init__(self, state: AppState, **kwargs: Any) -> None:
        super().__init__(build_schema(state.settings), **kwargs)
        self.state = state

    async def get_context(self, request: Any, response: TemporalResponse | Any = None) -> Context:
        return build_context(
            request,
            database=self.state.database,
            settings=self.state.settings,
            clock=self.state.clock,
        )

    async def parse_http_body(
        self, request: AsyncHTTPRequestAdapter
    ) -> GraphQLRequestData | list[GraphQLRequestData]:
        # The common request, a POST of one JSON operation with no streaming asked for, skips
        # Strawberry's general content-type and transport negotiation (a sixth of the time of
        # `{ __typename }`); every other request, and every malformed one, takes its path.
        if request.method == "POST" and request.content_type == "application/json":
            accept = request.headers.get("accept") or ""
            if "multipart/mixed" not in accept and "text/event-stream" not in accept:
                data = self.parse_json(await request.get_body())
                if isinstance(data, dict) and _plain_operation(data):
                    return GraphQLRequestData(
                        query=data.get("query"),
                        variables=data.get("variables"),
                        operation_name=data.get("operationName"),
                        extensions=data.get("extensions"),
                    )
        return await super().parse_http_body(request)

    def decode_json(self, data: str | bytes) -> object:
        try:
            return orjson.loads(data)
        except orjson.JSONDecodeError:
            # The standard parser accepts NaN and Infinity, which some clients send; validation
            # then rejects them with a clear GraphQL error instead of a bare HTTP 400.
            return json.loads(data)

    def encode_json(self, data: object) -> bytes:
        return orjson.dumps(data)

    async def process_result(self, request: Any, result: ExecutionResult) -> GraphQLHTTPResponse:
        # Here, not in a schema extension: this sees every error, parse errors included.
        if result.errors:
            result.errors = [apply_error_policy(error) for error in result.errors]
        return await super().process_result(request, result)


def _plain_operation(data: dict[str, Any]) -> bool:
    return (
        isinstance(data.get("query"), str | None)
        and isinstance(data.get("variables"), dict | None)
        and isinstance(data.get("extensions"), dict | None)
    )


class AppState:
    """What the lifespan sets up once: the database handle, settings and the clock."""

    def __init__(self, settings: Settings, clock: Clock, database: Database | None) -> None:
        self.settings = settings
        self.clock = clock
        self._database = database

    @property
    def database(self) -> Database:
        if self._database is None:
            raise RuntimeError("the database is opened by the application's lifespan")
        return self._database

    @database.setter
    def database(self, value: Database | None) -> None:
        self._database = value


class BodyLimit:
    """Rejects a request body over the limit with 413, before any of it is parsed."""

    def __init__(self, app: ASGIApp, *, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and declared.isdigit():
            if int(declared) > self.max_bytes:
                await self._reject(scope, receive, send)
            else:
                await self.app(scope, receive, send)  # the server enforces Content-Length
            return
        body = bytearray()
        more = True
        while more:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                await self._reject(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        error = {
            "message": f"Request body is larger than {self.max_bytes} bytes",
            "extensions": {"code": "LIMIT_EXCEEDED"},
        }
        response = JSONResponse({"errors": [error]}, status_code=413)
        await response(scope, receive, send)


def create_app(
    settings: Settings | None = None,
    *,
    clock: Clock = utc_now,
    demo: bool = False,
    database: Database | None = None,
) -> Starlette:
    """The application; the lifespan opens the database (unless given), indexes and demo data."""
    settings = settings or Settings.from_env()
    state = AppState(settings, clock, database)
    graphql = ArraygraphGraphQL(state, graphql_ide="graphiql", allow_queries_via_get=True)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        owned = database is None
        state.database = database if database is not None else open_database(settings)
        try:
            await state.database.create_indexes()
            if demo:
                await seed_demo_data(state.database, now=clock(), settings=settings)
            # What exists now lives as long as the process: keep it out of every GC pass.
            gc.freeze()
            yield
        finally:
            if owned:
                await state.database.close()
                state.database = None

    async def healthz(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def readyz(request: Request) -> JSONResponse:
        try:
            await asyncio.wait_for(state.database.ping(), READY_TIMEOUT_SECONDS)
        except Exception as exc:  # any failure means "not ready", and says why
            logger.warning("readiness check failed: %s", exc)
            return JSONResponse({"status": "unavailable", "reason": str(exc)}, status_code=503)
        return JSONResponse({"status": "ready"})

    app = Starlette(
        routes=[
            Route("/graphql", graphql),
            Route("/healthz", healthz),
            Route("/readyz", readyz),
        ],
        lifespan=lifespan,
    )
    app.state.arraygraph = state
    app.state.schema = graphql.schema
    app.add_middleware(BodyLimit, max_bytes=settings.max_request_bytes)
    return app


def sdl() -> str:
    """The schema in GraphQL SDL."""
    return build_schema().as_str()
