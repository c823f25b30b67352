"""The applications the benchmarks serve with uvicorn (`bench/server.py`), one per process."""

from __future__ import annotations

import dataclasses
import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import strawberry
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route
from strawberry.asgi import GraphQL
from strawberry.extensions import ParserCache, ValidationCache

from app import create_app
from bench.loop_slices import probed
from bench.seed import SEED_VARIABLE, Seed, seed_all
from bench.server import DATABASE_VARIABLE
from settings import Settings
from settings.identity import identity_from_env
from web.state import AppState


async def echo(request: Request) -> JSONResponse:
    # The baseline: parse a JSON body and answer JSON, as a GraphQL request must at least.
    body = await request.json()
    return JSONResponse({"data": {"__typename": "Query"}, "echo": len(body)})


def bare() -> Starlette:
    return Starlette(routes=[Route("/json", echo, methods=["POST"])])


def full() -> Starlette:
    return create_app(Settings(), demo=True)


# The bearer token of `demo_probed`'s writes (bench/costliest/).
BENCH_TOKEN = "bench-token"


def demo_probed() -> Starlette:
    """The app with the demo data and the default limits, writes behind `BENCH_TOKEN`, on the
    database `ARRAYGRAPH_BENCH_DATABASE` names, with the event-loop probe of
    bench/loop_slices.py."""
    settings = dataclasses.replace(
        Settings(), mongodb_uri=os.environ[DATABASE_VARIABLE], api_tokens=(BENCH_TOKEN,)
    )
    return probed(create_app(settings, demo=True))


def seeded() -> Starlette:
    """The app with no demo data, and what `ARRAYGRAPH_BENCH_SEED` asks for (bench/seed.py)
    written at start-up, before it listens: on the embedded engine, or on the database that
    `ARRAYGRAPH_BENCH_DATABASE` names (bench/server.py's `running_database`)."""
    return seeded_with(Settings())


# Verified JWTs the `identified` app keeps: fewer than bench/identity/ sends in rotation, so
# that every request of theirs is verified again.
VERIFIED_TOKENS_KEPT = 1_000


def identified() -> Starlette:
    """`seeded`, with bearer JWTs verified as `ARRAYGRAPH_JWKS_FILE` and the other identity
    variables say (bench/identity/), and a verified-token cache of `VERIFIED_TOKENS_KEPT`."""
    settings = dataclasses.replace(
        Settings(), identity=identity_from_env(os.environ, production=False)
    )
    app = seeded_with(settings)
    state: AppState = app.state.arraygraph
    # Not a setting: the cache's size is a constant of settings/identity.py.
    state.authenticator.verified.max_entries = VERIFIED_TOKENS_KEPT
    return app


def seeded_with(settings: Settings) -> Starlette:
    database = os.environ.get(DATABASE_VARIABLE)
    if database:
        settings = dataclasses.replace(settings, mongodb_uri=database)
    app = create_app(settings)
    seed = Seed.decode(os.environ.get(SEED_VARIABLE, "{}"))
    started = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        async with started(app):
            state: AppState = app.state.arraygraph
            await seed_all(state.database, seed, state.clock(), settings)
            gc.freeze()  # as the app does after its own start-up: the data lives on
            yield

    app.router.lifespan_context = lifespan
    return app


@strawberry.type
class PeerQuery:
    @strawberry.field
    def hello(self) -> str:
        return "world"


def strawberry_peer() -> GraphQL[None, None]:
    """A minimal Strawberry app, with the parse and validation caches Strawberry offers."""
    schema = strawberry.Schema(query=PeerQuery, extensions=[ParserCache, ValidationCache])
    return GraphQL(schema, graphql_ide=None)
