"""`$range` (MongoDB 3.2+), which mongomock-ng lists but does not implement, with the server's
checks: numeric bounds and step, each representable as a 32-bit integer, a step not 0.

The store reads a time series document's entries by the keys of a run (`$range` of its first
and last entry): a range is a few numbers in the command, where its keys written out made the
largest series command five to fifteen times larger, 14 MB of a 16 MiB limit.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

from bson.decimal128 import Decimal128
from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded.expressions.value_expressions import type_name
from embedded.protocols import Parser

_WRONG_ARITY = 28667
_EXCEEDED_MEMORY_LIMIT = 146
_INT32 = range(-(2**31), 2**31)
_MEMORY_LIMIT = 64 * 1024 * 1024  # a server's bound on a range's values (16 bytes each)
# (check code when not a number, when not a 32-bit integer, what the message calls it)
_CHECKS = {
    "start": (34443, 34444, "starting value", "a starting value"),
    "end": (34445, 34446, "ending value", "an ending value"),
    "step": (34447, 34448, "step value", "a step value"),
}


def _whole(value: Any, role: str) -> int:
    not_numeric, not_integral, called, a_called = _CHECKS[role]
    if type(value) not in (int, float, Int64, Decimal128):
        space = "" if role == "step" else " "  # the server's messages, as they are
        raise OperationFailure(
            f"$range requires a numeric {called}, found value of type:{space}{type_name(value)}",
            not_numeric,
        )
    number = value.to_decimal() if isinstance(value, Decimal128) else value
    if not (isinstance(number, int) or _integral(number)) or int(number) not in _INT32:
        raise OperationFailure(
            f"$range requires {a_called} that can be represented as a 32-bit integer, "
            f"found value: {value}",
            not_integral,
        )
    return int(number)


def _integral(number: float | Decimal) -> bool:
    if not (number.is_finite() if isinstance(number, Decimal) else math.isfinite(number)):
        return False
    return bool(-(2**31) - 1 < number < 2**31 + 1) and number == int(number)


def range_of(parser: Parser, value: Any) -> list[int]:
    """`{$range: [start, end, step?]}` evaluated."""
    arguments = value if isinstance(value, list) else [value]
    if not 2 <= len(arguments) <= 3:
        raise OperationFailure(
            f"Expression $range takes at least 2 arguments, and at most 3, but {len(arguments)} "
            "were passed in.",
            _WRONG_ARITY,
        )
    start = _whole(parser.parse(arguments[0]), "start")
    end = _whole(parser.parse(arguments[1]), "end")
    step = _whole(parser.parse(arguments[2]), "step") if len(arguments) == 3 else 1
    if step == 0:
        raise OperationFailure("$range requires a non-zero step value", 34449)
    numbers = range(start, end, step)
    used = 24 + (1 + len(numbers)) * 16  # as the server counts an array of them
    if used >= _MEMORY_LIMIT:
        raise OperationFailure(
            f"$range would use too much memory ({used} bytes) and cannot spill to disk. "
            f"Memory limit: {_MEMORY_LIMIT} bytes",
            _EXCEEDED_MEMORY_LIMIT,
        )
    return list(numbers)
