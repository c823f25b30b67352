"""What a query filter requires of each field: ranges of index keys, for the planner.

A top-level condition on a field with plain values (an equality, `$eq`, `$in`, `$gt`, `$gte`, `$lt`,
`$lte`) requires the field's key to lie in some ranges (`embedded.planner.index_keys`): a range
comparison stays inside its value's type bracket, as a server's does. `$and` intersects the ranges
of its clauses; `$or` unites them, for the fields that every branch constrains (and `alternatives`
keeps each branch's ranges apart, for a walk of a compound index). Anything else (negations,
`$exists`, `$type`, regexes, `$expr`, subdocuments, arrays, booleans) requires nothing here.

What is required is necessary, never sufficient: the planner matches the whole filter against
every document an index gives it, so leaving a condition out costs documents examined, never
a wrong answer. A document whose value is not plain (an array holding the value, NaN...) is an
exception of every index it is in, and always examined.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from embedded.planner.index_keys import NULL, Key, bracket_end, bracket_start, value_key

Interval = tuple[Key, bool, Key, bool]  # low, low included, high, high included
Ranges = tuple[Interval, ...]  # a union of intervals
Required = dict[str, Ranges]

_MAX_INTERVALS = 4096  # past this, an intersection keeps one side (less required, still right)


def required(filter: Mapping[str, Any]) -> Required:
    """The ranges each field's key must lie in for a document to match `filter`."""
    found: Required = {}
    for field, value in filter.items():
        if not isinstance(field, str):
            continue
        if field == "$and" and isinstance(value, list):
            for clause in value:
                if isinstance(clause, Mapping):
                    _restrict(found, required(clause))
        elif field == "$or" and isinstance(value, list) and value:
            _restrict(found, _either(value))
        elif not field.startswith("$"):
            ranges = _field_ranges(value)
            if ranges is not None:
                _restrict(found, {field: ranges})
    return found


def alternatives(filter: Mapping[str, Any]) -> list[Required] | None:
    """What each branch of a top-level `$or` requires, with the rest of the filter; a document
    matches only if it meets one of them. None without such an `$or`."""
    branches = filter.get("$or")
    if not isinstance(branches, list) or not branches:
        return None
    if not all(isinstance(branch, Mapping) for branch in branches):
        return None
    rest = required({field: value for field, value in filter.items() if field != "$or"})
    found = []
    for branch in branches:
        each = dict(rest)
        _restrict(each, required(branch))
        found.append(each)
    return found


def decided_by_keys(filter: Mapping[str, Any]) -> str | None:
    """The field of a filter that its ranges decide exactly, else None: one top-level
    condition (a plain value, or `$eq`, `$gt`, `$gte`, `$lt`, `$lte` of plain values, or an
    `$in` of them alone; no range of null). A document whose key on that field is plain then
    matches exactly when its key lies in `required(filter)[field]`."""
    if len(filter) != 1:
        return None
    [(field, value)] = filter.items()
    if not isinstance(field, str) or field.startswith("$"):
        return None
    if not isinstance(value, Mapping):
        return field if value_key(value) is not None else None
    if not value or ("$in" in value and len(value) > 1):
        return None  # an intersection with many points may keep one side only
    for operator, argument in value.items():
        if operator not in _EXACT or _operator_ranges(operator, argument) is None:
            return None
    return field


def is_point(interval: Interval) -> bool:
    low, low_in, high, high_in = interval
    return low_in and high_in and low == high


def _restrict(found: Required, more: Required) -> None:
    for field, ranges in more.items():
        found[field] = _intersect(found[field], ranges) if field in found else ranges


def _either(branches: list[Any]) -> Required:
    each = [required(b) if isinstance(b, Mapping) else {} for b in branches]
    common = set(each[0]).intersection(*each[1:])
    return {field: tuple(i for branch in each for i in branch[field]) for field in common}


def _field_ranges(value: Any) -> Ranges | None:
    if not isinstance(value, Mapping):
        key = value_key(value)
        return None if key is None else ((key, True, key, True),)
    if not value or not all(isinstance(k, str) and k.startswith("$") for k in value):
        return None  # a subdocument, compared whole
    ranges: Ranges | None = None
    for operator, argument in value.items():
        found = _operator_ranges(operator, argument)
        if found is not None:
            ranges = found if ranges is None else _intersect(ranges, found)
    return ranges


def _operator_ranges(operator: str, argument: Any) -> Ranges | None:
    if operator == "$in":
        if not isinstance(argument, list):
            return None
        keys = [value_key(v) for v in argument]
        if any(key is None for key in keys):
            return None  # a regex, an array, a boolean: decided by the filter alone
        return tuple((key, True, key, True) for key in keys if key is not None)
    key = value_key(argument)
    if key is None or (operator != "$eq" and operator not in _BOUNDS):
        return None
    if operator == "$eq":
        return ((key, True, key, True),)
    if key[0] == NULL:
        return None  # a range of null reaches missing fields by rules of its own
    lower, upper = _BOUNDS[operator]
    low, low_in = (key, lower == "in") if lower else (bracket_start(key), True)
    high, high_in = (key, upper == "in") if upper else (bracket_end(key), False)
    return ((low, low_in, high, high_in),)


# Each operator's low and high bound: the value ("in" included, "out" not) or its bracket's end.
_BOUNDS = {
    "$gt": ("out", ""),
    "$gte": ("in", ""),
    "$lt": ("", "out"),
    "$lte": ("", "in"),
}

_EXACT = frozenset({"$eq", "$in", *_BOUNDS})


def _intersect(a: Ranges, b: Ranges) -> Ranges:
    if len(a) * len(b) > _MAX_INTERVALS:
        return a
    found = []
    for x in a:
        for y in b:
            both = _both(x, y)
            if both is not None:
                found.append(both)
    return tuple(found)


def _both(x: Interval, y: Interval) -> Interval | None:
    (xl, xl_in, xh, xh_in), (yl, yl_in, yh, yh_in) = x, y
    if xl == yl:
        low, low_in = xl, xl_in and yl_in
    else:
        low, low_in = (xl, xl_in) if xl > yl else (yl, yl_in)
    if xh == yh:
        high, high_in = xh, xh_in and yh_in
    else:
        high, high_in = (xh, xh_in) if xh < yh else (yh, yh_in)
    if low > high or (low == high and not (low_in and high_in)):
        return None
    return (low, low_in, high, high_in)
