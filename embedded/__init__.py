"""An in-process stand-in for MongoDB 8.0 behind PyMongo's async API, built on mongomock-ng.

`EmbeddedEngine()[db][collection]` offers `pymongo.AsyncMongoClient`'s collection API (find,
aggregate with `let`, the counts, distinct, insert, update with operators or a pipeline, replace,
findAndModify, delete, bulk writes, indexes, drop, `with_options`, a `w: 0` write concern
included) and the database's (create and drop collections, commands), with PyMongo's signatures,
result and error classes, and the checks PyMongo makes before sending.
Each command yields to the event loop once and then runs alone, under the engine's lock, so
single-document writes are atomic; each is reported to a `CommandObserver`, named and counted as
PyMongo sends it (a read past 101 documents or 16 MiB costs `getMore`s, a bulk write one command
per run of one kind), and fails with the class PyMongo raises against a server; the documents each
examines are counted as a server's explain counts them (`engine.examined`). Reads and writes find
their documents through indexes (`_id`, and each declared index) where a filter allows, and by a
scan otherwise, with the same answers. Writes are checked against MongoDB's rules that
mongomock-ng does not enforce (16 MiB documents, 100 levels of nesting, conflicting update paths,
upsert seeding, immutable `_id`, ...) and a rejected write changes nothing. Data lives in memory
only.

This module is the package's face: the names below are all its users import (the store imports
`EmbeddedEngine` alone, in `store/database.py`; `tools/check_layers.py` holds every user outside
the package to this face). Behind it, by concern:

- `adapter/`: the engine, its collections and cursors, as PyMongo's async client offers them;
- `expressions/`: aggregation expressions compiled once into closures, the operators mongomock-ng
  lacks or answers otherwise;
- `planner/`: the indexes, kept exact by every write, and which documents a read examines;
- `stages/`: the read path, its pipeline stages, projections and unions;
- `writes/`: the write path, MongoDB's rules checked before anything is stored, bulk writes;
- `wire/`: `start_wire_server(engine)` serves an engine over MongoDB's wire protocol on a loopback
  port, for PyMongo's own client. It is for tests and the bench: the product's wheel leaves it
  out (pyproject.toml), and nothing else in the package imports it.

Beside them, what all of them share: `protocols` (the observers), `rules` (the server's limits and
codes), `stored_form` (documents as stored and as read), `examined` (documents examined, reported
to the command's observer) and `mongomock_internals`, the one module that imports mongomock-ng.

The package imports only the standard library, PyMongo (with `bson`) and mongomock-ng. Creating
the first engine patches mongomock-ng's expression parser and pipeline stages for the whole
process (`EmbeddedEngine.__init__` lists them); importing the package changes nothing.
"""

from __future__ import annotations

from embedded.adapter.collection import EmbeddedCollection
from embedded.adapter.cursors import EmbeddedCursor
from embedded.adapter.database import EmbeddedDatabase
from embedded.adapter.engine import EmbeddedEngine
from embedded.protocols import (
    CommandCounts,
    CommandObserver,
    Document,
    DocumentsExamined,
    ExaminationObserver,
)
from embedded.rules import MAX_BSON_DOCUMENT_BYTES, MAX_DOCUMENT_NESTING

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
]
