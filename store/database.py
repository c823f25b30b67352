"""Opening the database: a real MongoDB through PyMongo's async client, or the embedded engine."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import cast

from pymongo import AsyncMongoClient, IndexModel

from settings import Settings
from store import sensors, trades, users
from store.commands import CommandCounter, CommandLog
from store.embedded import EmbeddedEngine
from store.protocols import AsyncCollection, AsyncDatabase

logger = logging.getLogger("arraygraph.store")

# Each collection's name and the indexes its store module relies on.
COLLECTIONS: dict[str, list[IndexModel]] = {
    sensors.COLLECTION: sensors.INDEXES,
    users.COLLECTION: users.INDEXES,
    trades.COLLECTION: trades.INDEXES,
}


@dataclass(slots=True)
class Database:
    """The handle a request works with: the database, and the log of commands sent to it."""

    db: AsyncDatabase
    commands: CommandLog
    embedded: bool
    close: Callable[[], Awaitable[None]]

    @property
    def sensors(self) -> AsyncCollection:
        return self.db[sensors.COLLECTION]

    @property
    def users(self) -> AsyncCollection:
        return self.db[users.COLLECTION]

    @property
    def trades(self) -> AsyncCollection:
        return self.db[trades.COLLECTION]

    async def ping(self) -> None:
        await self.db.command("ping")

    async def create_indexes(self) -> None:
        for name, indexes in COLLECTIONS.items():
            if indexes:
                await self.db[name].create_indexes(indexes)


def open_database(settings: Settings, commands: CommandLog | None = None) -> Database:
    log = commands or CommandLog()
    if settings.embedded:
        logger.warning(
            "Using the embedded in-memory engine: data lives in this process only and is lost "
            "when it stops. Set MONGODB_URI=mongodb://host:27017 to use MongoDB."
        )
        engine = EmbeddedEngine(log)
        return Database(
            db=cast(AsyncDatabase, engine[settings.database]),
            commands=log,
            embedded=True,
            close=engine.close,
        )
    client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(
        settings.mongodb_uri,
        tz_aware=True,
        event_listeners=[CommandCounter(log)],
        serverSelectionTimeoutMS=5_000,
    )
    return Database(
        db=cast(AsyncDatabase, client[settings.database]),
        commands=log,
        embedded=False,
        close=client.close,
    )
