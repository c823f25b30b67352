"""Arithmetic as a server computes it, where mongomock-ng does not.

mongomock-ng takes a bool for a number (Python's bool is an int), reports an operand of any other
type with an `AssertionError`, a `TypeError` or an error without a code, and gets dates wrong:
`$add` of a number then a date gives the number, two dates give the first, a fraction of a
millisecond is kept; `$mod` of two ints gives a double. The parser's arithmetic handler is
wrapped: the operands are evaluated once and taken in a server's order (the first null or
missing operand makes the result null, an operand of the wrong type before it fails the
expression); what mongomock-ng gets right is handed on as literals. The compiled closures
(`embedded.expressions.arithmetic`) come here only for what is not two plain numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from decimal import ROUND_HALF_EVEN
from typing import Any, Final

from bson.decimal128 import Decimal128
from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded.expressions.value_expressions import type_name
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Handler, Parser
from embedded.rules import BAD_VALUE, OVERFLOW, TYPE_MISMATCH, error_reply

_NUMERIC_TYPES = (int, float, Int64, Decimal128)
_PLAIN = frozenset({int, float, Int64})  # computed here; a Decimal128 is mongomock-ng's
SINGLE_NUMERIC_ARGUMENT = 28765  # `$abs`, `$sqrt`, ... of a value that is no number
ONE_DATE_IN_ADD = 16612
MOD_BY_ZERO, MOD_BY_DECIMAL_ZERO = 16610, 5733415
MOD_OF_NO_NUMBER = 16611
ROUNDED_NO_NUMBER = 51081  # `$round` and `$trunc`
# Two arguments, each refused with its own code: (operator, position) -> code, and its name.
_SECOND_ARGUMENT_CODES = {
    ("$pow", 0): (28762, "$pow's base"),
    ("$pow", 1): (28763, "$pow's exponent"),
    ("$log", 0): (28756, "$log's argument"),
    ("$log", 1): (28757, "$log's base"),
}
_SINGLE_ARGUMENT = frozenset({"$abs", "$ceil", "$floor", "$sqrt", "$exp", "$ln", "$log10"})
_ONE_MILLISECOND = timedelta(milliseconds=1)
_INT64_SPAN = 2.0**63


class _Delegated:
    """The operands are for mongomock-ng to compute."""


DELEGATED: Final = _Delegated()
Computed = Callable[[str, Sequence[Any]], Any]  # (operator, operands) -> value or DELEGATED


def _numeric(value: Any) -> bool:
    return type(value) is not bool and isinstance(value, _NUMERIC_TYPES)


def _plain(operands: Sequence[Any]) -> bool:
    return all(type(value) in _PLAIN for value in operands)


def _nullish(value: Any) -> bool:
    return value is None or value is NOTHING


def _is_zero(value: Any) -> bool:
    return bool(value.to_decimal() == 0) if type(value) is Decimal128 else bool(value == 0)


def _refused(message: str, code: int = TYPE_MISMATCH) -> OperationFailure:
    """The failure as PyMongo raises it from a server's reply."""
    return OperationFailure(message, code, error_reply(code, message))


def _rounded(milliseconds: int | float) -> int:
    """Milliseconds to move a date by, as a server's `llround` gives them (half away from
    zero); a double no 64-bit integer holds (NaN, infinite) is the server's date overflow."""
    if type(milliseconds) is not float:
        return int(milliseconds)
    if not -_INT64_SPAN <= milliseconds < _INT64_SPAN:  # NaN fails both
        raise _refused("date overflow", OVERFLOW)
    size = abs(milliseconds)
    whole = int(size)
    whole += size - whole >= 0.5  # not `int(size + 0.5)`: 0.49999999999999994 + 0.5 is 1
    return whole if milliseconds >= 0 else -whole


def _whole_decimal(value: Decimal128) -> int:
    """A Decimal128 as milliseconds to move a date by (the server's `toLong`: ties to even)."""
    try:
        return int(value.to_decimal().to_integral_value(ROUND_HALF_EVEN))
    except (ValueError, ArithmeticError):  # NaN, infinite
        raise _refused("date overflow", OVERFLOW) from None


def _moved(date: datetime, milliseconds: int) -> datetime:
    try:
        return date + timedelta(milliseconds=milliseconds)
    except OverflowError:
        raise _refused("date overflow", OVERFLOW) from None


def _add(operator: str, operands: Sequence[Any]) -> Any:
    """`$add`: numbers and at most one date. From the date on, the sum is whole milliseconds:
    what came before it is rounded as one number, each later double on its own (the server's
    `AddState::addToDateValue`)."""
    date: datetime | None = None
    total: int | float = 0
    dated = any(isinstance(value, datetime) for value in operands)
    for value in operands:
        if _nullish(value):
            return None
        if isinstance(value, datetime):
            if date is not None:
                raise _refused("only one date allowed in an $add expression", ONE_DATE_IN_ADD)
            date, total = value, _rounded(total)
        elif not _numeric(value):
            raise _refused(f"$add only supports numeric or date types, not {type_name(value)}")
        elif type(value) is Decimal128:
            if not dated:
                return DELEGATED
            total += _whole_decimal(value)
        else:
            total += value if date is None else _rounded(value)
    return total if date is None else _moved(date, int(total))


