"""The embedded engine's write path: what an update makes of a document, before it is stored.

Every write is computed on a copy; the caller checks the result against the server's rules and
only then stores it, so a rejected write changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

import mongomock_ng
from bson import ObjectId
from pymongo.errors import WriteError

from store import embedded_reads, rules
from store.protocols import Document


class UpdateApplier:
    def __init__(self) -> None:
        # Operator updates run here, on a copy, with mongomock-ng's own update code.
        self._scratch: Any = mongomock_ng.MongoClient(tz_aware=True)["scratch"]["scratch"]

    def apply_update(
        self, coll: Any, current: Document, update: Any, array_filters: Any
    ) -> Document:
        """The document `update` turns `current` (a copy) into; nothing is stored."""
        if not isinstance(update, Mapping):
            with _as_write_errors():
                return embedded_reads.apply_pipeline(coll, current, update)
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
                return embedded_reads.apply_pipeline(coll, {"_id": ObjectId(), **seed}, update)
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
