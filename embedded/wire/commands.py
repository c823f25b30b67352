"""The commands the wire front answers, and the replies a MongoDB 8.0 standalone gives to them.

Every command runs synchronously under the engine's lock, on the engine's internals (the read
and write paths the in-process adapter uses), so one runs at a time and each is atomic, whichever
thread the adapter's own users run in. The handshake describes a standalone server (no `setName`,
no `$clusterTime`, no `topologyVersion`, so PyMongo polls instead of streaming), of MongoDB 8.0's
wire version and limits; a command it does not know is `CommandNotFound`, as on a server.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import UTC, datetime
from functools import partial

from pymongo.errors import OperationFailure

from embedded import rules
from embedded.adapter.batches import MAX_BATCH_BYTES
from embedded.adapter.engine import EmbeddedEngine
from embedded.examined import ReportedTo
from embedded.protocols import Document
from embedded.wire import writes as wire_writes
from embedded.wire.messages import MAX_MESSAGE_BYTES, Request
from embedded.wire.reads import CursorCommands
from embedded.writes import namespaces
from embedded.writes import write_path as writes
from embedded.writes.bulk import MAX_WRITE_BATCH_SIZE

logger = logging.getLogger("embedded.wire")

MAX_WIRE_VERSION = 25  # MongoDB 8.0
VERSION = "8.0.0"
LEGACY_HELLO = frozenset({"ismaster", "isMaster"})

Handler = Callable[[Request], Document]


def hello(request: Request) -> Document:
    """A standalone's handshake; the legacy `isMaster` says `ismaster` where `hello` says
    `isWritablePrimary`, as a server does."""
    primary = "ismaster" if request.name in LEGACY_HELLO else "isWritablePrimary"
    reply: Document = {
        primary: True,
        "maxBsonObjectSize": MAX_BATCH_BYTES,
        "maxMessageSizeBytes": MAX_MESSAGE_BYTES,
        "maxWriteBatchSize": MAX_WRITE_BATCH_SIZE,
        "localTime": datetime.now(UTC),
        "logicalSessionTimeoutMinutes": 30,
        "connectionId": request.connection_id,
        "minWireVersion": 0,
        "maxWireVersion": MAX_WIRE_VERSION,
        "readOnly": False,
    }
    if request.body.get("helloOk"):
        reply["helloOk"] = True  # the client may say `hello` from now on
    return {**reply, "ok": 1.0}


def build_info(request: Request) -> Document:
    return {
        "version": VERSION,
        "versionArray": [8, 0, 0, 0],
        "bits": 64,
        "maxBsonObjectSize": MAX_BATCH_BYTES,
        "ok": 1.0,
    }


def ok(request: Request) -> Document:
    return {"ok": 1.0}


def create_indexes(engine: EmbeddedEngine, request: Request) -> Document:
    db = engine[request.db]
    existed = request.target in db.mongomock_database.list_collection_names()
    collection = db[request.target]
    before = len(collection.mongomock_collection.index_information())
    collection.writes.create_indexes(request.body.get("indexes", []))
    after = len(collection.mongomock_collection.index_information())
    return {
        "numIndexesBefore": before,
        "numIndexesAfter": after,
        "createdCollectionAutomatically": not existed,
        "ok": 1.0,
    }


def drop(engine: EmbeddedEngine, request: Request) -> Document:
    indexes = namespaces.drop_collection(engine[request.db].mongomock_database, request.target)
    return {"nIndexesWas": indexes, "ns": request.namespace, "ok": 1.0}


def create(engine: EmbeddedEngine, request: Request) -> Document:
    """A plain collection; the options that make another kind are refused."""
    options = {key: value for key, value in request.body.items() if key != "create"}
    namespaces.create_collection(engine[request.db].mongomock_database, request.target, options)
    return {"ok": 1.0}


def refused(what: str, request: Request) -> Document:
    """A command the engine knows and does not run: its clear error."""
    raise rules.unsupported(what)


def drop_database(engine: EmbeddedEngine, request: Request) -> Document:
    writes.drop_database(engine[request.db].mongomock_database)
    return {"dropped": request.db, "ok": 1.0}


class Commands:
    """The commands of one front: `run(request)` is the reply to send."""

    def __init__(self, engine: EmbeddedEngine) -> None:
        self._engine = engine
        on_engine = {
            "insert": wire_writes.insert,
            "update": wire_writes.update,
            "delete": wire_writes.delete,
            "findAndModify": wire_writes.find_and_modify,
            "createIndexes": create_indexes,
            "drop": drop,
            "bulkWrite": wire_writes.client_bulk_write,
            "create": create,
            "dropDatabase": drop_database,
        }
        self._handlers: dict[str, Handler] = {
            "hello": hello,
            **{name: hello for name in LEGACY_HELLO},
            "ping": ok,
            "buildInfo": build_info,
            "buildinfo": build_info,
            "endSessions": ok,
            "collMod": partial(refused, "collMod (changing a collection's options)"),
            **{name: partial(run, engine) for name, run in on_engine.items()},
            **CursorCommands(engine).handlers(),
        }

    def run(self, request: Request) -> Document:
        handler = self._handlers.get(request.name)
        if handler is None:
            message = f"no such command: '{request.name}'"
            return rules.error_reply(rules.COMMAND_NOT_FOUND, message)
        try:
            with self._engine.lock, ReportedTo(self._engine.examined):
                return handler(request)
        except OperationFailure as exc:
            return rules.error_reply(*rules.error_parts(exc))
        except Exception as exc:  # a bug or a gap of the engine: the client gets an error
            logger.exception("the embedded engine failed on %r", request.name)
            message = f"the embedded engine failed: {type(exc).__name__}: {exc}"
            return rules.error_reply(rules.INTERNAL_ERROR, message)
