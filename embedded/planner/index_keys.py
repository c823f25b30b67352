"""Index keys: plain values in BSON's order, as a server's index orders them.

A key is `(bracket, value)`, the bracket being the value's canonical BSON type in BSON's order
of types (null < numbers < strings < ObjectIds < dates), so that Python orders keys as a server
orders index entries: by bracket, then by value within one (numbers numerically, ints, doubles
and Decimal128s alike, as Python compares int, float and Decimal exactly; strings by code point,
which is UTF-8 byte order; ObjectIds by bytes). A missing field is null, as in an index. A value
of any other kind (an array, a subdocument, NaN, a datetime with a time zone, a boolean, which
BSON keeps apart from numbers...) has no key here: its document is an exception of the index,
which every lookup examines (`embedded.planner.indexes`), so that an index never answers
otherwise than a scan.

`(bracket,)` sorts before every key of its bracket and `TOP` after every key, so that bounds of
a range can be written as keys too.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from bson import ObjectId
from bson.decimal128 import Decimal128
from bson.int64 import Int64

Key = tuple[Any, ...]
Keys = tuple[Key, ...]  # a compound index's key: one key per field

NULL, NUMBER, STRING, OBJECT_ID, DATE = 2, 3, 4, 8, 10
TOP: Final[Key] = (99,)
_NULL_KEY: Final[Key] = (NULL, 0)

_BRACKETS: dict[type, int] = {
    type(None): NULL,
    int: NUMBER,
    Int64: NUMBER,
    float: NUMBER,
    str: STRING,
    ObjectId: OBJECT_ID,
    datetime: DATE,
}
_MISSING = object()


def value_key(value: Any) -> Key | None:
    """The key of a plain value; None for any other (its document is an exception)."""
    bracket = _BRACKETS.get(type(value))
    if bracket is None:
        if type(value) is Decimal128:
            number = value.to_decimal()
            return None if number.is_nan() else (NUMBER, number)
        return None
    if bracket == NUMBER:
        return (NUMBER, value) if value == value else None  # NaN has an order of its own
    if bracket == DATE:
        return (DATE, value) if value.tzinfo is None else None  # stored datetimes are naive
    return _NULL_KEY if bracket == NULL else (bracket, value)


def path_key(doc: Any, parts: tuple[str, ...]) -> Key | None:
    """The key of the value at a (split) path through subdocuments; null when a field on the
    way is missing; None when the path meets an array or any other value before its end."""
    value = doc
    for part in parts:
        if not isinstance(value, dict):
            return None
        value = value.get(part, _MISSING)
        if value is _MISSING:
            return _NULL_KEY
    return value_key(value)


def document_keys(doc: Any, paths: tuple[tuple[str, ...], ...]) -> Keys | None:
    """A document's key under an index of `paths`; None when it is an exception."""
    found = []
    for parts in paths:
        key = path_key(doc, parts)
        if key is None:
            return None
        found.append(key)
    return tuple(found)


def bracket_start(key: Key) -> Key:
    """Before every key of `key`'s bracket."""
    return (key[0],)


def bracket_end(key: Key) -> Key:
    """After every key of `key`'s bracket, and before any of the next."""
    return (key[0] + 1,)
