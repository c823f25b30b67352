"""A collection's writes, as PyMongo's async collection offers them: inserts, updates,
replacements, deletes, bulk writes, indexes and drop, each run on the engine's write path
(`embedded.writes.write_path`).

What takes several round trips with PyMongo takes as many commands here: a bulk write of several
kinds or sizes (`embedded.writes.bulk`). Each answers PyMongo's result class, unacknowledged
under `w: 0` (`embedded.adapter.commands`).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from bson import ObjectId
from pymongo import InsertOne, common
from pymongo.errors import BulkWriteError, InvalidOperation
from pymongo.results import (
    BulkWriteResult,
    DeleteResult,
    InsertManyResult,
    InsertOneResult,
    UpdateResult,
)

from embedded.adapter import driver
from embedded.adapter.commands import CollectionCommands
from embedded.writes import bulk
from embedded.writes.bulk import BulkOutcome
from embedded.writes.write_path import Outcome


class CollectionWrites(CollectionCommands):
    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> InsertOneResult:
        common.validate_is_document_type("document", document)
        if not self._options.acknowledged and "_id" not in document:
            document = {"_id": ObjectId(), **document}  # PyMongo names the document it sends
        sent = {"insert": self.name, "documents": [document]}
        inserted = await self._write("insert", lambda: self._writes.insert(document), sent=sent)
        if inserted is None:
            return InsertOneResult(document.get("_id"), False)
        return InsertOneResult(inserted, True)

    async def insert_many(self, documents: Any, *args: Any, **kwargs: Any) -> InsertManyResult:
        documents = list(documents)
        if not documents:
            raise TypeError("documents must be a non-empty list")  # as PyMongo refuses it
        ordered = bool(args[0]) if args else bool(kwargs.get("ordered", True))
        if not self._options.acknowledged:  # PyMongo names the documents it sends
            documents = [d if "_id" in d else {"_id": ObjectId(), **d} for d in documents]
        outcome = await self._bulk_write([InsertOne(d) for d in documents], ordered, let=None)
        if outcome is None:
            return InsertManyResult([d["_id"] for d in documents], False)
        return InsertManyResult(outcome.inserted_ids, True)

    async def update_one(
        self,
        filter: Any,
        update: Any,
        upsert: bool = False,
        bypass_document_validation: bool | None = None,
        collation: Any = None,
        array_filters: Any = None,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        sort: Any = None,
        comment: Any = None,
    ) -> UpdateResult:
        driver.check_update(filter, update, upsert, array_filters)

        def update_one() -> Outcome:
            self._writes.check_options(hint, collation)
            return self._writes.update_one(filter, update, upsert, sort, array_filters, let)

        outcome = await self._write(
            "update",
            update_one,
            sent={"update": self.name, "updates": [{"q": filter, "u": update}]},
        )
        return _update_result(outcome)

    async def update_many(
        self,
        filter: Any,
        update: Any,
        upsert: bool = False,
        array_filters: Any = None,
        bypass_document_validation: bool | None = None,
        collation: Any = None,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        comment: Any = None,
    ) -> UpdateResult:
        driver.check_update(filter, update, upsert, array_filters)

        def update_many() -> Outcome:
            self._writes.check_options(hint, collation)
            return self._writes.update_many(filter, update, upsert, array_filters, let)

        outcome = await self._write(
            "update",
            update_many,
            sent={"update": self.name, "updates": [{"q": filter, "u": update, "multi": True}]},
        )
        return _update_result(outcome)

    async def replace_one(
        self,
        filter: Any,
        replacement: Any,
        upsert: bool = False,
        bypass_document_validation: bool | None = None,
        collation: Any = None,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        sort: Any = None,
        comment: Any = None,
    ) -> UpdateResult:
        driver.check_replacement(filter, replacement, upsert)

        def replace_one() -> Outcome:
            self._writes.check_options(hint, collation)
            return self._writes.update_one(filter, replacement, upsert, sort, None, let)

        outcome = await self._write(
            "update",
            replace_one,
            sent={"update": self.name, "updates": [{"q": filter, "u": replacement}]},
        )
        return _update_result(outcome)

    async def delete_one(
        self,
        filter: Any,
        collation: Any = None,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        comment: Any = None,
    ) -> DeleteResult:
        return await self._delete(filter, hint, collation, let, many=False)

    async def delete_many(
        self,
        filter: Any,
        collation: Any = None,
        hint: Any = None,
        session: Any = None,
        let: Mapping[str, Any] | None = None,
        comment: Any = None,
    ) -> DeleteResult:
        return await self._delete(filter, hint, collation, let, many=True)

    async def _delete(
        self, filter: Any, hint: Any, collation: Any, let: Any, *, many: bool
    ) -> DeleteResult:
        driver.check_filter(filter)

        def delete() -> int:
            self._writes.check_options(hint, collation)
            return self._writes.delete(filter, many=many, variables=let)

        sent = {"delete": self.name, "deletes": [{"q": filter, "limit": 0 if many else 1}]}
        deleted = await self._write("delete", delete, sent=sent)
        if deleted is None:
            return DeleteResult(None, False)  # type: ignore[arg-type]  # as PyMongo builds it
        return DeleteResult({"n": deleted}, True)

    async def bulk_write(
        self,
        requests: Sequence[Any],
        ordered: bool = True,
        bypass_document_validation: bool | None = None,
        session: Any = None,
        comment: Any = None,
        let: Mapping[str, Any] | None = None,
    ) -> BulkWriteResult:
        if not isinstance(requests, list):
            raise TypeError(f"requests must be a list, not {type(requests)}")
        for request in requests:
            bulk.check_request(request)
        if not requests:
            raise InvalidOperation("No operations to execute")  # as PyMongo refuses it
        outcome = await self._bulk_write(requests, ordered, let=let)
        if outcome is None:
            return BulkWriteResult({}, False)
        return BulkWriteResult(outcome.raw(), True)

    async def _bulk_write(
        self, requests: Sequence[Any], ordered: bool = True, *, let: Mapping[str, Any] | None
    ) -> BulkOutcome | None:
        """One command per run of one kind of write, as PyMongo sends them; an ordered bulk
        sends no more after a write error, an unordered one sends them all. None when
        unacknowledged (its errors unseen)."""
        outcome = BulkOutcome()
        for run in bulk.command_runs(list(requests), ordered):
            apply = functools.partial(bulk.apply_run, self._writes, run, ordered, outcome, let)
            await self._run(run.command, apply)
            if ordered and outcome.errors:
                break
        if not self._options.acknowledged:
            return None
        if outcome.errors:
            raise BulkWriteError(outcome.raw())
        return outcome

    async def create_indexes(self, indexes: Iterable[Any], *args: Any, **kwargs: Any) -> list[str]:
        specs = [index.document for index in indexes]
        return await self._run("createIndexes", lambda: self._writes.create_indexes(specs))

    async def drop(self, session: Any = None, comment: Any = None, **kwargs: Any) -> None:
        """The collection dropped (its indexes too); dropping one that does not exist succeeds,
        as on a server since MongoDB 7.0."""
        db, name = self._coll.database, self.name
        await self._run("drop", lambda: db.drop_collection(name), sent={"drop": name})


def _update_result(outcome: Outcome | None) -> UpdateResult:
    if outcome is None:
        return UpdateResult(None, False)  # as PyMongo builds it
    raw: dict[str, Any] = {"n": outcome.matched, "nModified": outcome.modified}
    if outcome.upserted:
        raw["n"] = 1
        raw["upserted"] = outcome.upserted_id
    return UpdateResult(raw, True)
