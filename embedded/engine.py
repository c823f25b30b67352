"""The engine: mongomock-ng behind the slice of PyMongo's async API that arraygraph's store uses.

Each public coroutine is one command: it yields to the event loop once, as a round trip would, is
reported to the engine's observer, then runs without interruption under the engine's lock, which
makes each command atomic for concurrent requests. Writes go through `embedded.writes`, reads
through `embedded.reads`.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

from pymongo import InsertOne, ReturnDocument
from pymongo.results import (
    BulkWriteResult,
    DeleteResult,
    InsertManyResult,
    InsertOneResult,
    UpdateResult,
)

from embedded import mongomock_internals as mongomock
from embedded import operators, reads
from embedded.protocols import CommandCounts, CommandObserver, Document
from embedded.writes import BulkOutcome, Outcome, UpdateApplier, Writes

T = TypeVar("T")


class EmbeddedCursor:
    def __init__(self, collection: EmbeddedCollection, filter: Any, kwargs: dict[str, Any]):
        self._collection = collection
        self._filter = filter or {}
        self._kwargs = kwargs

    async def to_list(self, length: int | None = None) -> list[Document]:
        kwargs = dict(self._kwargs)
        if length is not None:
            kwargs["limit"] = length
        coll = self._collection._coll
        return await self._collection._run("find", lambda: reads.find(coll, self._filter, kwargs))


class EmbeddedCollection:
    def __init__(self, engine: EmbeddedEngine, coll: Any) -> None:
        self._engine = engine
        self._coll = coll
        self._writes = Writes(coll, engine.updates)

    @property
    def name(self) -> str:
        return str(self._coll.name)

    async def _run(self, command: str, action: Callable[[], T]) -> T:
        await asyncio.sleep(0)  # a round trip lets other requests run, as network I/O does
        self._engine.observer.started(command)
        with self._engine.lock:
            result = action()
        self._engine.observer.replied(result)
        return result

    # Reads.

    def find(self, filter: Any = None, *args: Any, **kwargs: Any) -> EmbeddedCursor:
        if args:
            kwargs["projection"] = args[0]
        return EmbeddedCursor(self, filter, kwargs)

    async def find_one(self, filter: Any = None, *args: Any, **kwargs: Any) -> Any:
        cursor = self.find(filter, *args, **kwargs)
        found = await cursor.to_list(1)
        return found[0] if found else None

    async def aggregate(
        self, pipeline: Any, *args: Any, let: Any = None, **kwargs: Any
    ) -> _ListCursor:
        docs = await self._run(
            "aggregate", lambda: reads.aggregate(self._coll, list(pipeline), let)
        )
        return _ListCursor(docs)

    async def count_documents(self, filter: Any, *args: Any, **kwargs: Any) -> int:
        return await self._run("aggregate", lambda: int(self._coll.count_documents(filter)))

    # Writes.

    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> InsertOneResult:
        inserted = await self._run("insert", lambda: self._writes.insert(document))
        return InsertOneResult(inserted, True)

    async def insert_many(self, documents: Any, *args: Any, **kwargs: Any) -> InsertManyResult:
        bulk = await self._bulk_write([InsertOne(d) for d in documents], *args, **kwargs)
        return InsertManyResult(bulk.inserted_ids, True)

    async def update_one(
        self,
        filter: Any,
        update: Any,
        upsert: bool = False,
        *,
        array_filters: Any = None,
        sort: Any = None,
        **kwargs: Any,
    ) -> UpdateResult:
        outcome = await self._run(
            "update",
            lambda: self._writes.update_one(filter, update, upsert, sort, array_filters),
        )
        return UpdateResult(_raw_update(outcome), True)

    async def find_one_and_update(
        self,
        filter: Any,
        update: Any,
        projection: Any = None,
        sort: Any = None,
        upsert: bool = False,
        return_document: bool = ReturnDocument.BEFORE,
        array_filters: Any = None,
        **kwargs: Any,
    ) -> Any:
        def action() -> Any:
            outcome = self._writes.update_one(filter, update, upsert, sort, array_filters)
            doc = outcome.after if return_document == ReturnDocument.AFTER else outcome.before
            if doc is None or not projection:
                return doc
            return reads.project(self._coll, doc, projection)

        return await self._run("findAndModify", action)

    async def delete_one(self, filter: Any, *args: Any, **kwargs: Any) -> DeleteResult:
        deleted = await self._run("delete", lambda: self._coll.delete_one(filter).deleted_count)
        return DeleteResult({"n": deleted}, True)

    async def delete_many(self, filter: Any, *args: Any, **kwargs: Any) -> DeleteResult:
        deleted = await self._run("delete", lambda: self._coll.delete_many(filter).deleted_count)
        return DeleteResult({"n": deleted}, True)

    async def bulk_write(
        self, requests: Sequence[Any], ordered: bool = True, **kwargs: Any
    ) -> BulkWriteResult:
        bulk = await self._bulk_write(requests, ordered, **kwargs)
        return BulkWriteResult(bulk.raw(), True)

    async def _bulk_write(
        self, requests: Sequence[Any], ordered: bool = True, **kwargs: Any
    ) -> BulkOutcome:
        return await self._run("bulkWrite", lambda: self._writes.bulk_write(requests, ordered))

    async def create_indexes(self, indexes: Iterable[Any], *args: Any, **kwargs: Any) -> list[str]:
        def action() -> list[str]:
            names = []
            for index in indexes:
                spec = dict(index.document)
                keys = list(spec.pop("key").items())
                names.append(self._coll.create_index(keys, **spec))
            return names

        return await self._run("createIndexes", action)


class _ListCursor:
    def __init__(self, docs: list[Document]) -> None:
        self._docs = docs

    async def to_list(self, length: int | None = None) -> list[Document]:
        return self._docs if length is None else self._docs[:length]


class EmbeddedDatabase:
    def __init__(self, engine: EmbeddedEngine, db: Any) -> None:
        self._engine = engine
        self._db = db
        self._collections: dict[str, EmbeddedCollection] = {}

    def __getitem__(self, name: str) -> EmbeddedCollection:
        if name not in self._collections:
            self._collections[name] = EmbeddedCollection(self._engine, self._db[name])
        return self._collections[name]

    async def command(self, command: Any, *args: Any, **kwargs: Any) -> dict[str, Any]:
        name = command if isinstance(command, str) else next(iter(command))
        if name != "ping":
            raise NotImplementedError(f"the embedded engine does not run {name!r}")
        await asyncio.sleep(0)
        self._engine.observer.started(name)
        return {"ok": 1.0}


class EmbeddedEngine:
    """An in-process MongoDB stand-in; data lives in memory only.

    `observer` is told of each command (`CommandCounts` when none is given). Creating the first
    engine teaches mongomock-ng's parser the operators of `embedded.operators`, once per process.
    """

    def __init__(self, observer: CommandObserver | None = None) -> None:
        operators.install()
        self.observer: CommandObserver = observer if observer is not None else CommandCounts()
        self.lock = threading.RLock()
        self._client: Any = mongomock.new_client()
        self.updates = UpdateApplier()
        self._databases: dict[str, EmbeddedDatabase] = {}

    def __getitem__(self, name: str) -> EmbeddedDatabase:
        if name not in self._databases:
            self._databases[name] = EmbeddedDatabase(self, self._client[name])
        return self._databases[name]

    async def close(self) -> None:
        self._databases.clear()


def _raw_update(outcome: Outcome) -> dict[str, Any]:
    raw: dict[str, Any] = {"n": outcome.matched, "nModified": outcome.modified}
    if outcome.upserted_id is not None:
        raw["n"] = 1
        raw["upserted"] = outcome.upserted_id
    return raw
