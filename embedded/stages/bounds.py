"""`$skip` and `$limit` arguments, checked as a server parses them before it runs a pipeline.

A server takes a whole number (of any numeric type) that fits 64 bits: not negative for `$skip`
(15956), positive for `$limit` (15958). mongomock-ng would take a negative skip as none, a limit
of 0 as an empty result and a fraction as a failure of its own: a count through them
(`count_documents`) would answer success with another number.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from typing import Any

from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded import rules

SKIP_INVALID = 15956
LIMIT_INVALID = 15958


def _whole(value: Any) -> int | None:
    """`value` as a whole 64-bit number, or None when it is not one."""
    if isinstance(value, bool) or not isinstance(value, int | float | Int64):
        return None
    if isinstance(value, float) and not (math.isfinite(value) and value == int(value)):
        return None
    number = int(value)
    return number if -(2**63) <= number < 2**63 else None


def skip_argument(value: Any) -> int:
    number = _whole(value)
    if number is None:
        message = f"invalid argument to $skip stage: Expected an integer: $skip: {value!r}"
        raise OperationFailure(message, SKIP_INVALID, _details(SKIP_INVALID, message))
    if number < 0:
        message = (
            f"invalid argument to $skip stage: Expected a non-negative number in: $skip: {number}"
        )
        raise OperationFailure(message, SKIP_INVALID, _details(SKIP_INVALID, message))
    return number


def limit_argument(value: Any) -> int:
    number = _whole(value)
    if number is None:
        message = f"invalid argument to $limit stage: Expected an integer: $limit: {value!r}"
        raise OperationFailure(message, LIMIT_INVALID, _details(LIMIT_INVALID, message))
    if number <= 0:
        message = "the limit must be positive"
        raise OperationFailure(message, LIMIT_INVALID, _details(LIMIT_INVALID, message))
    return number


def check_bounds(pipeline: Iterable[Mapping[str, Any]]) -> None:
    """Each top-level `$skip` and `$limit` of `pipeline`, checked."""
    for stage in pipeline:
        if "$skip" in stage:
            skip_argument(stage["$skip"])
        elif "$limit" in stage:
            limit_argument(stage["$limit"])


def _details(code: int, message: str) -> dict[str, Any]:
    return rules.error_reply(code, message)
