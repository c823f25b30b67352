"""The engine's write path: what a write makes of a document, checked, and only then stored.

Every write is computed on a copy of the matched document, checked against the server's rules in
`embedded.rules`, and only then stored, so a rejected write changes nothing (as on a server).
Everything here runs under the engine's lock, one command at a time.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from bson import ObjectId
from pymongo import DeleteOne, InsertOne, UpdateOne
from pymongo.errors import BulkWriteError, WriteError

from embedded import mongomock_internals as mongomock
from embedded import reads, rules
from embedded.protocols import Document


def apply_pipeline(coll: Any, doc: Document, pipeline: Iterable[Mapping[str, Any]]) -> Document:
    """What an update pipeline turns `doc` into (a server applies it to the one document).

    `doc` is a reply-form copy (UTC datetimes), as are the pipeline's literals: it is used as
    it is, and the result is stored by the caller, which copies it.
    """
    [result] = mongomock.run_pipeline(coll, [doc], list(pipeline))
    return dict(result)


class UpdateApplier:
    def __init__(self) -> None:
        # Operator updates run here, on a copy, with mongomock-ng's own update code.
        self._scratch: Any = mongomock.new_client()["scratch"]["scratch"]

    def apply_update(
        self, coll: Any, current: Document, update: Any, array_filters: Any
    ) -> Document:
        """The document `update` turns `current` (a copy) into; nothing is stored."""
        if not isinstance(update, Mapping):
            with _as_write_errors():
                return apply_pipeline(coll, current, update)
        self._scratch.delete_many({})
        self._scratch.insert_one(current)
        with _as_write_errors():
            self._scratch.update_one({"_id": current["_id"]}, update, array_filters=array_filters)
        [new] = list(self._scratch.find({}))
        return dict(new)

    def apply_upsert(self, coll: Any, seed: Document, update: Any) -> Document:
        """The document an upsert inserts: the filter's equalities, then the update."""
        if not isinstance(update, Mapping):
            with _as_write_errors():
                return apply_pipeline(coll, {"_id": ObjectId(), **seed}, update)
        self._scratch.delete_many({})
        with _as_write_errors():
            self._scratch.update_one(seed, update, upsert=True)
        [new] = list(self._scratch.find({}))
        return dict(new)


@contextmanager
def _as_write_errors() -> Iterator[None]:
    """mongomock-ng fails with Python errors where a server answers with a WriteError."""
    try:
        yield
    except WriteError as exc:
        if "_id" in str(exc):
            raise rules.write_error(rules.IMMUTABLE_FIELD, str(exc)) from None
        raise
    except (TypeError, AttributeError, ValueError, KeyError) as exc:
        raise rules.write_error(rules.TYPE_MISMATCH, f"cannot apply update: {exc}") from None


@dataclass(frozen=True, slots=True)
class Outcome:
    matched: int
    modified: int
    upserted_id: Any
    before: Document | None
    after: Document | None


def _totals() -> dict[str, int]:
    return {"nInserted": 0, "nUpserted": 0, "nMatched": 0, "nModified": 0, "nRemoved": 0}


@dataclass(slots=True)
class BulkOutcome:
    totals: dict[str, int] = field(default_factory=_totals)
    upserted: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    inserted_ids: list[Any] = field(default_factory=list)

    def raw(self) -> dict[str, Any]:
        """The reply PyMongo's `BulkWriteResult` and `BulkWriteError` are built from."""
        return {
            **self.totals,
            "upserted": self.upserted,
            "writeErrors": self.errors,
            "writeConcernErrors": [],
        }


