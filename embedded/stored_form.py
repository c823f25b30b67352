"""Copies of documents in the engine's two forms: as stored (naive UTC datetimes to the
millisecond, as mongomock-ng keeps them) and as read (aware UTC datetimes, as a driver decodes
them).

Each copy walks plain dicts, lists and scalars by exact type (a document of hourly buckets is
mostly those) and hands every other value (datetimes, tuples, OrderedDicts, timestamps) to
mongomock-ng's conversion, so the answers are its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bson import ObjectId

from embedded import mongomock_internals as mongomock

_patch = mongomock.patch_datetimes
_aware = mongomock.to_aware_datetimes
_UNCHANGED = frozenset({str, int, float, bool, type(None), ObjectId, bytes})


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
    """A copy of `value` in stored form (mongomock-ng's `patch_datetime_awareness_in_document`)."""
    return _copy(value, _patch)


def read_copy(value: Any) -> Any:
    """A copy of a stored value as a read gives it."""
    return _copy(value, _aware)


def reply_copy(value: Any) -> Any:
    """A copy of any value in read form (what an update's pipeline sees): a naive datetime is
    UTC, as a server reads it, one of another zone is made UTC, both to the millisecond."""
    return _copy(value, _as_read)
