"""The wire front's reads: find, aggregate, count, distinct, listIndexes, and the cursors they open.

A read runs whole on the engine's read path (`embedded.stages.reads`), as the in-process adapter
runs it, and its result is handed out in a server's batches (`embedded.adapter.batches`): the first
with the command's reply, the rest one per `getMore`, from a cursor kept here until it is exhausted
or killed. As on a server, a cursor whose documents all went out in a batch is closed (id 0).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded import rules
from embedded.adapter.batches import FIRST_BATCH_DOCUMENTS, batch_end
from embedded.adapter.engine import EmbeddedEngine
from embedded.planner import command_options
from embedded.protocols import Document
from embedded.stages import distinct, reads, unions
from embedded.wire.messages import Request
from embedded.writes import namespaces


def sort_list(spec: Any) -> list[tuple[str, Any]] | None:
    """A command's sort document as the engine takes it (PyMongo's list of pairs)."""
    return list(spec.items()) if spec else None


def _count(value: Any) -> int | None:
    """A `batchSize` or `limit` as a number; absent is None."""
    return None if value is None else int(value)


@dataclass(slots=True)
class _Cursor:
    namespace: str
    docs: list[Document]
    position: int


class CursorCommands:
    """The read commands of one front, with the cursors they left open."""

    def __init__(self, engine: EmbeddedEngine) -> None:
        self._engine = engine
        self._cursors: dict[int, _Cursor] = {}
        self._ids = itertools.count(1)

    def handlers(self) -> dict[str, Callable[[Request], Document]]:
        return {
            "find": self.find,
            "aggregate": self.aggregate,
            "getMore": self.get_more,
            "killCursors": self.kill_cursors,
            "count": self.count,
            "distinct": self.distinct,
            "listIndexes": self.list_indexes,
            "listCollections": self.list_collections,
        }

    def _open(
        self, namespace: str, docs: list[Document], first: int | None, single: bool
    ) -> Document:
        """The reply that opens a cursor over `docs`: the first batch, and the cursor's id."""
        end = batch_end(docs, 0, FIRST_BATCH_DOCUMENTS if first is None else first)
        cursor_id = 0
        if end < len(docs) and not single:
            cursor_id = next(self._ids)
            self._cursors[cursor_id] = _Cursor(namespace, docs, end)
        batch = {"firstBatch": docs[:end], "id": Int64(cursor_id), "ns": namespace}
        return {"cursor": batch, "ok": 1.0}

    def find(self, request: Request) -> Document:
        body = request.body
        limit = _count(body.get("limit")) or 0
        options = {
            "sort": sort_list(body.get("sort")),
            "skip": _count(body.get("skip")),
            "limit": abs(limit),  # a negative limit is the legacy single batch
            "projection": body.get("projection") or None,
            **{name: body.get(name) for name in ("let", "hint", "collation")},
        }
        coll = self._engine[request.db][request.target].mongomock_collection
        found = reads.find(coll, body.get("filter"), {k: v for k, v in options.items() if v})
        single = bool(body.get("singleBatch")) or limit < 0
        return self._open(request.namespace, found, _count(body.get("batchSize")), single)

    def aggregate(self, request: Request) -> Document:
        body = request.body
        if not isinstance(body["aggregate"], str):
            raise rules.unsupported("database-level aggregate")
        coll = self._engine[request.db][request.target].mongomock_collection
        command_options.check(coll, body.get("hint"), body.get("collation"))
        found = unions.aggregate(coll, list(body.get("pipeline", [])), body.get("let"))
        batch_size = _count(dict(body.get("cursor") or {}).get("batchSize"))
        return self._open(request.namespace, found, batch_size, single=False)

    def get_more(self, request: Request) -> Document:
        cursor_id = int(request.body["getMore"])
        cursor = self._cursors.get(cursor_id)
        namespace = f"{request.db}.{request.body.get('collection')}"
        if cursor is None or cursor.namespace != namespace:
            raise OperationFailure(f"cursor id {cursor_id} not found", rules.CURSOR_NOT_FOUND)
        start = cursor.position
        cursor.position = batch_end(
            cursor.docs, start, _count(request.body.get("batchSize")) or None
        )
        if cursor.position >= len(cursor.docs):
            del self._cursors[cursor_id]
            cursor_id = 0
        batch = {"nextBatch": cursor.docs[start : cursor.position], "id": Int64(cursor_id)}
        return {"cursor": {**batch, "ns": namespace}, "ok": 1.0}

    def kill_cursors(self, request: Request) -> Document:
        killed: list[Int64] = []
        not_found: list[Int64] = []
        for cursor_id in request.body.get("cursors", []):
            found = self._cursors.pop(int(cursor_id), None)
            (killed if found is not None else not_found).append(Int64(cursor_id))
        return {
            "cursorsKilled": killed,
            "cursorsNotFound": not_found,
            "cursorsAlive": [],
            "cursorsUnknown": [],
            "ok": 1.0,
        }

    def count(self, request: Request) -> Document:
        body = request.body
        skip, limit = _count(body.get("skip")) or 0, abs(_count(body.get("limit")) or 0)
        coll = self._engine[request.db][request.target].mongomock_collection
        command_options.check(coll, body.get("hint"), body.get("collation"))
        return {"n": reads.count(coll, body.get("query"), skip, limit), "ok": 1.0}

    def distinct(self, request: Request) -> Document:
        body = request.body
        coll = self._engine[request.db][request.target].mongomock_collection
        values = distinct.distinct(coll, body.get("key"), body.get("query"), body)
        return {"values": values, "ok": 1.0}

    def list_indexes(self, request: Request) -> Document:
        db = self._engine[request.db].mongomock_database
        if request.target not in db.list_collection_names():
            raise OperationFailure(
                f"ns does not exist: {request.namespace}", rules.NAMESPACE_NOT_FOUND
            )
        indexes = [
            {"v": 2, "key": dict(spec["key"]), "name": name}
            | {k: v for k, v in spec.items() if k not in ("key", "v", "ns")}
            for name, spec in db[request.target].index_information().items()
        ]
        namespace = f"{request.db}.$cmd.listIndexes.{request.target}"
        return self._open(namespace, indexes, None, single=False)

    def list_collections(self, request: Request) -> Document:
        """The database's collections; a filter may name one (all the engine supports)."""
        db = self._engine[request.db].mongomock_database
        found = [
            {"name": name, "type": "collection", "options": {}, "info": {"readOnly": False}}
            for name in namespaces.collection_names(db, request.body.get("filter"))
        ]
        return self._open(f"{request.db}.$cmd.listCollections", found, None, single=False)