class Writes:
    """The server's write path for one collection."""

    def __init__(self, coll: Any, updates: UpdateApplier) -> None:
        self._coll = coll
        self._updates = updates

    def insert(self, document: Mapping[str, Any]) -> Any:
        new = copy.deepcopy(dict(document))
        rules.check_document(new, too_large_code=rules.BSON_OBJECT_TOO_LARGE)
        return self._coll.insert_one(new).inserted_id  # a unique index raises DuplicateKeyError

    def update_one(
        self, filter: Any, update: Any, upsert: bool, sort: Any, array_filters: Any
    ) -> Outcome:
        if isinstance(update, Mapping):
            rules.check_update_paths(update)
        else:
            rules.check_pipeline(list(update), array_filters=array_filters)
        seed = rules.upsert_seed(filter) if upsert else {}
        found = reads.find(self._coll, filter, {"sort": sort, "limit": 1})
        if not found:
            if not upsert:
                return Outcome(0, 0, None, None, None)
            new = self._updates.apply_upsert(self._coll, seed, update)
            if "_id" in seed:
                rules.check_immutable_id(seed["_id"], new["_id"])
            rules.check_document(new, too_large_code=rules.UPSERT_TOO_LARGE)
            self._coll.insert_one(new)  # a unique index raises DuplicateKeyError here
            return Outcome(0, 0, new["_id"], None, new)
        current = found[0]
        new = self._updates.apply_update(self._coll, current, update, array_filters)
        rules.check_immutable_id(current["_id"], new["_id"])
        rules.check_document(new, too_large_code=rules.UPDATE_TOO_LARGE)
        modified = new != current
        if modified:
            self._coll.replace_one({"_id": current["_id"]}, new)
        return Outcome(1, int(modified), None, current, new)

    def bulk_write(self, requests: Sequence[Any], ordered: bool) -> BulkOutcome:
        """Each request in turn; a write error stops an ordered bulk, as on a server.

        Write errors are reported as PyMongo reports a server's (a DuplicateKeyError is one):
        a `BulkWriteError` whose `writeErrors` name each failed request's index, code and op.
        """
        bulk = BulkOutcome()
        for index, op in enumerate(requests):
            try:
                self._apply(index, op, bulk)
            except WriteError as exc:
                bulk.errors.append(_write_error(index, op, exc))
                if ordered:
                    break
        if bulk.errors:
            raise BulkWriteError(bulk.raw())
        return bulk

    def _apply(self, index: int, op: Any, bulk: BulkOutcome) -> None:
        if isinstance(op, UpdateOne):
            outcome = self.update_one(*_update_arguments(op))
            bulk.totals["nMatched"] += outcome.matched
            bulk.totals["nModified"] += outcome.modified
            if outcome.upserted_id is not None:
                bulk.totals["nUpserted"] += 1
                bulk.upserted.append({"index": index, "_id": outcome.upserted_id})
        elif isinstance(op, InsertOne):
            bulk.inserted_ids.append(self.insert(_inserted_document(op)))
            bulk.totals["nInserted"] += 1
        elif isinstance(op, DeleteOne):
            bulk.totals["nRemoved"] += self._coll.delete_one(_delete_filter(op)).deleted_count
        else:
            raise TypeError(f"the embedded engine does not support {type(op).__name__}")


# PyMongo's request classes keep their arguments in private attributes (pymongo/operations.py);
# these three functions are the only readers.
def _update_arguments(op: UpdateOne) -> tuple[Any, Any, bool, Any, Any]:
    return op._filter, op._doc, bool(op._upsert), op._sort, op._array_filters


def _inserted_document(op: InsertOne[Any]) -> Any:
    return op._doc


def _delete_filter(op: DeleteOne) -> Any:
    return op._filter


def _as_sent(op: Any) -> Any:
    """A request as PyMongo names it in a write error: the statement sent to the server."""
    if isinstance(op, InsertOne):
        return _inserted_document(op)
    if isinstance(op, UpdateOne):
        filter, update, upsert, sort, array_filters = _update_arguments(op)
        statement = {"q": filter, "u": update, "multi": False, "upsert": upsert}
        if array_filters is not None:
            statement["arrayFilters"] = array_filters
        if sort is not None:
            statement["sort"] = sort
        return statement
    return {"q": _delete_filter(op), "limit": 1}


def _write_error(index: int, op: Any, exc: WriteError) -> dict[str, Any]:
    # A duplicate key's details carry keyPattern and keyValue, as a server's reply does.
    details = exc.details or {}
    return {**details, "index": index, "code": exc.code, "errmsg": str(exc), "op": _as_sent(op)}
