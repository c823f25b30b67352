"""The servers the ratios of performance issue 15 are measured on (bench/overhead.py,
bench/scaling.py, bench/stored.py), all started at once, each in its own uvicorn process with
the same options.

They are: the bare Starlette JSON endpoint; the Strawberry and Ariadne peers (bench/apps.py,
bench/peer_ariadne.py); and the app on the embedded engine seeded with 100, 1,000 and 10,000
sensors (bench/seed.py), the last also holding 50,000 orders and a customer of 10,000 trades
next to the one whose page is read; and the app seeded with 100 sensors again, on the engine's
wire front in a process of its own (bench/database_process.py), as it runs on MongoDB."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, AsyncExitStack, asynccontextmanager
from dataclasses import dataclass

from bench.peer_env import PEER_PYTHON, ariadne_version
from bench.seed import SEED_VARIABLE, Seed
from bench.server import Server, running, running_database

SMALL = Seed(sensors=100)
MIDDLE = Seed(sensors=1_000)
LARGE = Seed(sensors=10_000, orders=50_000, neighbour_trades=10_000)


@dataclass(frozen=True)
class Servers:
    bare: Server
    strawberry: Server
    ariadne: Server | None  # None without the bench environment
    small: Server
    middle: Server
    large: Server
    # SMALL again, on the engine's wire front in a process of its own (as on MongoDB): the
    # server's CPU is then its own work and the driver's, the database's counted apart.
    small_apart: Server


@dataclass(frozen=True)
class Options:
    seconds: float
    rounds: int
    connections: int


def _seeded(seed: Seed, database: Server | None = None) -> AbstractAsyncContextManager[Server]:
    return running("seeded", env={SEED_VARIABLE: seed.encode()}, database=database)


@asynccontextmanager
async def _seeded_apart(seed: Seed) -> AsyncIterator[Server]:
    """`seed` served on a database process of its own."""
    async with running_database() as database, _seeded(seed, database) as server:
        yield server


@asynccontextmanager
async def started() -> AsyncIterator[Servers]:
    """Every server, started together (the large one seeds for a while before it listens)."""
    async with AsyncExitStack() as stack:
        contexts = [
            running("bare"),
            running("strawberry_peer"),
            _seeded(SMALL),
            _seeded(MIDDLE),
            _seeded(LARGE),
            _seeded_apart(SMALL),
        ]
        if ariadne_version() is not None:
            contexts.append(running("create", python=str(PEER_PYTHON), module="bench.peer_ariadne"))
        entered = [stack.enter_async_context(c) for c in contexts]
        # Every start settles before any failure is raised: the stack then stops those up.
        settled = await asyncio.gather(*entered, return_exceptions=True)
        for outcome in settled:
            if isinstance(outcome, BaseException):
                raise outcome
        found = [s for s in settled if isinstance(s, Server)]
        bare, strawberry, small, middle, large, apart = found[:6]
        ariadne = found[6] if len(found) > 6 else None
        yield Servers(bare, strawberry, ariadne, small, middle, large, apart)