def _multiply(operator: str, operands: Sequence[Any]) -> Any:
    for value in operands:
        if _nullish(value):
            return None
        if not _numeric(value):
            raise _refused(f"$multiply only supports numeric types, not {type_name(value)}")
    return math.prod(operands) if _plain(operands) else DELEGATED


def _subtract(operator: str, operands: Sequence[Any]) -> Any:
    """`$subtract`: numbers, two dates (a long of milliseconds), or a date less milliseconds
    (a double rounded by `llround`, as the server's `evaluateSubtract`)."""
    if len(operands) != 2:
        return DELEGATED  # mongomock-ng reports the count
    left, right = operands
    if _nullish(left) or _nullish(right):
        return None
    if _numeric(left) and _numeric(right):
        return left - right if _plain(operands) else DELEGATED
    if isinstance(left, datetime):
        if isinstance(right, datetime):
            return Int64((left - right) // _ONE_MILLISECOND)
        if not _numeric(right):
            raise _refused(f"can't $subtract {type_name(right)} from Date")
        if type(right) is Decimal128:
            return _moved(left, -_whole_decimal(right))
        return _moved(left, -_rounded(right))
    raise _refused(f"can't $subtract {type_name(right)} from {type_name(left)}")


def _two_numbers(operator: str, operands: Sequence[Any], code: int = TYPE_MISMATCH) -> bool:
    """Whether `$divide` or `$mod` has two numbers to compute (False: null), or fails."""
    if len(operands) != 2 or any(_nullish(value) for value in operands):
        return False
    if not all(_numeric(value) for value in operands):
        named = " and ".join(type_name(value) for value in operands)
        raise _refused(f"{operator} only supports numeric types, not {named}", code)
    return True


def _divide(operator: str, operands: Sequence[Any]) -> Any:
    if not _two_numbers(operator, operands):
        return None if len(operands) == 2 else DELEGATED
    dividend, divisor = operands
    if _is_zero(divisor):
        raise _refused("can't $divide by zero", BAD_VALUE)
    return dividend / divisor if _plain(operands) else DELEGATED


def _mod(operator: str, operands: Sequence[Any]) -> Any:
    """`$mod`: the remainder takes the dividend's sign; of two integers, an integer."""
    if not _two_numbers(operator, operands, MOD_OF_NO_NUMBER):
        return None if len(operands) == 2 else DELEGATED
    dividend, divisor = operands
    if _is_zero(divisor):
        decimal = Decimal128 in (type(dividend), type(divisor))
        raise _refused("can't $mod by zero", MOD_BY_DECIMAL_ZERO if decimal else MOD_BY_ZERO)
    if not _plain(operands):
        return DELEGATED
    if not (isinstance(dividend, int) and isinstance(divisor, int)):
        return math.fmod(dividend, divisor)  # doubles: C's fmod, as a server's
    remainder = abs(dividend) % abs(divisor)
    remainder = remainder if dividend >= 0 else -remainder
    return Int64(remainder) if Int64 in (type(dividend), type(divisor)) else remainder


def _each_numeric(operator: str, operands: Sequence[Any]) -> Any:
    """`$pow` and `$log`: two numbers, each refused with its own code."""
    if len(operands) != 2:
        return DELEGATED  # mongomock-ng reports the count
    if any(_nullish(value) for value in operands):
        return None
    for position, value in enumerate(operands):
        if not _numeric(value):
            code, name = _SECOND_ARGUMENT_CODES[(operator, position)]
            raise _refused(f"{name} must be numeric, not {type_name(value)}", code)
    return DELEGATED


def _single(operator: str, operands: Sequence[Any]) -> Any:
    """`$abs`, `$sqrt`, ...: one number."""
    if len(operands) != 1 or _numeric(operands[0]):
        return DELEGATED
    if _nullish(operands[0]):
        return None
    named = type_name(operands[0])
    raise _refused(f"{operator} only supports numeric types, not {named}", SINGLE_NUMERIC_ARGUMENT)


def _rounding(operator: str, operands: Sequence[Any]) -> Any:
    """`$round` and `$trunc`: a number first (its places, if any, are mongomock-ng's)."""
    if not operands or _numeric(operands[0]):
        return DELEGATED
    if _nullish(operands[0]):
        return None
    named = type_name(operands[0])
    raise _refused(f"{operator} only supports numeric types, not {named}", ROUNDED_NO_NUMBER)


_COMPUTED: dict[str, Computed] = {
    "$add": _add,
    "$multiply": _multiply,
    "$subtract": _subtract,
    "$divide": _divide,
    "$mod": _mod,
    "$pow": _each_numeric,
    "$log": _each_numeric,
    "$round": _rounding,
    "$trunc": _rounding,
    **{operator: _single for operator in _SINGLE_ARGUMENT},
}


def with_server_number_types(handle: Handler) -> Handler:
    """The arithmetic handler, computing (or refusing) as a server does where mongomock-ng
    does not."""

    def handle_arithmetic_operator(parser: Parser, operator: str, values: Any) -> Any:
        computed = _COMPUTED.get(operator)
        if computed is None:
            return handle(parser, operator, values)
        listed = isinstance(values, list)
        operands = [parser.parse(value) for value in (values if listed else [values])]
        result = computed(operator, operands)
        if result is not DELEGATED:
            return result
        # Missing is null to arithmetic; a literal cannot hold it.
        literals = [{"$literal": None if value is NOTHING else value} for value in operands]
        return handle(parser, operator, literals if listed else literals[0])

    return handle_arithmetic_operator
