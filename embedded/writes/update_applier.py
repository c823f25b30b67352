"""What an update makes of one document, computed apart from the store: a replacement, operators
(the common ones applied directly, `embedded.writes.fast_updates`, the others by mongomock-ng's
update code on a scratch copy), or a pipeline; and the document an upsert inserts.

A pipeline's result without `_id` keeps the document's (a server's pipeline executor keeps it);
a replacement takes the stored `_id` unless it names one. Nothing here stores anything.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from bson import ObjectId

from embedded import mongomock_internals as mongomock
from embedded.protocols import Document
from embedded.stages.plain_stages import is_mapping
from embedded.stored_form import Beside, read_copy, stored_copy, stored_copy_beside
from embedded.writes import element_updates, fast_updates, field_names
from embedded.writes.update_checks import is_replacement
from embedded.writes.update_commands import UpdateCommand
from embedded.writes.update_pipelines import apply_pipeline
from embedded.writes.write_errors import AsWriteErrors

_SCRATCH_ID = "embedded.scratch"  # the scratch copy's `_id` while an update is applied to it


def _with_id(new: Document, id: Any) -> Document:
    """`new` with `id` as its `_id` when it has none, first, where a server puts it."""
    return new if "_id" in new else {"_id": id, **new}


def _on_insert(update: Mapping[str, Any]) -> dict[str, Any]:
    """`update` as an insert applies it: its `$setOnInsert` a `$set`."""
    inserted = dict(update)
    on_insert = inserted.pop("$setOnInsert", None)
    if isinstance(on_insert, Mapping):
        inserted["$set"] = {**inserted.get("$set", {}), **on_insert}
    return inserted


class UpdateApplier:
    def __init__(self) -> None:
        # Operator updates run here, on a copy, with mongomock-ng's own update code.
        self._scratch: Any = mongomock.new_client()["scratch"]["scratch"]

    def apply_update(
        self, coll: Any, stored: Document, update: Any, command: UpdateCommand
    ) -> Beside:
        """The document, in stored form, that `update` turns the stored document `stored` into
        (a new one: `stored` is not changed), with its values that may nest deeper than in
        `stored` and the fields it changed (`stored_copy_beside`); nothing is stored."""
        if not is_mapping(update):
            with AsWriteErrors():  # a stage compiled (for the command) fails as a write
                new = apply_pipeline(coll, stored, command.pipeline(update), command.scope)
            return stored_copy_beside(_with_id(new, stored["_id"]), stored)
        if is_replacement(update):
            field_names.check_replacement(update)
        new = stored_copy(self._apply_operators(read_copy(stored), update))
        return Beside(new, [(new, 0)], None)

    def _apply_operators(self, current: Document, update: Any) -> Document:
        """What a replacement or operators make of `current` (a read-form copy); array updates
        are resolved to the elements' paths before (`embedded.writes.array_filters`)."""
        if is_replacement(update):
            return {"_id": current["_id"], **copy.deepcopy(dict(update))}
        fast = fast_updates.apply_simple(current, update, inserting=False)
        if fast is not None:
            return fast
        plain, elements = element_updates.split(update, current)
        if not elements:
            return self._apply_in_scratch(current, update)
        new = self._apply_in_scratch(current, plain) if any(plain.values()) else current
        return element_updates.apply(new, elements, self._apply_operators)

    def _apply_in_scratch(self, current: Document, update: Any) -> Document:
        """What mongomock-ng's update code makes of `current` (a read-form copy)."""
        # mongomock-ng's update code cannot file a subdocument `_id` (it hashes the raw value):
        # the scratch copy goes by a stand-in, and takes the real `_id` back unless the update
        # changed it (which the caller then refuses as a server does). Nor does it take a
        # top-level `$`-prefixed field, which no operator can name: those are set aside.
        kept, aside = field_names.set_aside(current)
        if aside:
            aside = field_names.aside_after(aside, update)
        self._scratch.delete_many({})
        self._scratch.insert_one({**kept, "_id": _SCRATCH_ID})
        with AsWriteErrors():
            self._scratch.update_one({"_id": _SCRATCH_ID}, update)
        [new] = list(self._scratch.find({}))
        if new["_id"] == _SCRATCH_ID:
            new["_id"] = current["_id"]
        return field_names.put_back(current, dict(new), aside)

    def apply_upsert(
        self, coll: Any, seed: Document, update: Any, command: UpdateCommand
    ) -> Document:
        """The document an upsert inserts: the filter's equalities, then the update (a
        replacement takes only the filter's `_id`, as on a server). Its `_id` is the filter's,
        whatever its value (null too), or a new ObjectId."""
        if is_replacement(update):
            new = copy.deepcopy(dict(update))
            return {"_id": new.pop("_id", seed.get("_id", ObjectId())), **new}
        if not is_mapping(update):
            seeded = stored_copy({"_id": ObjectId(), **seed})
            with AsWriteErrors():
                new = apply_pipeline(coll, seeded, command.pipeline(update), command.scope)
            return _with_id(new, seeded["_id"])
        fast = fast_updates.apply_simple(seed, update, inserting=True)
        if fast is not None:
            return {"_id": fast.pop("_id", ObjectId()), **fast}
        if element_updates.split(update, seed)[1]:  # an array the filter seeds, updated
            seeded = {"_id": seed.get("_id", ObjectId()), **seed}
            return self._apply_operators(seeded, _on_insert(update))
        # The filter's `_id` goes by the stand-in too: mongomock-ng would take a null `_id` for
        # none and make one up.
        self._scratch.delete_many({})
        seeded = {**seed, "_id": _SCRATCH_ID} if "_id" in seed else seed
        with AsWriteErrors():
            self._scratch.update_one(seeded, update, upsert=True)
        [new] = list(self._scratch.find({}))
        if new["_id"] == _SCRATCH_ID:
            new["_id"] = seed["_id"]
        return {"_id": new.pop("_id"), **new}
