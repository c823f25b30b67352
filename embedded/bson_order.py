"""BSON's types, order and equality of values, as a server has them (not as Python does).

A value's `order_key` is a tuple that Python orders as a server orders values: first by the
value's type bracket (MinKey < null < numbers < strings < objects < arrays < binary data <
ObjectIds < booleans < dates < timestamps < regexes < code < MaxKey), then within it. Numbers
are one bracket, compared by value across ints, longs, doubles and decimals (Python compares
int, float and Decimal exactly), NaN below every other number and equal to itself; booleans are
a bracket of their own (Python's True == 1 is not BSON's); an object's fields compare in order,
each by type, name, then value, so that key order counts, as it does on a server. Two values
are equal (a query's equality) exactly when their keys are; `equal` decides the commonest pairs
(two values of one plain type) without building keys. `type_name` is a value's type as `$type`
names it. `hash_key` is a value's key in a dictionary: equal for values BSON deems equal.
"""

from __future__ import annotations

import math
import re
import uuid
from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, Final

from bson import DBRef, ObjectId
from bson.binary import Binary
from bson.code import Code
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from bson.max_key import MaxKey
from bson.min_key import MinKey
from bson.regex import Regex
from bson.timestamp import Timestamp

from embedded import rules
from embedded.mongomock_internals import NOTHING

Key = tuple[Any, ...]

# Canonical type brackets, numbered as a server numbers them (`canonicalizeBSONType`).
MIN_KEY, NULL, NUMBER, STRING, OBJECT, ARRAY, BINARY = -1, 5, 10, 15, 20, 25, 30
OBJECT_ID, BOOL, DATE, TIMESTAMP, REGEX, CODE, CODE_WITH_SCOPE, MAX_KEY = (
    35, 40, 45, 47, 50, 60, 65, 127,
)  # fmt: skip
_NAN: Final[Key] = (NUMBER, 0)
_NULL: Final[Key] = (NULL,)
# Types whose Python equality is BSON's between two values of that very type.
_EQUAL_ALIKE = frozenset({str, int, ObjectId, bool, Int64, type(None)})
# The brackets of types `equal` compares without keys when two values' types differ.
_BRACKET_OF = {
    str: STRING,
    int: NUMBER,
    Int64: NUMBER,
    float: NUMBER,
    bool: BOOL,
    ObjectId: OBJECT_ID,
    type(None): NULL,
    dict: OBJECT,
    list: ARRAY,
    datetime: DATE,
}


def _number(value: Any) -> Key:
    if value != value:
        return _NAN
    return (NUMBER, 1, value)


def _decimal(value: Decimal128) -> Key:
    number = value.to_decimal()
    return _NAN if number.is_nan() else (NUMBER, 1, number)


def _date(value: datetime) -> Key:
    if value.tzinfo is not None:  # stored datetimes are naive UTC
        value = value.astimezone(UTC).replace(tzinfo=None)
    return (DATE, value)


def _object(value: Mapping[str, Any]) -> Key:
    fields = []
    for name, item in value.items():
        key = order_key(item)
        fields.append((key[0], name, key))
    return (OBJECT, tuple(fields))


def _binary(value: bytes) -> Key:
    subtype = value.subtype if isinstance(value, Binary) else 0
    return (BINARY, len(value), subtype, bytes(value))


def _regex(value: Any) -> Key:
    flags = value.flags
    return (REGEX, value.pattern, flags if isinstance(flags, str) else _flag_letters(flags))


def _flag_letters(flags: int) -> str:
    letters = {re.IGNORECASE: "i", re.MULTILINE: "m", re.DOTALL: "s", re.VERBOSE: "x"}
    return "".join(sorted(letter for flag, letter in letters.items() if flags & flag))


def _code(value: Code) -> Key:
    if value.scope is None:
        return (CODE, str(value))
    return (CODE_WITH_SCOPE, str(value), _object(value.scope))


_KEYS: dict[type, Callable[[Any], Key]] = {
    type(None): lambda value: _NULL,
    bool: lambda value: (BOOL, value),
    int: lambda value: (NUMBER, 1, value),  # never NaN
    Int64: lambda value: (NUMBER, 1, value),
    float: _number,
    Decimal128: _decimal,
    str: lambda value: (STRING, value),
    dict: _object,
    list: lambda value: (ARRAY, tuple(map(order_key, value))),
    ObjectId: lambda value: (OBJECT_ID, value.binary),
    datetime: _date,
    bytes: _binary,
    Binary: _binary,
    uuid.UUID: lambda value: (BINARY, 16, 4, value.bytes),
    Timestamp: lambda value: (TIMESTAMP, value.time, value.inc),
    Regex: _regex,
    re.Pattern: _regex,
    Code: _code,
    MinKey: lambda value: (MIN_KEY,),
    MaxKey: lambda value: (MAX_KEY,),
    DBRef: lambda value: _object(value.as_doc()),
}


