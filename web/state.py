"""What the application holds for its lifetime: settings, the clock, the database handle,
the verifier of identities."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from datetime import UTC, datetime

from starlette.applications import Starlette

from resolvers.context import Clock
from settings import Settings
from store.database import Database, open_database
from store.demo import seed_demo_data
from store.migrations import check_data_shape
from web.identity.authenticator import Authenticator
from web.server.long_lived import LongLivedHeap


def utc_now() -> datetime:
    return datetime.now(UTC)


class AppState:
    """Settings, clock and authenticator from the start; the database from the lifespan on."""

    def __init__(self, settings: Settings, clock: Clock, database: Database | None) -> None:
        self.settings = settings
        self.clock = clock
        self.authenticator = Authenticator(settings, clock)
        self._database = database
        # How long the demo data took to load, once the lifespan loaded it (`serve` says it).
        self.demo_seconds: float | None = None

    @property
    def database(self) -> Database:
        if self._database is None:
            raise RuntimeError("the database is opened by the application's lifespan")
        return self._database

    def open(self) -> bool:
        """Open the database unless one was given; whether this state owns it (and closes it)."""
        if self._database is not None:
            return False
        self._database = open_database(self.settings)
        return True

    async def close(self) -> None:
        await self.database.close()
        self._database = None


def lifespan(
    state: AppState, *, demo: bool
) -> Callable[[Starlette], AbstractAsyncContextManager[None]]:
    """Open the database (unless one was given), create every index, load the demo data."""

    @asynccontextmanager
    async def run(app: Starlette) -> AsyncIterator[None]:
        owned = state.open()
        heap = LongLivedHeap()
        try:
            await state.database.create_indexes()
            await check_data_shape(state.database)
            if demo:
                began = time.perf_counter()
                if await seed_demo_data(state.database, now=state.clock(), settings=state.settings):
                    state.demo_seconds = time.perf_counter() - began
            heap.start()
            yield
        finally:
            heap.stop()
            if owned:
                await state.close()

    return run
