"""An in-process stand-in for MongoDB 8.0 behind PyMongo's async API, built on mongomock-ng.

`EmbeddedEngine()[db][collection]` offers the part of `pymongo.AsyncMongoClient`'s collection API
that arraygraph's store uses (find, aggregate with `let`, insert, update with operators or a
pipeline, findAndModify, delete, bulk writes, indexes), with PyMongo's result and error classes.
Each command yields to the event loop once and then runs alone, under the engine's lock, so
single-document writes are atomic; each is reported to a `CommandObserver`, named and counted as
PyMongo sends it (a read past 101 documents or 16 MiB costs `getMore`s, a bulk write one command
per run of one kind), and fails with the class PyMongo raises against a server; the documents each
examines are counted as a server's explain counts them (`engine.examined`). Reads and writes find
their documents through indexes (`_id`, and each declared index) where a filter allows, and by a
scan otherwise, with the same answers (`embedded.plans`). Writes are checked against MongoDB's
rules that mongomock-ng does not enforce (16 MiB documents, 100 levels of nesting, conflicting
update paths, upsert seeding, immutable `_id`, ...) and a rejected write changes nothing. Data
lives in memory only.

`start_wire_server(engine)` (`embedded.wire`) serves an engine over MongoDB's wire protocol on a
loopback port, from a thread of its own, so that PyMongo's own `AsyncMongoClient` can use it.

The package imports only the standard library, PyMongo (with `bson`) and mongomock-ng, and
mongomock-ng only in `embedded.mongomock_internals`. Creating the first engine patches
mongomock-ng's expression parser and `$match` stage for the whole process
(`embedded.operators.install`, `embedded.match_stage.install`); importing the package changes
nothing.
"""

from __future__ import annotations

from embedded.collection import EmbeddedCollection
from embedded.cursors import EmbeddedCursor
from embedded.engine import EmbeddedDatabase, EmbeddedEngine
from embedded.protocols import (
    CommandCounts,
    CommandObserver,
    Document,
    DocumentsExamined,
    ExaminationObserver,
)
from embedded.rules import MAX_BSON_DOCUMENT_BYTES, MAX_DOCUMENT_NESTING
from embedded.wire import WireServer, start_wire_server

__all__ = [
    "MAX_BSON_DOCUMENT_BYTES",
    "MAX_DOCUMENT_NESTING",
    "CommandCounts",
    "CommandObserver",
    "Document",
    "DocumentsExamined",
    "EmbeddedCollection",
    "EmbeddedCursor",
    "EmbeddedDatabase",
    "EmbeddedEngine",
    "ExaminationObserver",
    "WireServer",
    "start_wire_server",
]
