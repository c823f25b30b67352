"""Copies of documents in the engine's two forms: as stored (naive UTC datetimes to the
millisecond, as mongomock-ng keeps them) and as read (aware UTC datetimes, as a driver decodes
them).

Each copy walks plain dicts, lists and scalars by exact type (a document of hourly buckets is
mostly those) and hands every other value (datetimes, tuples, OrderedDicts, timestamps) to
mongomock-ng's conversion, so the answers are its own.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from bson import ObjectId

from embedded import mongomock_internals as mongomock

_patch = mongomock.patch_datetimes
_aware = mongomock.to_aware_datetimes
_UNCHANGED = frozenset({str, int, float, bool, type(None), ObjectId, bytes})
_READ_ZONE = mongomock.READ_ZONE


def _copy(value: Any, convert: Callable[[Any], Any]) -> Any:
    kind = type(value)
    if kind is dict:
        return {k: _copy(v, convert) for k, v in value.items()}
    if kind is list:
        return [_copy(v, convert) for v in value]
    if kind in _UNCHANGED:
        return value
    return convert(value)


def _as_read(value: Any) -> Any:
    return _aware(_patch(value))


def stored_copy(value: Any) -> Any:
    """A copy of `value` in stored form (mongomock-ng's `patch_datetime_awareness_in_document`:
    datetimes naive UTC, to the millisecond), one level of values at a time."""
    kind = type(value)
    if kind is dict:
        copied = {}
        for key, item in value.items():
            item_kind = type(item)
            if item_kind in _UNCHANGED:
                copied[key] = item
            elif item_kind is datetime:
                copied[key] = _stored_datetime(item)
            else:
                copied[key] = stored_copy(item)
        return copied
    if kind is list:
        return [stored_copy(item) for item in value]
    if kind in _UNCHANGED:
        return value
    if kind is datetime:
        return _stored_datetime(value)
    return _patch(value)


def _stored_datetime(moment: datetime) -> datetime:
    """`_patch` of a datetime: naive, UTC, whole milliseconds; the same object when it is so."""
    zone, extra = moment.tzinfo, moment.microsecond % 1000
    if zone is None:
        return moment.replace(microsecond=moment.microsecond - extra) if extra else moment
    if zone is UTC or zone is _READ_ZONE:
        return moment.replace(tzinfo=None, microsecond=moment.microsecond - extra)
    stored: datetime = _patch(moment)
    return stored


def read_copy(value: Any) -> Any:
    """A copy of a stored value as a read gives it: mongomock-ng's
    `make_datetime_timezone_aware_in_document` (every datetime given the UTC zone a driver's
    `tz_aware` decoding gives), one level of values at a time (replies are mostly subdocuments
    of scalars and dates)."""
    kind = type(value)
    if kind is dict:
        copied = {}
        for key, item in value.items():
            item_kind = type(item)
            if item_kind in _UNCHANGED:
                copied[key] = item
            elif item_kind is datetime:
                copied[key] = item.replace(tzinfo=_READ_ZONE)
            else:
                copied[key] = read_copy(item)
        return copied
    if kind is list:
        return [read_copy(item) for item in value]
    if kind in _UNCHANGED:
        return value
    if kind is datetime:
        return value.replace(tzinfo=_READ_ZONE)
    return _aware(value)


def reply_copy(value: Any) -> Any:
    """A copy of any value in read form (what an update's pipeline sees): a naive datetime is
    UTC, as a server reads it, one of another zone is made UTC, both to the millisecond."""
    return _copy(value, _as_read)
