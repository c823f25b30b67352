"""Opening the database: a real MongoDB through PyMongo's async client, or the embedded engine."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, cast

import pymongo
from pymongo import AsyncMongoClient
from pymongo.errors import ConfigurationError, DuplicateKeyError, PyMongoError

from embedded import EmbeddedEngine
from settings import Settings, SettingsError, uri_hosts
from store.commands import CommandCounter, CommandLog
from store.errors import unavailable_reason
from store.protocols import AsyncCollection, AsyncDatabase
from store.registry import COLLECTIONS

logger = logging.getLogger("arraygraph.store")


class IndexesRefused(RuntimeError):
    """The database holds documents that the indexes arraygraph relies on cannot cover."""


@dataclass(slots=True)
class Database:
    """The handle a request works with: the database, and the log of commands sent to it."""

    db: AsyncDatabase
    commands: CommandLog
    embedded: bool
    close: Callable[[], Awaitable[None]]
    # Facts about the data that never stop being true (a name exists), kept by the store
    # modules that may skip a command knowing them; per handle, so never shared between
    # databases. An optimisation only: losing it costs a command, never a wrong answer.
    memo: dict[str, Any] = field(default_factory=dict)

    def collection(self, name: str) -> AsyncCollection:
        """The collection a store module declares as its `COLLECTION`."""
        return self.db[name]

    async def ping(self) -> None:
        await self.db.command("ping")

    async def create_indexes(self) -> None:
        for collection in COLLECTIONS:
            name, indexes = collection.name, collection.indexes
            if not indexes:
                continue
            try:
                await self.db[name].create_indexes(list(indexes))
            except DuplicateKeyError as exc:
                raise IndexesRefused(
                    f"{name}: a unique index cannot be created because documents break it "
                    f"({exc}); data written in an article's shape? Run `arraygraph migrate`."
                ) from exc


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
    try:
        client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(
            settings.mongodb_uri,
            tz_aware=True,
            event_listeners=[CommandCounter(log)],
            # Every operation, server selection included, ends by this deadline (PyMongo's
            # client-side operation timeout); connecting gets as long, not PyMongo's 20 s.
            timeoutMS=settings.mongodb_timeout_ms,
            serverSelectionTimeoutMS=min(5_000, settings.mongodb_timeout_ms),
            connectTimeoutMS=settings.mongodb_timeout_ms,
        )
    except (ConfigurationError, ValueError) as exc:  # an option or a host PyMongo refuses
        raise SettingsError(f"MONGODB_URI: {str(exc).splitlines()[0][:200]}") from None
    return Database(
        db=cast(AsyncDatabase, client[settings.database]),
        commands=log,
        embedded=False,
        close=client.close,
    )


class DatabaseUnreachable(RuntimeError):
    """The database did not answer within the start-up timeout; the message is one line."""


async def wait_for_database(settings: Settings) -> None:
    """Ping until the database answers, for at most `startup_timeout_s`; DatabaseUnreachable
    naming the hosts (never the credentials) and the last cause otherwise."""
    if settings.embedded:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + settings.startup_timeout_s
    database = open_database(settings)
    try:
        while True:
            remaining = deadline - loop.time()
            try:
                with pymongo.timeout(max(remaining, 0.1)):
                    await database.ping()
                return
            except PyMongoError as exc:
                if loop.time() + 0.5 >= deadline:
                    raise DatabaseUnreachable(
                        f"cannot reach MongoDB at {uri_hosts(settings.mongodb_uri)} within "
                        f"{settings.startup_timeout_s} s ({unavailable_reason(exc)})"
                    ) from None
            await asyncio.sleep(min(1.0, max(deadline - loop.time(), 0)))
    finally:
        await database.close()
