"""What the statements of one update command share, worked out once for the command.

A bulk write of many statements is one command, and its statements usually send one pipeline
and differ by their filter alone (`{_id: value}`): the command's `let` is evaluated once, each
update is parse-checked once (`UpdateChecks`), each pipeline's stages are put in stored form
and compiled once, and the collection's indexed documents are looked up once. A command runs
under the engine's lock and declares or drops no index, so all of that holds for its length.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from embedded.planner.indexes import IndexedDocuments, table_of
from embedded.protocols import Document
from embedded.stages import reads
from embedded.writes.update_checks import UpdateChecks
from embedded.writes.update_pipelines import LetScope, StoredPipeline, let_scope, stored_pipeline


class UpdateCommand:
    """One update command's shared parts; `variables` is its `let`."""

    __slots__ = ("_coll", "_pipelines", "_table", "checks", "scope")

    def __init__(self, variables: Mapping[str, Any] | None) -> None:
        self.scope: LetScope = let_scope(variables)
        self.checks = UpdateChecks()
        self._pipelines: dict[int, tuple[Any, StoredPipeline]] = {}
        self._coll: Any = None
        self._table: IndexedDocuments | None = None

    def pipeline(self, update: Any) -> StoredPipeline:
        """The update pipeline `update`, its stages in stored form (by its identity: held, so
        its id stays its own)."""
        found = self._pipelines.get(id(update))
        if found is None or found[0] is not update:
            found = self._pipelines[id(update)] = (update, stored_pipeline(update))
        return found[1]

    def table(self, coll: Any) -> IndexedDocuments:
        """The indexed documents of `coll`, the command's collection."""
        if self._table is None or self._coll is not coll:
            self._table, self._coll = table_of(coll), coll
        return self._table

    def first_stored(self, coll: Any, filter: Any, sort: Any) -> Document | None:
        """The stored document an update's `filter` and `sort` name, found through the
        command's table (`{_id: value}`, a write's usual filter, is one hash lookup in it)."""
        return reads.first_stored(coll, filter, sort, self.table(coll))
