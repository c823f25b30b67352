"""A collection of the engine: the slice of PyMongo's async collection API that arraygraph's store
uses.

Each public coroutine is one command, named as PyMongo names what it sends: it yields to the event
loop once, as a round trip would, then is reported to the engine's observer and runs without
interruption under the engine's lock, on the engine's worker thread (`EmbeddedEngine.run`), which
makes each command atomic for concurrent requests and leaves the event loop free meanwhile; a read
that examines one document at most (by `_id` or a unique key) runs on the loop instead. What takes
several round trips with PyMongo takes as many commands here: a read past its first batch
(`embedded.adapter.cursors`), a bulk write of several kinds or sizes (`embedded.writes.bulk`). What
PyMongo refuses before sending is refused before any round trip (`embedded.adapter.driver`), and
failures are what PyMongo raises on a real server. Writes go through `embedded.writes.write_path`,
reads through `embedded.stages.reads`.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

from pymongo import InsertOne, ReturnDocument
from pymongo.errors import BulkWriteError, InvalidOperation, OperationFailure
from pymongo.results import (
    BulkWriteResult,
    DeleteResult,
    InsertManyResult,
    InsertOneResult,
    UpdateResult,
)

from embedded import rules
from embedded.adapter import driver
from embedded.adapter.batches import FIRST_BATCH_DOCUMENTS, split
from embedded.adapter.cursors import BatchCursor, EmbeddedCursor
from embedded.expressions.variables import let_values
from embedded.planner import command_options
from embedded.protocols import Document
from embedded.stages import reads, unions
from embedded.writes import bulk
from embedded.writes.bulk import BulkOutcome
from embedded.writes.write_path import Outcome, Writes

if TYPE_CHECKING:  # the engine creates its collections: a type, not an import, of the engine
    from embedded.adapter.engine import EmbeddedEngine

T = TypeVar("T")


class EmbeddedCollection:
    def __init__(self, engine: EmbeddedEngine, coll: Any) -> None:
        self._engine = engine
        self._coll = coll
        self._writes = Writes(coll, engine.updates)

    @property
    def name(self) -> str:
        return str(self._coll.name)

    # The synchronous internals, for a caller that holds `engine.lock` (the wire front).

    @property
    def mongomock_collection(self) -> Any:
        return self._coll

    @property
    def writes(self) -> Writes:
        return self._writes

    async def _run(
        self,
        command: str,
        action: Callable[[], T],
        reply: Callable[[T], object] | None = None,
        sent: Mapping[str, Any] | None = None,
        small: Callable[[], bool] | None = None,
    ) -> T:
        """`action` as one command, run by the engine off the event loop, or on it when
        `small()` (`EmbeddedEngine.run`); the observer is told of `reply(result)` (the result).

        `sent` is the command as PyMongo would send it: what it refuses is refused here too,
        before any round trip (`embedded.adapter.driver`)."""
        if sent is not None:
            driver.check_command(sent)
        await asyncio.sleep(0)  # a round trip lets other requests run, as network I/O does
        return await self._engine.run(command, action, reply, small=small)

    async def _read(
        self,
        sent: Mapping[str, Any],
        action: Callable[[], list[Document]],
        batch_size: int | None,
        single: bool,
        small: Callable[[], bool],
    ) -> BatchCursor:
        """A read, cut into a server's batches: the command's reply brings the first."""

        def run() -> list[list[Document]]:
            first = FIRST_BATCH_DOCUMENTS if batch_size is None else batch_size
            return split(action(), first=first, size=batch_size, single=single)

        command = next(iter(sent))
        batches = await self._run(
            command, run, reply=lambda found: found[0], sent=sent, small=small
        )
        return BatchCursor(self._engine.observer, batches[0], batches[1:])

    # Reads.

    def find(self, filter: Any = None, *args: Any, **kwargs: Any) -> EmbeddedCursor:
        if args:
            kwargs["projection"] = args[0]
        batch_size = kwargs.pop("batch_size", None) or None
        limit = int(kwargs.get("limit") or 0)
        if limit < 0:  # PyMongo's single batch of at most -limit documents
            kwargs["limit"] = -limit
        coll = self._coll
        sent = {"find": self.name, "filter": filter or {}, **_options(kwargs)}
        return EmbeddedCursor(
            lambda: self._read(
                sent,
                lambda: reads.find(coll, filter, kwargs),
                batch_size,
                single=limit < 0,
                small=lambda: reads.examines_one_document(coll, filter),
            )
        )

    async def find_one(self, filter: Any = None, *args: Any, **kwargs: Any) -> Any:
        kwargs["limit"] = -1  # as PyMongo's find_one asks: one document, one batch
        found = await self.find(filter, *args, **kwargs).to_list()
        return found[0] if found else None

    async def aggregate(
        self, pipeline: Any, *args: Any, let: Any = None, **kwargs: Any
    ) -> BatchCursor:
        stages = list(pipeline)
        batch_size = kwargs.get("batchSize")
        sent = {"aggregate": self.name, "pipeline": stages, "let": let}

        def run() -> list[Document]:
            command_options.check(self._coll, kwargs.get("hint"), kwargs.get("collation"))
            return unions.aggregate(self._coll, stages, let)

        return await self._read(
            sent,
            run,
            batch_size,
            single=False,
            small=lambda: reads.examines_one_document(self._coll, None, stages, let),
        )

    async def count_documents(self, filter: Any, *args: Any, **kwargs: Any) -> int:
        sent = {"aggregate": self.name, "pipeline": [{"$match": filter}]}

        def run() -> int:
            command_options.check(self._coll, kwargs.get("hint"), kwargs.get("collation"))
            return reads.count(self._coll, filter)

        return await self._run("aggregate", run, sent=sent)

    # Writes.

    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> InsertOneResult:
        sent = {"insert": self.name, "documents": [document]}
        inserted = await self._run("insert", lambda: self._writes.insert(document), sent=sent)
        return InsertOneResult(inserted, True)

    async def insert_many(self, documents: Any, *args: Any, **kwargs: Any) -> InsertManyResult:
        documents = list(documents)
        if not documents:
            raise TypeError("documents must be a non-empty list")  # as PyMongo refuses it
        ordered = bool(args[0]) if args else bool(kwargs.get("ordered", True))
        outcome = await self._bulk_write([InsertOne(d) for d in documents], ordered, let=None)
        return InsertManyResult(outcome.inserted_ids, True)

    async def update_one(
        self,
        filter: Any,
        update: Any,
        upsert: bool = False,
        *,
        array_filters: Any = None,
        sort: Any = None,
        let: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> UpdateResult:
        def run() -> Outcome:
            self._writes.check_options(kwargs.get("hint"), kwargs.get("collation"))
            return self._writes.update_one(filter, update, upsert, sort, array_filters, let)

        sent = {"update": self.name, "updates": [{"q": filter, "u": update}]}
        outcome = await self._run("update", run, sent=sent)
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
        let: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> Any:
        def action() -> Any:
            command_options.check(self._coll, kwargs.get("hint"), kwargs.get("collation"))
            try:
                outcome = self._writes.update_one(filter, update, upsert, sort, array_filters, let)
            except OperationFailure as exc:
                raise rules.command_error(exc) from None  # findAndModify fails as a command
            doc = outcome.after if return_document == ReturnDocument.AFTER else outcome.before
            if doc is None or not projection:
                return doc
            return reads.project(self._coll, doc, projection, let_values(let))

        sent = {"findAndModify": self.name, "query": filter, "update": update}
        return await self._run("findAndModify", action, sent=sent)

    async def delete_one(self, filter: Any, *args: Any, **kwargs: Any) -> DeleteResult:
        return await self._delete(filter, kwargs, many=False)

    async def delete_many(self, filter: Any, *args: Any, **kwargs: Any) -> DeleteResult:
        return await self._delete(filter, kwargs, many=True)

    async def _delete(self, filter: Any, options: Mapping[str, Any], *, many: bool) -> DeleteResult:
        """A delete; `options` are its keyword arguments (`let`, `hint`, `collation`)."""

        def run() -> int:
            self._writes.check_options(options.get("hint"), options.get("collation"))
            return self._writes.delete(filter, many=many, variables=options.get("let"))

        sent = {"delete": self.name, "deletes": [{"q": filter, "limit": 0 if many else 1}]}
        deleted = await self._run("delete", run, sent=sent)
        return DeleteResult({"n": deleted}, True)

    async def bulk_write(
        self,
        requests: Sequence[Any],
        ordered: bool = True,
        *,
        let: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> BulkWriteResult:
        if not requests:
            raise InvalidOperation("No operations to execute")  # as PyMongo refuses it
        outcome = await self._bulk_write(requests, ordered, let=let)
        return BulkWriteResult(outcome.raw(), True)

    async def _bulk_write(
        self, requests: Sequence[Any], ordered: bool = True, *, let: Mapping[str, Any] | None
    ) -> BulkOutcome:
        """One command per run of one kind of write, as PyMongo sends them; an ordered bulk
        sends no more after a write error, an unordered one sends them all."""
        outcome = BulkOutcome()
        for run in bulk.command_runs(list(requests), ordered):
            apply = functools.partial(bulk.apply_run, self._writes, run, ordered, outcome, let)
            await self._run(run.command, apply)
            if ordered and outcome.errors:
                break
        if outcome.errors:
            raise BulkWriteError(outcome.raw())
        return outcome

    async def create_indexes(self, indexes: Iterable[Any], *args: Any, **kwargs: Any) -> list[str]:
        specs = [index.document for index in indexes]
        return await self._run("createIndexes", lambda: self._writes.create_indexes(specs))


def _raw_update(outcome: Outcome) -> dict[str, Any]:
    raw: dict[str, Any] = {"n": outcome.matched, "nModified": outcome.modified}
    if outcome.upserted:
        raw["n"] = 1
        raw["upserted"] = outcome.upserted_id
    return raw


def _options(kwargs: Mapping[str, Any]) -> dict[str, Any]:
    """The options of a find that PyMongo sends as documents (the rest are small numbers)."""
    return {k: kwargs[k] for k in ("projection", "sort") if kwargs.get(k) is not None}
