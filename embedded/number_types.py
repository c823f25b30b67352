"""What a server's arithmetic operators accept, checked before mongomock-ng computes them.

mongomock-ng takes a bool for a number (Python's bool is an int) and reports an operand of any
other type with an `AssertionError`, a `TypeError` (`$add` of a date and a string) or an error
without a code; a server refuses each with its own code and message. The parser's arithmetic
handler is wrapped: the operands are evaluated once, checked in a server's order (the first
null or missing operand makes the result null before a later operand is looked at), and handed
on as literals. The compiled closures (`embedded.arithmetic`) come here only for what is not
two plain numbers, so the common case costs nothing more.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from typing import Any

from bson.decimal128 import Decimal128
from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded.mongomock_internals import NOTHING, Handler, Parser
from embedded.rules import TYPE_MISMATCH, error_reply
from embedded.value_expressions import type_name

_NUMERIC_TYPES = (int, float, Int64, Decimal128)
SINGLE_NUMERIC_ARGUMENT = 28765  # `$abs`, `$sqrt`, ... of a value that is not a number
_SINGLE_ARGUMENT = frozenset(
    {"$abs", "$ceil", "$floor", "$trunc", "$sqrt", "$exp", "$ln", "$log10"}
)

Check = Callable[[str, Sequence[Any]], None]


def _numeric(value: Any) -> bool:
    return type(value) is not bool and isinstance(value, _NUMERIC_TYPES)


def _nullish(value: Any) -> bool:
    return value is None or value is NOTHING


def _refused(message: str, code: int = TYPE_MISMATCH) -> OperationFailure:
    """The failure as PyMongo raises it from a server's reply."""
    return OperationFailure(message, code, error_reply(code, message))


def _check_sum_or_product(operator: str, operands: Sequence[Any]) -> None:
    """`$add` (numbers and one date) and `$multiply` (numbers), operand by operand."""
    for value in operands:
        if _nullish(value):
            return
        if _numeric(value) or (operator == "$add" and isinstance(value, datetime)):
            continue
        kinds = "numeric or date types" if operator == "$add" else "numeric types"
        raise _refused(f"{operator} only supports {kinds}, not {type_name(value)}")


def _check_subtract(operator: str, operands: Sequence[Any]) -> None:
    """`$subtract`: numbers, two dates, or a date less a number."""
    if len(operands) != 2 or any(_nullish(value) for value in operands):
        return  # the wrong count is mongomock-ng's to report
    left, right = operands
    if _numeric(right) and (_numeric(left) or isinstance(left, datetime)):
        return
    if isinstance(left, datetime) and isinstance(right, datetime):
        return
    raise _refused(f"can't {operator} {type_name(right)} from {type_name(left)}")


def _check_numbers(operator: str, operands: Sequence[Any]) -> None:
    """`$divide` and `$mod`: two numbers."""
    if len(operands) != 2 or any(_nullish(value) for value in operands):
        return
    if not all(_numeric(value) for value in operands):
        named = " and ".join(type_name(value) for value in operands)
        raise _refused(f"{operator} only supports numeric types, not {named}")


def _check_single(operator: str, operands: Sequence[Any]) -> None:
    """`$abs`, `$sqrt`, ...: one number (`$trunc` to a number of places is mongomock-ng's)."""
    if len(operands) != 1 or _nullish(operands[0]) or _numeric(operands[0]):
        return
    named = type_name(operands[0])
    raise _refused(f"{operator} only supports numeric types, not {named}", SINGLE_NUMERIC_ARGUMENT)


_CHECKS: dict[str, Check] = {
    "$add": _check_sum_or_product,
    "$multiply": _check_sum_or_product,
    "$subtract": _check_subtract,
    "$divide": _check_numbers,
    "$mod": _check_numbers,
    **{operator: _check_single for operator in _SINGLE_ARGUMENT},
}


def with_server_number_types(handle: Handler) -> Handler:
    """The arithmetic handler, refusing what a server refuses before mongomock-ng computes."""

    def handle_arithmetic_operator(parser: Parser, operator: str, values: Any) -> Any:
        check = _CHECKS.get(operator)
        if check is None:
            return handle(parser, operator, values)
        listed = isinstance(values, list)
        operands = [parser.parse(value) for value in (values if listed else [values])]
        check(operator, operands)
        # Missing is null to arithmetic; a literal cannot hold it.
        literals = [{"$literal": None if value is NOTHING else value} for value in operands]
        return handle(parser, operator, literals if listed else literals[0])

    return handle_arithmetic_operator
