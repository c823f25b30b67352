"""Comparison operators' answers on evaluated values, for the compiled closures
(`embedded.expressions.compiler`): `$eq`/`$ne` and the four orderings, with mongomock-ng's semantics
(a missing value equals null; nothing missing is ordered; BSON's order between types)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from datetime import datetime
from typing import Any

from embedded import bson_order
from embedded import mongomock_internals as mongomock
from embedded.expressions.arithmetic import NUMBERS
from embedded.mongomock_internals import NOTHING

_bson_compare = bson_order.compare
_SORTING = mongomock.SORTING_OPERATOR_MAP

# Types whose Python order is BSON's order between two values of the same type (strings compare
# by code point, which is UTF-8 byte order; floats are left out for NaN, bool is its own type).
_ORDERED_ALIKE = frozenset({int, str, datetime})
_NATIVE_ORDER: dict[str, Callable[[Any, Any], Any]] = {
    "$lt": operator.lt,
    "$lte": operator.le,
    "$gt": operator.gt,
    "$gte": operator.ge,
}

Ordering = Callable[[Any, Any], bool]


def equal(a: Any, b: Any) -> bool:
    """`$eq` of two evaluated values (missing equals null), as BSON compares them: `true` is
    not `1`, numbers equal across types, a subdocument's field order counts."""
    return (a is None and b is NOTHING) or bson_order.equal(a, b)


def ordering(name: str) -> Ordering:
    """`$lt`, `$lte`, `$gt` or `$gte` of two evaluated values."""
    sorting, native = _SORTING[name], _NATIVE_ORDER[name]

    def compare(a: Any, b: Any) -> bool:
        if a is NOTHING or b is NOTHING:
            return False
        if type(a) is type(b) and type(a) in _ORDERED_ALIKE:
            try:
                return bool(native(a, b))
            except TypeError:
                pass  # naive against aware datetimes: mongomock-ng decides
        if type(a) in NUMBERS and type(b) in NUMBERS and a == a and b == b:
            return bool(native(a, b))  # ints and doubles in numeric order (NaN aside)
        return bool(_bson_compare(sorting, a, b))

    return compare
