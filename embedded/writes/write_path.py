"""The engine's write path: what a write makes of a document, checked, and only then stored.

Every write computes a new document from the matched one (never changed: a pipeline reads it
as stored, operators a read-form copy), checks it against the server's rules in `embedded.rules`,
and only then stores it, so a rejected write changes nothing (as on a server). Stored documents
are never changed in place, so a new one shares what it kept of the old. An outcome's documents
are copied when a reply asks for them. Everything here runs under the engine's lock.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import bson
from pymongo.errors import DuplicateKeyError

from embedded import mongomock_internals as mongomock
from embedded import rules
from embedded.expressions.variables import bind
from embedded.planner import command_options
from embedded.planner.indexes import table_of
from embedded.protocols import Document
from embedded.stages import reads
from embedded.stored_form import read_copy, stored_copy
from embedded.writes import array_filters as array_updates
from embedded.writes import document_limits, field_names, positional
from embedded.writes.update_applier import UpdateApplier
from embedded.writes.update_checks import Checked, is_replacement
from embedded.writes.update_commands import UpdateCommand
from embedded.writes.update_pipelines import let_scope
from embedded.writes.write_errors import DuplicateKeys

__all__ = ["Outcome", "UpdateApplier", "Writes", "drop_database"]


class Outcome(NamedTuple):  # a tuple: a frozen dataclass's __init__ costs a microsecond more
    matched: int
    modified: int
    upserted_id: Any
    stored_before: Document | None  # in stored form, never changed: copied when read
    stored_after: Document | None

    @property
    def upserted(self) -> bool:
        """Whether the write inserted a document (whose `_id` may be null)."""
        return not self.matched and self.stored_after is not None

    @property
    def before(self) -> Document | None:
        """The matched document before the update, as a reply gives it."""
        return None if self.stored_before is None else read_copy(self.stored_before)

    @property
    def after(self) -> Document | None:
        return None if self.stored_after is None else read_copy(self.stored_after)


def _replaces(update: Any) -> bool:
    """Whether `update` makes a whole new document: a replacement or a pipeline."""
    return not isinstance(update, Mapping) or is_replacement(update)


class Writes:
    """The server's write path for one collection."""

    def __init__(self, coll: Any, updates: UpdateApplier) -> None:
        self._coll = coll
        self._updates = updates

    def insert(self, document: Mapping[str, Any]) -> Any:
        new = copy.deepcopy(dict(document))
        field_names.check_insert(new)
        document_limits.check_document(new, too_large_code=rules.BSON_OBJECT_TOO_LARGE)
        return self._store_new(new)

    def _store_new(self, new: Document) -> Any:
        """Store the new document `new` (read form); its `_id`, made up if it has none.

        mongomock-ng refuses a top-level `$`-prefixed field, which a server stores: such a
        document is inserted without those fields (mongomock-ng checks its `_id` and unique
        keys, which cannot name them), then stored whole in its place. The store is the
        engine's first (`table_of`): it files `_id`s as BSON compares them."""
        table_of(self._coll)
        with self._duplicate_keys():
            if not field_names.has_dollar_field(new):
                return self._coll.insert_one(new).inserted_id
            kept, _ = field_names.set_aside(new)
            id = self._coll.insert_one(kept).inserted_id
            mongomock.replace_stored(self._coll, stored_copy({**new, "_id": id}))
            return id

    def update_one(
        self,
        filter: Any,
        update: Any,
        upsert: bool,
        sort: Any,
        array_filters: Any,
        variables: Mapping[str, Any] | None = None,
        *,
        command: UpdateCommand | None = None,
    ) -> Outcome:
        """One document's update; `variables` is the command's `let`, unless `command` (what
        the command's statements share) is given."""
        if command is None:
            command = UpdateCommand(variables)
        checked = command.checks.check(update, array_filters)
        filter = bind(filter, command.scope)  # its `$expr` reads the command's `let`
        seed = rules.upsert_seed(filter) if upsert else {}
        current = command.first_stored(self._coll, filter, sort)
        if current is None:
            if not upsert:
                return Outcome(0, 0, None, None, None)
            return self._upsert(seed, update, checked, command)
        new = self._update(current, update, checked, filter, command)
        return Outcome(1, int(new is not current), None, current, new)

    def update_many(
        self,
        filter: Any,
        update: Any,
        upsert: bool,
        array_filters: Any,
        variables: Mapping[str, Any] | None = None,
    ) -> Outcome:
        """A `multi` update: each matching document in turn; as on a server, one that fails
        stops the statement, and the documents changed before it stay changed."""
        if is_replacement(update):
            raise rules.write_error(
                rules.FAILED_TO_PARSE, "multi update is not supported for replacement-style update"
            )
        command = UpdateCommand(variables)
        checked = command.checks.check(update, array_filters)
        filter = bind(filter, command.scope)
        seed = rules.upsert_seed(filter) if upsert else {}
        found = reads.stored(self._coll, filter)
        if not found:
            if not upsert:
                return Outcome(0, 0, None, None, None)
            return self._upsert(seed, update, checked, command)
        modified = sum(self._update(d, update, checked, filter, command) is not d for d in found)
        return Outcome(len(found), modified, None, None, None)

    def delete(self, filter: Any, *, many: bool, variables: Mapping[str, Any] | None = None) -> int:
        """The documents `filter` matches (the first in natural order unless `many`), deleted:
        found through the indexes, as a read finds them. `variables`: the command's `let`."""
        found = reads.stored(self._coll, bind(filter, let_scope(variables)))
        for doc in found if many else found[:1]:
            mongomock.delete_stored(self._coll, doc)
        return len(found) if many else min(len(found), 1)

    def find_and_delete(
        self, filter: Any, sort: Any, variables: Mapping[str, Any] | None = None
    ) -> Document | None:
        """findAndModify's `remove`: the first match in `sort` order, deleted."""
        found = reads.find(self._coll, filter, {"sort": sort, "limit": 1, "let": variables})
        if found:
            mongomock.delete_stored(self._coll, found[0])
        return found[0] if found else None

    def check_options(self, hint: Any = None, collation: Any = None) -> None:
        """A statement's `hint` and `collation`, refused as a write error when a server refuses
        them or the engine does not implement them (`command_options`)."""
        if hint is not None or collation is not None:  # most statements carry neither
            command_options.check_statement(self._coll, hint, collation)

    def _upsert(
        self, seed: Document, update: Any, checked: Checked, command: UpdateCommand
    ) -> Outcome:
        if checked.dollar:  # an inserted document matched nothing for `$` to name
            raise positional.no_match()
        if checked.dollar_field is not None:
            raise field_names.refuse_written(checked.dollar_field)
        if checked.filters is not None:  # array updates walk the document the filter seeds
            update = array_updates.resolve(update, stored_copy(seed), checked.filters)
        new = self._updates.apply_upsert(self._coll, seed, update, command)
        field_names.check_update_result(new)
        if "_id" in seed:
            after = new.get("_id", mongomock.NOTHING)
            rules.check_immutable_id(seed["_id"], after, replaced=_replaces(update))
        document_limits.check_document(new, too_large_code=rules.UPSERT_TOO_LARGE)
        self._store_new(new)
        return Outcome(0, 0, new["_id"], None, stored_copy(new))

    def _update(
        self,
        current: Document,
        update: Any,
        checked: Checked,
        filter: Any,
        command: UpdateCommand,
    ) -> Document:
        """What `update` makes of the stored document `current`, stored when it differs (in
        stored form): `current` itself if not. `filter` matched it: a positional `$` names the
        element it matched through."""
        if checked.dollar_field is not None:
            raise field_names.refuse_written(checked.dollar_field)
        if checked.dollar:
            update = positional.resolve(filter or {}, read_copy(current), update)
        if checked.filters is not None:
            update = array_updates.resolve(update, current, checked.filters)
        new, placed, changed = self._updates.apply_update(self._coll, current, update, command)
        field_names.check_update_result(new)
        after = new.get("_id", mongomock.NOTHING)
        rules.check_immutable_id(current["_id"], after, replaced=_replaces(update))
        table = command.table(self._coll)
        key = mongomock.store_key(current["_id"])
        bound = table.size_bound(key, current)
        if bound is not None and changed is not None:
            bound += document_limits.growth(changed)
        else:
            bound = None
        size = document_limits.check_document(
            new, too_large_code=rules.UPDATE_TOO_LARGE, placed=placed, bound=bound
        )
        # Python equates True with 1 and ignores field order; BSON does neither.
        if new == current and bson.encode(new) == bson.encode(current):
            return current
        with self._duplicate_keys():
            mongomock.replace_stored(self._coll, new)
        table.keep_size_bound(key, new, size)
        return new

    def create_indexes(self, specs: Iterable[Mapping[str, Any]]) -> list[str]:
        """createIndexes of specs as sent (`{key, name, unique...}`). A unique index that the
        stored documents break fails the command, as on a server, with E11000."""
        names = []
        for spec in specs:
            options = dict(spec)
            keys = list(dict(options.pop("key")).items())
            try:
                with self._duplicate_keys(options.get("name")):
                    names.append(str(self._coll.create_index(keys, **options)))
            except DuplicateKeyError as exc:
                code, message, extra = rules.error_parts(exc)
                failure = f"Index build failed: {self._coll.full_name} :: caused by :: {message}"
                raise DuplicateKeyError(
                    failure, code, rules.error_reply(code, failure, extra)
                ) from None
        return names

    def _duplicate_keys(self, index: str | None = None) -> DuplicateKeys:
        """mongomock-ng's E11000, reported with the server's message."""
        return DuplicateKeys(self._coll, index)


def drop_database(db: Any) -> None:
    """dropDatabase: every collection of mongomock-ng's `db` dropped (its objects stay usable)."""
    for name in db.list_collection_names():
        db.drop_collection(name)
