"""Query filters of the commonest shape decided in Python, as an index would decide them.

A filter whose every condition is a field (top-level, or a path through subdocuments such as
`_id.k`) compared (`value`, `$eq`, `$ne`, `$lt`, `$lte`, `$gt`, `$gte`) with a string, an
ObjectId, an integer or a date, or held to an `$in` of strings, ObjectIds or integers (of one
type), is decided here for each document whose field holds a value of the same type: for such
pairs BSON's order and equality are Python's (strings by code point, as UTF-8 bytes order
them; ObjectIds by bytes), and an `$in` is a set lookup (mongomock-ng compares each value in
turn: a read of thousands of rollup keys cost seconds). Any other document (the field missing,
an array on the path, another type) goes to mongomock-ng's matcher, so the answer is always
the server's; only the cost changes: a scan of a collection of such documents costs
microseconds a document instead of tens.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from bson import ObjectId

from embedded import mongomock_internals as mongomock
from embedded.protocols import Document

COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": operator.eq,
    "$ne": operator.ne,
    "$lt": operator.lt,
    "$lte": operator.le,
    "$gt": operator.gt,
    "$gte": operator.ge,
}
# (path, comparison, value, the type the field's value must have for the comparison to decide)
Condition = tuple[tuple[str, ...], Callable[[Any, Any], bool], Any, type]
_MISSING = object()
_HASHED = frozenset({str, ObjectId, int})  # `$in` values: equal when Python's are, by type


def _plain(value: Any) -> bool:
    return type(value) in (str, ObjectId, int, datetime)


def _contained(held: Any, values: frozenset[Any]) -> bool:
    return held in values


def _condition(path: tuple[str, ...], name: str, value: Any) -> Condition | None:
    if name == "$in":
        kinds = {type(item) for item in value} if type(value) is list else None
        if not kinds or len(kinds) != 1 or not kinds <= _HASHED:
            return None
        return (path, _contained, frozenset(value), kinds.pop())
    if name not in COMPARISONS or not _plain(value):
        return None
    return (path, COMPARISONS[name], value, type(value))


def conditions(filter: Mapping[str, Any]) -> list[Condition] | None:
    """The filter as conditions this module decides, or None when it has another shape."""
    found: list[Condition] = []
    for field, wanted in filter.items():
        path = tuple(field.split("."))
        if field.startswith("$") or not all(path):
            return None
        if _plain(wanted):
            found.append((path, operator.eq, wanted, type(wanted)))
            continue
        if not isinstance(wanted, Mapping) or not wanted:
            return None
        for name, value in wanted.items():
            condition = _condition(path, name, value)
            if condition is None:
                return None
            found.append(condition)
    return found


def _decided(doc: Document, checks: list[Condition]) -> bool | None:
    """Whether `doc` matches, or None when a field holds a value this module does not
    compare, or its path crosses anything but subdocuments (then mongomock-ng decides)."""
    for path, compare, value, kind in checks:
        held: Any = doc
        for part in path:
            if type(held) is not dict:
                return None
            held = held.get(part, _MISSING)
        if type(held) is not kind:
            return None
        if not compare(held, value):
            return False
    return True


def _everything(doc: Document) -> bool:
    return True


def matcher(filter: Mapping[str, Any]) -> Callable[[Document], bool]:
    """Whether a document matches `filter`: decided here where this module decides it."""
    if not filter:
        return _everything
    checks = conditions(filter)
    if checks is None:
        return functools.partial(mongomock.filter_applies, filter)

    def match(doc: Document) -> bool:
        decided = _decided(doc, checks)
        return decided if decided is not None else mongomock.filter_applies(filter, doc)

    return match


def matching(
    documents: Iterable[Document], filter: Mapping[str, Any], checks: list[Condition]
) -> list[Document]:
    """The documents `filter` (whose `conditions` are `checks`) matches, in order."""
    found = []
    for doc in documents:
        decided = _decided(doc, checks)
        if decided is None:
            decided = mongomock.filter_applies(filter, doc)
        if decided:
            found.append(doc)
    return found


def sorted_documents(documents: list[Document], sort: Mapping[str, Any]) -> list[Document] | None:
    """`documents` in `sort` order (top-level fields, 1 or -1), when each sort field holds a
    value of one plain type in every document; None otherwise (mongomock-ng sorts them)."""
    fields = list(sort.items())
    if not fields or any("." in f or f.startswith("$") or d not in (1, -1) for f, d in fields):
        return None
    for field, _direction in fields:
        kinds = {type(doc.get(field, _MISSING)) for doc in documents}
        if len(kinds) > 1 or not kinds <= {str, ObjectId, int, datetime}:
            return None
    ordered = list(documents)
    for field, direction in reversed(fields):  # stable sorts, least significant key first
        ordered.sort(key=operator.itemgetter(field), reverse=direction == -1)
    return ordered