def order_key(value: Any) -> Key:
    """A key that Python orders as a server orders `value` among other values; a missing
    value is null, as a sort takes it."""
    of = _KEYS.get(type(value))
    if of is not None:
        return of(value)
    if value is NOTHING:
        return _NULL
    for kind, of in _KEYS.items():  # subclasses: SON, OrderedDict, tuples, ...
        if isinstance(value, kind):
            return of(value)
    if isinstance(value, Mapping):
        return _object(value)
    if isinstance(value, tuple):
        return (ARRAY, tuple(map(order_key, value)))
    raise rules.unsupported(f"comparing a value of type {type(value).__name__}")


class HashKey(tuple[Any, ...]):
    """The `hash_key` of a value whose Python equality is not BSON's (its `order_key`)."""

    __slots__ = ()


# Types whose Python equality and hash are BSON's, across them too (1 == 1.0 == Int64(1)).
# A Decimal is a Decimal128's key; keys are keys of themselves.
_HASHED_AS_IS = frozenset({str, int, Int64, ObjectId, type(None), HashKey, Decimal})


def hash_key(value: Any) -> Any:
    """A hashable key of `value`, equal to another's exactly when BSON deems the two values
    equal: the value itself where Python agrees (Python hashes equal numbers alike, a Decimal
    too), else a `HashKey` (`true` apart from 1, a subdocument's fields in order, NaN one)."""
    kind = type(value)
    if kind in _HASHED_AS_IS or (kind is float and value == value):
        return value
    if kind is Decimal128:
        number = value.to_decimal()
        if not number.is_nan():
            return number
    elif kind is datetime:
        return _date(value)[1]
    return HashKey(order_key(value))


def equal(a: Any, b: Any) -> bool:
    """Whether `a` equals `b` as a server's query equality says (a missing value equals null)."""
    kind, other = type(a), type(b)
    if kind is other:
        if kind in _EQUAL_ALIKE:
            return bool(a == b)
        if kind is float:
            return a == b or (math.isnan(a) and math.isnan(b))
        if kind is dict:  # field by field, in order
            return len(a) == len(b) and all(
                x == y and equal(a[x], b[y]) for x, y in zip(a, b, strict=True)
            )
        if kind is list:
            return len(a) == len(b) and all(map(equal, a, b))
    else:
        bracket, other_bracket = _BRACKET_OF.get(kind), _BRACKET_OF.get(other)
        if bracket is not None and other_bracket is not None:
            # ints, longs and doubles: Python compares them exactly (NaN equals no int)
            return bracket == other_bracket and (bracket != NUMBER or bool(a == b))
    if a is NOTHING:
        return b is None or b is NOTHING
    return order_key(a) == order_key(b)


def compare(
    operator: Callable[[Any, Any], Any], a: Any, b: Any, can_compare_types: Any = True
) -> Any:
    """`operator` (`operator.lt`, ...) of `a` and `b` in BSON's order; with
    `can_compare_types` false, False for values of two brackets (a query's type bracketing)."""
    key_a, key_b = order_key(a), order_key(b)
    if key_a[0] != key_b[0] and not can_compare_types:
        return False
    return operator(key_a, key_b)


def _int_type(value: int) -> str:
    return "int" if type(value) is int and -(2**31) <= value < 2**31 else "long"


_TYPE_OF: dict[type, Callable[[Any], str]] = {
    float: lambda v: "double",
    str: lambda v: "string",
    dict: lambda v: "object",
    list: lambda v: "array",
    bytes: lambda v: "binData",
    uuid.UUID: lambda v: "binData",
    ObjectId: lambda v: "objectId",
    bool: lambda v: "bool",
    datetime: lambda v: "date",
    type(None): lambda v: "null",
    Regex: lambda v: "regex",
    re.Pattern: lambda v: "regex",
    Code: lambda v: "javascript" if v.scope is None else "javascriptWithScope",
    int: _int_type,
    Int64: _int_type,
    Timestamp: lambda v: "timestamp",
    Decimal128: lambda v: "decimal",
    MinKey: lambda v: "minKey",
    MaxKey: lambda v: "maxKey",
    DBRef: lambda v: "object",
}


def type_name(value: Any) -> str | None:
    """The `$type` alias of a value; None for a missing one."""
    of = _TYPE_OF.get(type(value))
    if of is not None:
        return of(value)
    if value is NOTHING:
        return None
    for kind, of in _TYPE_OF.items():
        if isinstance(value, kind):
            return of(value)
    return "object" if isinstance(value, Mapping) else "array" if isinstance(value, tuple) else None
