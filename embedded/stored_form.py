"""Copies of documents in the engine's two forms: as stored (naive UTC datetimes to the
millisecond, as mongomock-ng keeps them) and as read (aware UTC datetimes, as a driver decodes
them).

Each copy walks plain dicts, lists, scalars and datetimes by exact type, a level of values at a
time (a document of hourly buckets is mostly those; a datetime converted as mongomock-ng
converts it), and hands every other value (tuples, OrderedDicts, timestamps) to mongomock-ng's
conversion, so the answers are its own (tests/engine/test_stored_form.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from bson import ObjectId

from embedded import mongomock_internals as mongomock
from embedded.protocols import Document

_patch = mongomock.patch_datetimes
_aware = mongomock.to_aware_datetimes
_UNCHANGED = frozenset({str, int, float, bool, type(None), ObjectId, bytes})
_READ_ZONE = mongomock.READ_ZONE


Copy = Callable[[Any], Any]


def _copier(dated: Callable[[datetime], datetime], other: Copy) -> Copy:
    """A copy walking dicts and lists, a level of values at a time: scalars kept, datetimes
    through `dated`, any other value (tuples, OrderedDicts, timestamps) through `other`."""

    def copy(value: Any) -> Any:
        kind = type(value)
        if kind is dict:
            copied = {}
            for key, item in value.items():
                item_kind = type(item)
                if item_kind in _UNCHANGED:
                    copied[key] = item
                elif item_kind is datetime:
                    copied[key] = dated(item)
                else:
                    copied[key] = copy(item)
            return copied
        if kind is list:
            return [copy(item) for item in value]
        if kind in _UNCHANGED:
            return value
        if kind is datetime:
            return dated(value)
        return other(value)

    return copy


# `datetime.combine(moment, moment.time(), zone)` is `moment.replace(tzinfo=zone)` at a sixth
# of the cost (`replace` parses its keywords); subtracting a prebuilt timedelta is likewise
# cheaper than `replace(microsecond=...)`. A page converts one datetime per element.
_combine = datetime.combine
_MICROSECONDS = tuple(timedelta(microseconds=n) for n in range(1000))


def _stored_datetime(moment: datetime) -> datetime:
    """`_patch` of a datetime: naive, UTC, whole milliseconds; the same object when it is so."""
    zone, extra = moment.tzinfo, moment.microsecond % 1000
    if zone is None:
        if not extra:
            return moment
        # Arithmetic drops `fold`, which mongomock-ng keeps on a naive datetime.
        if moment.fold:
            return moment.replace(microsecond=moment.microsecond - extra)
        return moment - _MICROSECONDS[extra]
    if zone is UTC or zone is _READ_ZONE:
        naive = _combine(moment, moment.time())
        return naive - _MICROSECONDS[extra] if extra else naive
    stored: datetime = _patch(moment)
    return stored


def _read_datetime(moment: datetime) -> datetime:
    return _combine(moment, moment.time(), _READ_ZONE)


def _reply_datetime(moment: datetime) -> datetime:
    return _read_datetime(_stored_datetime(moment))


# A copy of `value` in stored form (mongomock-ng's `patch_datetime_awareness_in_document`:
# datetimes naive UTC, to the millisecond).
stored_copy = _copier(_stored_datetime, _patch)
# A copy of a stored value as a read gives it: mongomock-ng's
# `make_datetime_timezone_aware_in_document`, every datetime given the UTC zone a driver's
# `tz_aware` decoding gives.
read_copy = _copier(_read_datetime, _aware)
# A copy of any value in read form (what an update's pipeline sees): a naive datetime is UTC,
# as a server reads it, one of another zone is made UTC, both to the millisecond.
reply_copy = _copier(_reply_datetime, lambda value: _aware(_patch(value)))


# Values of a document with the level each sits at (1: a field's value; 2: an element of a
# field's array), as `document_limits.check_document` measures nesting from them.
Placed = list[tuple[Any, int]]
# A field an update changed, as `document_limits.growth` bounds what it adds: its key, its new
# value (-1) or, for an array that kept elements of the old one, its new elements and length.
Changed = tuple[str, Any, int]
_ABSENT = object()


class Beside(NamedTuple):
    document: Document
    placed: Placed  # its values that may nest deeper than the stored document's, with levels
    changed: list[Changed] | None  # None: an array holds a kept element more than once


def stored_copy_beside(new: Mapping[str, Any], stored: Mapping[str, Any]) -> Beside:
    """`stored_copy(new)`, for a document an update pipeline made of the stored document
    `stored`, keeping what it took from `stored` unchanged as it is: a field's value, an element
    of the same field's array. Stored values are in stored form already and are never changed
    in place (every write builds a new document), so the two documents may share them.

    Also gives the values it copied, each with its level (nothing else can nest deeper than it
    did in `stored`, whose nesting was checked when it was stored), and the fields it changed."""
    copied: Document = {}
    placed: Placed = []
    changed: list[Changed] | None = []
    for key, value in new.items():
        before = stored.get(key, _ABSENT)
        if value is before:
            copied[key] = value
        elif type(value) is list and type(before) is list:
            items, fresh, repeated = _items_beside(value, before)
            copied[key] = items
            placed += [(item, 2) for item in fresh]
            if repeated:
                changed = None
            elif changed is not None:
                changed.append((key, fresh, len(items)))
        else:
            copied[key] = value = stored_copy(value)
            placed.append((value, 1))
            if changed is not None:
                changed.append((key, value, -1))
    return Beside(copied, placed, changed)


def _items_beside(value: list[Any], before: list[Any]) -> tuple[list[Any], list[Any], bool]:
    """An array's items, the elements of `before` kept as they are; those copied; and whether
    an element of `before` is kept more than once."""
    kept, seen = {id(item) for item in before}, set()
    items, fresh = [], []
    for item in value:
        if id(item) in kept:
            seen.add(id(item))
        else:
            item = stored_copy(item)
            fresh.append(item)
        items.append(item)
    return items, fresh, len(seen) < len(items) - len(fresh)
