"""The common operator updates, applied directly: `$set`, `$inc`, `$min`, `$max` (and
`$setOnInsert` in an upsert) on dotted paths through subdocuments.

mongomock-ng applies an update by inserting the document into a scratch collection, updating
it and reading it back; a time-series write of a few hundred `$inc` paths spends most of its
time there. These cases are applied to a copy in place instead, with a server's semantics;
anything else (an array on the path, a value that is not a number where one is needed, another
operator) returns None, and mongomock-ng applies the update as before, with its own errors.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from embedded.protocols import Document

_NUMBERS = (int, float)
_SIMPLE = frozenset({"$set", "$inc", "$min", "$max", "$setOnInsert"})
_MISSING = object()


def _is_number(value: Any) -> bool:
    return isinstance(value, _NUMBERS) and not isinstance(value, bool)


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


def _apply(operator: str, current: Any, value: Any) -> Any:
    """The field's new value, `_MISSING` to fall back (a case left to mongomock-ng)."""
    if operator in ("$set", "$setOnInsert"):
        return copy.deepcopy(value)
    if not _is_number(value) or (current is not _MISSING and not _is_number(current)):
        return _MISSING
    if current is _MISSING:
        return value
    if operator == "$inc":
        return current + value
    if operator == "$min":
        return value if value < current else current
    return value if value > current else current  # $max


def apply_simple(doc: Document, update: Mapping[str, Any], *, inserting: bool) -> Document | None:
    """What `update` makes of `doc` (a copy is changed, `doc` is not), or None to fall back."""
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
            result = _apply(operator, parent.get(last, _MISSING), value)
            if result is _MISSING:
                return None
            parent[last] = result
    return new
