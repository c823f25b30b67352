"""Unique indexes as MongoDB 8.0 enforces them, in place of mongomock-ng's check.

A document is in a unique index unless the index is partial and the document does not match
its filter (then it is not indexed at all, neither as the new document nor as a stored one;
mongomock-ng filters only the stored ones), or the index is sparse and the document has none
of its fields. An empty array is indexed as one key, `undefined`, so two documents with `[]`
under a unique index collide (mongomock-ng indexes nothing for them). Keys are compared only
with the stored documents that the index's entries (`embedded.planner.indexes`) say may share one, a
lookup by key rather than a pass over the collection, and the partial filter, the costly part,
runs only on those whose keys collide.
"""

from __future__ import annotations

import itertools
import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pymongo.errors import DuplicateKeyError

from embedded import mongomock_internals as mongomock
from embedded.bson_order import order_key
from embedded.planner import indexes
from embedded.protocols import Document


class _Undefined:
    """The index key of an empty array: equal only to itself."""

    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = _Undefined()
_install_lock = threading.Lock()
_installed: list[bool] = []

Entry = tuple[Any, ...]


def _entries(doc: Document, keys: Sequence[tuple[str, Any]], sparse: bool) -> list[Entry] | None:
    """The index keys of `doc` (several when a field is an array); None when not indexed."""
    values: list[list[Any]] = []
    present = False
    for path, _order in keys:
        value = mongomock.get_value_by_dot(doc, path)
        if value is mongomock.NOTHING:
            values.append([None])
            continue
        present = True
        if isinstance(value, list | tuple):
            values.append(list(value) if value else [UNDEFINED])
        else:
            values.append([value])
    if sparse and not present:
        return None
    return list(itertools.product(*values))


def _keyed(entry: Entry) -> tuple[Any, ...]:
    """An entry as BSON compares it: `true` is not `1`, `Decimal128("1")` is, and a
    subdocument's field order counts."""
    return tuple(value if value is UNDEFINED else order_key(value) for value in entry)


def _overlap(ours: list[Entry], theirs: Iterable[Entry]) -> bool:
    return not {_keyed(entry) for entry in ours}.isdisjoint(map(_keyed, theirs))


def _indexed(doc: Document, partial: Mapping[str, Any] | None) -> bool:
    return partial is None or mongomock.filter_applies(partial, doc)


def _sharing(coll: Any, name: str, entries: list[Entry]) -> Iterable[Document]:
    """The stored documents that may share one of `entries` under index `name`: those the
    index files under them and its exceptions (`embedded.planner.indexes`), or all of them."""
    plain = [entry for entry in entries if not any(v is UNDEFINED for v in entry)]
    found = indexes.table_of(coll).sharing(name, plain)  # `[]` only an exception can hold
    return mongomock.stored_documents(coll) if found is None else found


def check_uniques(coll: Any, new: Document) -> None:
    """Raise mongomock-ng's DuplicateKeyError (the engine reports it as a server does) when a
    stored document other than `new` has one of its keys under a unique index."""
    for name, index in mongomock.declared_indexes(coll).items():
        if not index.get("unique"):
            continue
        keys, partial = index["key"], index.get("partialFilterExpression")
        ours = _entries(new, keys, bool(index.get("sparse")))
        if ours is None or not _indexed(new, partial):
            continue
        for doc in _sharing(coll, name, ours):
            if doc["_id"] == new.get("_id"):
                continue
            theirs = _entries(doc, keys, bool(index.get("sparse")))
            if theirs is not None and _overlap(ours, theirs) and _indexed(doc, partial):
                raise _duplicate_key_error(keys, new)


def _duplicate_key_error(keys: Any, document: Document) -> Exception:
    """mongomock-ng's E11000 for `document` under the index of `keys` (the engine rewrites it
    as a server reports it)."""
    values = {k: mongomock.get_value_by_dot(document, k) for k, _ in keys}
    details = {"keyPattern": dict(keys), "keyValue": values}
    return DuplicateKeyError("E11000 Duplicate Key Error", 11000, details)


def install() -> None:
    """Make every mongomock-ng collection check unique indexes with `check_uniques` (once)."""
    with _install_lock:
        if not _installed:
            mongomock.route_unique_checks_to(check_uniques)
            _installed.append(True)
