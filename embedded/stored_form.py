"""Documents in the form the engine stores them: naive UTC datetimes to the millisecond.

`stored_copy` gives what mongomock-ng's `patch_datetime_awareness_in_document` gives, walking
plain dicts, lists and scalars by exact type (a document of hourly buckets is mostly those),
and leaving the rest (datetimes, tuples, OrderedDicts, timestamps) to mongomock-ng.
"""

from __future__ import annotations

from typing import Any

from bson import ObjectId

from embedded import mongomock_internals as mongomock

_patch = mongomock.patch_datetimes
_aware = mongomock.to_aware_datetimes
_UNCHANGED = frozenset({str, int, float, bool, type(None), ObjectId, bytes})


def stored_copy(value: Any) -> Any:
    """A copy of `value` in stored form."""
    kind = type(value)
    if kind is dict:
        return {k: stored_copy(v) for k, v in value.items()}
    if kind is list:
        return [stored_copy(v) for v in value]
    if kind in _UNCHANGED:
        return value
    return _patch(value)


def reply_copy(value: Any) -> Any:
    """A copy of `value` in the form the engine's reads give (and an update's pipeline sees):
    datetimes aware UTC to the millisecond, as a driver sends a naive one (read as UTC) or one
    of another zone."""
    kind = type(value)
    if kind is dict:
        return {k: reply_copy(v) for k, v in value.items()}
    if kind is list:
        return [reply_copy(v) for v in value]
    if kind in _UNCHANGED:
        return value
    return _aware(_patch(value))
