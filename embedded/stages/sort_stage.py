"""Sorts as a server sorts: `$sort` stages, and the `find`s whose fields hold arrays or values of
mixed types (`reads`; values of one plain type are `fast_filters`').

A document's key on a sort field is its value in BSON's order (`embedded.bson_order`); a field
holding an array (or a path through an array of subdocuments) takes the least of its values in
an ascending sort and the greatest in a descending one, an empty array sorting below null, a
missing field as null. mongomock-ng took an array's first element. Equal keys keep the order
the documents came in (natural order, for a read), as the engine's other sorts do.

mongomock-ng's `$sort` stage is replaced for the process by `install()`, when the first engine
is created; a sort by anything but 1 or -1 (a `$meta`) stays mongomock-ng's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from embedded.bson_order import Key, order_key
from embedded.protocols import Document, Stage
from embedded.stages.stage_hooks import install_stage

_MISSING = object()
_NULL = order_key(None)
_EMPTY = object()  # an empty array at the path's end
_EMPTY_KEY: Key = (_NULL[0] - 1,)  # below null, above MinKey


def _values(value: Any, parts: Sequence[str]) -> Iterable[Any]:
    """The values at a path, arrays on the way (and at its end) opened, as an index's keys."""
    if not parts:
        if isinstance(value, list):
            return value if value else [_EMPTY]
        return [value]
    part, rest = parts[0], parts[1:]
    if isinstance(value, dict):
        return _values(value.get(part, _MISSING), rest)
    if isinstance(value, list):
        found: list[Any] = []
        for item in value:
            if isinstance(item, dict):
                found.extend(_values(item.get(part, _MISSING), rest))
        if part.isdigit() and int(part) < len(value):
            found.extend(_values(value[int(part)], rest))
        return found
    return [_MISSING]


def _key(value: Any) -> Key:
    if value is _EMPTY:
        return _EMPTY_KEY
    return _NULL if value is _MISSING else order_key(value)


def sort_key(doc: Document, parts: Sequence[str], descending: bool) -> Key:
    """`doc`'s key on the (split) path: the least of its values, the greatest if descending."""
    keys: list[Key] = [_key(value) for value in _values(doc, parts)] or [_NULL]
    found: Key = max(keys) if descending else min(keys)
    return found


def sorted_documents(
    documents: Iterable[Document], sort: Sequence[tuple[str, Any]]
) -> list[Document]:
    """`documents` in the order of `sort` ((field, 1 or -1) pairs), ties in the given order."""
    ordered = list(documents)
    for field, direction in reversed(sort):  # stable sorts, least significant field first
        parts, descending = field.split("."), direction == -1
        ordered.sort(key=lambda doc: sort_key(doc, parts, descending), reverse=descending)
    return ordered


def _sorting(original: Stage) -> Stage:
    def sort(documents: Any, database: Any, spec: Any, variables: Any) -> Any:
        """The `$sort` stage: `(documents, database, {field: 1 or -1}, variables)` -> documents."""
        if not isinstance(spec, Mapping) or any(d not in (1, -1) for d in spec.values()):
            return original(documents, database, spec, variables)
        return sorted_documents(documents, list(spec.items()))

    return sort


def install() -> None:
    """Run every pipeline's `$sort` as above (idempotent)."""
    install_stage("$sort", _sorting)
