"""The embedded engine: mongomock-ng behind the slice of PyMongo's async API that `store/` uses.

Every write is computed on a copy of the matched document, checked against the server's rules in
`store.rules`, and only then stored, so a rejected write changes nothing (as on a server). Each
public coroutine is one command: it yields to the event loop once, as a round trip would, is
counted, then runs without interruption, which makes each command atomic for concurrent requests.
"""

from __future__ import annotations

import asyncio
import copy
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import mongomock_ng
from pymongo import DeleteOne, InsertOne, ReturnDocument, UpdateOne
from pymongo.errors import BulkWriteError, WriteError
from pymongo.results import BulkWriteResult, DeleteResult, InsertOneResult, UpdateResult

from store import embedded_operators, embedded_reads, rules
from store.commands import CommandLog
from store.embedded_writes import UpdateApplier
from store.protocols import Document

T = TypeVar("T")

embedded_operators.install()


@dataclass(frozen=True, slots=True)
class _Outcome:
    matched: int
    modified: int
    upserted_id: Any
    before: Document | None
    after: Document | None


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
        return await self._collection._run(
            "find", lambda: embedded_reads.find(coll, self._filter, kwargs)
        )


class EmbeddedCollection:
    def __init__(self, engine: EmbeddedEngine, coll: Any) -> None:
        self._engine = engine
        self._coll = coll

    @property
    def name(self) -> str:
        return str(self._coll.name)

    async def _run(self, command: str, action: Callable[[], T]) -> T:
        await asyncio.sleep(0)  # a round trip lets other requests run, as network I/O does
        self._engine.commands.started(command)
        with self._engine.lock:
            result = action()
        self._engine.commands.replied(result)
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
            "aggregate", lambda: embedded_reads.aggregate(self._coll, list(pipeline), let)
        )
        return _ListCursor(docs)

    async def count_documents(self, filter: Any, *args: Any, **kwargs: Any) -> int:
        return await self._run("aggregate", lambda: int(self._coll.count_documents(filter)))

    # Writes.

    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> InsertOneResult:
        inserted = await self._run("insert", lambda: self._insert(document))
        return InsertOneResult(inserted, True)

    async def insert_many(self, documents: Any, *args: Any, **kwargs: Any) -> BulkWriteResult:
        return await self.bulk_write([InsertOne(d) for d in documents], *args, **kwargs)

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
            lambda: self._update_one(filter, update, upsert, sort, array_filters),
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
            outcome = self._update_one(filter, update, upsert, sort, array_filters)
            doc = outcome.after if return_document == ReturnDocument.AFTER else outcome.before
            if doc is None or not projection:
                return doc
            return embedded_reads.project(self._coll, doc, projection)

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
        return await self._run("bulkWrite", lambda: self._bulk_write(requests, ordered))

    async def create_indexes(self, indexes: Iterable[Any], *args: Any, **kwargs: Any) -> list[str]:
        def action() -> list[str]:
            names = []
            for index in indexes:
                spec = dict(index.document)
                keys = list(spec.pop("key").items())
                names.append(self._coll.create_index(keys, **spec))
            return names

        return await self._run("createIndexes", action)

    # The server's write path, run under the engine's lock.

    def _insert(self, document: Mapping[str, Any]) -> Any:
        new = copy.deepcopy(dict(document))
        rules.check_document(new, too_large_code=rules.BSON_OBJECT_TOO_LARGE)
        return self._coll.insert_one(new).inserted_id

    def _update_one(
        self, filter: Any, update: Any, upsert: bool, sort: Any, array_filters: Any
    ) -> _Outcome:
        if isinstance(update, Mapping):
            rules.check_update_paths(update)
        else:
            rules.check_pipeline(list(update), array_filters=array_filters)
        seed = rules.upsert_seed(filter) if upsert else {}
        found = embedded_reads.find(self._coll, filter, {"sort": sort, "limit": 1})
        if not found:
            if not upsert:
                return _Outcome(0, 0, None, None, None)
            new = self._engine.updates.apply_upsert(self._coll, seed, update)
            if "_id" in seed:
                rules.check_immutable_id(seed["_id"], new["_id"])
            rules.check_document(new, too_large_code=rules.UPSERT_TOO_LARGE)
            self._coll.insert_one(new)  # a unique index raises DuplicateKeyError here
            return _Outcome(0, 0, new["_id"], None, new)
        current = found[0]
        new = self._engine.updates.apply_update(self._coll, current, update, array_filters)
        rules.check_immutable_id(current["_id"], new["_id"])
        rules.check_document(new, too_large_code=rules.UPDATE_TOO_LARGE)
        modified = new != current
        if modified:
            self._coll.replace_one({"_id": current["_id"]}, new)
        return _Outcome(1, int(modified), None, current, new)

    def _bulk_write(self, requests: Sequence[Any], ordered: bool) -> BulkWriteResult:
        totals = {"nInserted": 0, "nUpserted": 0, "nMatched": 0, "nModified": 0, "nRemoved": 0}
        upserted: list[dict[str, Any]] = []
        errors: list[dict[str, Any]] = []
        for index, op in enumerate(requests):
            try:
                if isinstance(op, UpdateOne):
                    outcome = self._update_one(
                        op._filter, op._doc, bool(op._upsert), op._sort, op._array_filters
                    )
                    totals["nMatched"] += outcome.matched
                    totals["nModified"] += outcome.modified
                    if outcome.upserted_id is not None:
                        totals["nUpserted"] += 1
                        upserted.append({"index": index, "_id": outcome.upserted_id})
                elif isinstance(op, InsertOne):
                    self._insert(op._doc)
                    totals["nInserted"] += 1
                elif isinstance(op, DeleteOne):
                    totals["nRemoved"] += self._coll.delete_one(op._filter).deleted_count
                else:
                    raise TypeError(f"the embedded engine does not support {type(op).__name__}")
            except WriteError as exc:
                errors.append(
                    {"index": index, "code": exc.code, "errmsg": str(exc), "op": op._filter}
                )
                if ordered:
                    break
        result = {**totals, "upserted": upserted, "writeErrors": errors, "writeConcernErrors": []}
        if errors:
            raise BulkWriteError(result)
        return BulkWriteResult(result, True)


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
        self._engine.commands.started(name)
        return {"ok": 1.0}


class EmbeddedEngine:
    """An in-process MongoDB stand-in; data lives in memory only."""

    def __init__(self, commands: CommandLog | None = None) -> None:
        self.commands = commands or CommandLog()
        self.lock = threading.RLock()
        self._client: Any = mongomock_ng.MongoClient(tz_aware=True)
        self.updates = UpdateApplier()
        self._databases: dict[str, EmbeddedDatabase] = {}

    def __getitem__(self, name: str) -> EmbeddedDatabase:
        if name not in self._databases:
            self._databases[name] = EmbeddedDatabase(self, self._client[name])
        return self._databases[name]

    async def close(self) -> None:
        self._databases.clear()


def _raw_update(outcome: _Outcome) -> dict[str, Any]:
    raw: dict[str, Any] = {"n": outcome.matched, "nModified": outcome.modified}
    if outcome.upserted_id is not None:
        raw["n"] = 1
        raw["upserted"] = outcome.upserted_id
    return raw
