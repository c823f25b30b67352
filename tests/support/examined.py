"""The stored documents a request examines, from the embedded engine's counters.

The engine counts, per command, the documents it fetches to match against a filter (through an
index, those the index names; by a scan, every one), as a server's explain counts
`totalDocsExamined` (`embedded.protocols.DocumentsExamined`). In process, a test's database is
an engine of its own; with `ARRAYGRAPH_TEST_ENGINE=wire`, the engine behind the wire front runs
in this process too, shared by the session's tests, so the counts are kept per database name.
A real MongoDB has no such counters: `examined_in` answers None there, and `Api.examines`
skips the test, saying so.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from embedded import EmbeddedDatabase, EmbeddedEngine
from embedded.protocols import DocumentsExamined
from store.database import Database
from tests.support.backends import WIRE_ENGINES


@dataclass(frozen=True, slots=True)
class Examined:
    """The documents examined in one database's collections since the last `reset()`."""

    counters: DocumentsExamined
    database: str

    def reset(self) -> None:
        self.counters.reset()

    @property
    def by_collection(self) -> dict[str, int]:
        prefix = f"{self.database}."
        found: Counter[str] = Counter()
        for namespace, documents in self.counters.by_namespace.items():
            if namespace.startswith(prefix) and documents:
                found[namespace.removeprefix(prefix)] += documents
        return dict(found)


def engine_of(database: Database) -> tuple[EmbeddedEngine, str] | None:
    db = database.db
    if isinstance(db, EmbeddedDatabase):
        return db.engine, str(db.mongomock_database.name)
    name = str(getattr(db, "name", ""))
    engine = WIRE_ENGINES.get(name)
    return None if engine is None else (engine, name)


def examined_in(database: Database) -> Examined | None:
    """The counters of the engine that holds `database`; None on a real MongoDB (or an engine
    given an examination observer of its own)."""
    found = engine_of(database)
    if found is None:
        return None
    engine, name = found
    counters = engine.examined
    if not isinstance(counters, DocumentsExamined):
        return None
    return Examined(counters, name)


def require_examined(database: Database) -> Examined:
    """The counters, or a visible skip where there are none (a real MongoDB)."""
    found = examined_in(database)
    if found is None:
        pytest.skip("documents examined are the embedded engine's counters: none on this backend")
    return found
