"""Query operators that compare values, as a server's matcher does, in mongomock-ng's matcher.

mongomock-ng compares with Python's equality and order, so `{x: 1}` matched `x: true`, a
`Decimal128("1")` never equalled `1`, and subdocuments equalled whatever their key order. Here
every equality (a plain value, `$eq`, `$ne`, `$in`, `$nin`, `$all`) and every range (`$gt`,
`$gte`, `$lt`, `$lte`) compares by `embedded.bson_order`, so:

- equality holds within one type bracket (an array equals a value when it or one of its
  elements does; `$ne` is its negation): numbers of every type by value, booleans apart;
  subdocuments field by field, in order; a missing field equals null;
- a range compares only within its value's bracket (type bracketing), except against MinKey and
  MaxKey; NaN equals NaN and is neither below nor above anything; `$gte`/`$lte` null match a
  missing field, as `$eq` null does, and `$gt`/`$lt` null match nothing;
- `$type` knows every alias and number of MongoDB 8.0 ("null" included) and `"number"`, and a
  list of them; an array matches its own type ("array") and the types of its elements.

`install()` puts them in mongomock-ng's matcher (and its sorts' comparison) for the process,
when the first engine is created.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from typing import Any

from bson.decimal128 import Decimal128
from bson.regex import Regex
from pymongo.errors import OperationFailure

from embedded import bson_order, rules
from embedded import mongomock_internals as mongomock
from embedded.bson_order import MAX_KEY, MIN_KEY, Key, order_key, type_name
from embedded.mongomock_internals import NOTHING
from embedded.writes import arithmetic_updates

_PATTERNS = (re.Pattern, Regex)
_NULL_KEY = order_key(None)
_NAN_KEY = order_key(float("nan"))
# The last `$in` list, keyed: the list, the identities of its values (a list changed in place
# between two queries is keyed again), its keys and its patterns.
_last_in: list[tuple[Any, tuple[int, ...], frozenset[Key], list[Any]]] = []


def _keyed(values: list[Any]) -> tuple[frozenset[Key], list[Any]]:
    """An `$in` list's values as a set of keys, and its patterns (kept for the next document
    of the same query: a scan asks with the same list each time)."""
    last = _last_in[0] if _last_in else None
    identities = tuple(map(id, values))
    if last is not None and last[0] is values and last[1] == identities:
        return last[2], last[3]
    patterns = [value for value in values if isinstance(value, _PATTERNS)]
    keys = frozenset(order_key(v) for v in values if not isinstance(v, _PATTERNS))
    _last_in[:] = [(values, identities, keys, patterns)]
    return keys, patterns


def _matches_pattern(value: Any, patterns: list[Any]) -> bool:
    for pattern in patterns:
        compiled = pattern.try_compile() if isinstance(pattern, Regex) else pattern
        if isinstance(value, str) and compiled.search(value):
            return True
    return False


def is_in(value: Any, values: Any) -> bool:
    """`$in`: the value, or an element of an array value, equals a listed value (or matches a
    listed pattern); a missing field matches a listed null."""
    if not isinstance(values, list | tuple):
        raise OperationFailure("$in needs an array", rules.BAD_VALUE)
    keys, patterns = _keyed(values)  # type: ignore[arg-type]
    if value is NOTHING:
        return _NULL_KEY in keys
    if isinstance(value, list) and value:
        for item in value:
            if order_key(item) in keys or (patterns and _matches_pattern(item, patterns)):
                return True
    return order_key(value) in keys or bool(patterns and _matches_pattern(value, patterns))


def _in_range(name: str) -> Callable[[Any, Any], bool]:
    compare = mongomock.SORTING_OPERATOR_MAP[name]
    with_equal = name in ("$gte", "$lte")

    def one(value: Any, bound: Any) -> bool:
        kind = type(value)
        if kind is type(bound) and (kind is int or kind is str):
            return bool(compare(value, bound))
        key, bound_key = order_key(value), order_key(bound)
        if key[0] != bound_key[0]:
            return bound_key[0] in (MIN_KEY, MAX_KEY) and bool(compare(key, bound_key))
        if key == _NAN_KEY or bound_key == _NAN_KEY:
            return with_equal and key == bound_key
        return bool(compare(key, bound_key))

    def in_range(value: Any, bound: Any) -> bool:
        if value is NOTHING:
            return with_equal and bound is None
        if isinstance(value, list) and not isinstance(bound, list):
            return any(one(item, bound) for item in value)
        return one(value, bound)

    return in_range


def equal_or_element(value: Any, wanted: Any) -> bool:
    """`$eq`: the value, or an element of an array value, equals `wanted`."""
    if isinstance(value, list) and any(bson_order.equal(item, wanted) for item in value):
        return True
    return bson_order.equal(value, wanted)


def _not_equal(value: Any, wanted: Any) -> bool:
    return not equal_or_element(value, wanted)


_NUMBERS = frozenset({"double", "int", "long", "decimal"})
_BY_CODE = {
    1: "double", 2: "string", 3: "object", 4: "array", 5: "binData", 6: "undefined",
    7: "objectId", 8: "bool", 9: "date", 10: "null", 11: "regex", 12: "dbPointer",
    13: "javascript", 14: "symbol", 15: "javascriptWithScope", 16: "int", 17: "timestamp",
    18: "long", 19: "decimal", -1: "minKey", 127: "maxKey",
}  # fmt: skip
_ALIASES = frozenset(_BY_CODE.values()) | {"number"}


def _wanted_type(given: Any) -> str:
    if isinstance(given, str):
        if given not in _ALIASES:
            raise OperationFailure(f"Unknown type name alias: {given}", rules.BAD_VALUE)
        return given
    if isinstance(given, int | float | Decimal128) and not isinstance(given, bool):
        number = float(given.to_decimal()) if isinstance(given, Decimal128) else given
        if number in _BY_CODE:
            return _BY_CODE[int(number)]
        raise OperationFailure(f"Invalid numerical type code: {given}", rules.BAD_VALUE)
    raise OperationFailure("type must be represented as a number or a string", rules.TYPE_MISMATCH)


def _wanted_types(given: Any) -> frozenset[str]:
    names = {_wanted_type(g) for g in given} if isinstance(given, list) else {_wanted_type(given)}
    return frozenset(names | _NUMBERS) if "number" in names else frozenset(names)


def has_type(value: Any, given: Any) -> bool:
    """`$type`: the value, or an element of an array value, has one of the given types."""
    wanted = _wanted_types(given)
    if type_name(value) in wanted:
        return True
    if isinstance(value, list):
        return any(type_name(item) in wanted for item in value)
    return False


OPERATORS: dict[str, Callable[[Any, Any], bool]] = {
    "$eq": equal_or_element,
    "$ne": _not_equal,
    "$in": is_in,
    "$type": has_type,
    **{name: _in_range(name) for name in ("$gt", "$gte", "$lt", "$lte")},
}
_install_lock = threading.Lock()
_installed: list[bool] = []


def install() -> None:
    """Make mongomock-ng's matcher and sorts compare as above, and its updates apply `$inc`,
    `$mul`, `$min` and `$max` as `embedded.writes.arithmetic_updates` does (once per process)."""
    with _install_lock:
        if not _installed:
            equal, order = bson_order.equal, bson_order.compare
            mongomock.route_comparisons_to(equal, order, OPERATORS, arithmetic_updates.UPDATERS)
            _installed.append(True)
