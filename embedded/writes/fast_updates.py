"""The common operator updates, applied directly: `$set`, `$inc`, `$mul`, `$min`, `$max` (and
`$setOnInsert` in an upsert) on dotted paths through subdocuments.

mongomock-ng applies an update by inserting the document into a scratch collection, updating
it and reading it back; a time-series write of a few hundred `$inc` paths spends most of its
time there. These cases are applied to a copy in place instead, with a server's semantics
(`embedded.writes.arithmetic_updates`); anything else (an array on the path, another operator, an
update that fails) returns None, and mongomock-ng applies the update as before, with the same
rules and the server's errors.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from pymongo.errors import OperationFailure

from embedded.protocols import Document
from embedded.writes import arithmetic_updates
from embedded.writes.arithmetic_updates import MISSING

_SIMPLE = frozenset({"$set", "$inc", "$mul", "$min", "$max", "$setOnInsert"})
_new_value = arithmetic_updates.new_value


def _parent(doc: Document, path: str) -> tuple[dict[str, Any], str] | None:
    """The subdocument holding the path's last field (created where missing), or None when
    the path crosses anything but a subdocument."""
    *parents, last = path.split(".")
    here: Any = doc
    for part in parents:
        if not isinstance(here, dict):
            return None
        here = here.setdefault(part, {})
    return (here, last) if isinstance(here, dict) else None


def _apply(operator: str, field: str, current: Any, value: Any) -> Any:
    """The field's new value (`OperationFailure` when the update fails)."""
    if operator in ("$set", "$setOnInsert"):
        return copy.deepcopy(value)
    found = _new_value(operator, field, current, value)
    return copy.deepcopy(found) if found is value else found


def apply_simple(doc: Document, update: Mapping[str, Any], *, inserting: bool) -> Document | None:
    """What `update` makes of `doc` (a copy is changed, `doc` is not), or None to fall back."""
    arithmetic_updates.document_id.set(doc.get("_id"))
    if not set(update) <= _SIMPLE:
        return None
    new = copy.deepcopy(doc)
    for operator, fields in update.items():
        if operator == "$setOnInsert" and not inserting:
            continue
        if not isinstance(fields, Mapping):
            return None
        for path, value in fields.items():
            # Positional paths (`$`, `$[]`, `$[x]`) and empty parts are mongomock-ng's to read.
            if not isinstance(path, str) or any(
                not p or p.startswith("$") for p in path.split(".")
            ):
                return None
            found = _parent(new, path)
            if found is None:
                return None
            parent, last = found
            try:
                parent[last] = _apply(operator, last, parent.get(last, MISSING), value)
            except OperationFailure:
                return None  # failed as mongomock-ng's path fails it, with the write's error
    return new
