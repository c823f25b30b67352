"""The compiled arithmetic operators of `embedded.expressions.compiler`, with a server's number
types.

On a server `$divide` always gives a double, and `$floor`, `$ceil` and `$trunc` give a double for
a double and an integer unchanged; Python's `/` agrees, its `math.floor` does not (it gives an int
for a float), and neither does mongomock-ng, which uses it. Cases the closures do not cover
exactly (a datetime, a Decimal128, a malformed argument) go to mongomock-ng's parser.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded.protocols import Evaluator, Parser
from embedded.rules import BAD_VALUE

Interpret = Callable[[Parser, Any], Any]  # (mongomock-ng parser, expression) -> value

_new_parser = mongomock.new_parser
NUMBERS = frozenset({int, float})  # by exact type: bool is not a number to a server

# The server's codes and messages for a double that is no 32-bit integer where one is needed.
ARRAY_ELEM_AT_INDEX = (
    28691,
    "$arrayElemAt's second argument must be representable as a 32-bit integer",
)
SLICE_ARGUMENTS = (
    (28726, "Second argument to $slice can't be represented as a 32-bit integer"),
    (28728, "Third argument to $slice can't be represented as a 32-bit integer"),
)
_INT32 = range(-(2**31), 2**31)


def as_index(value: Any, error: tuple[int, str]) -> Any:
    """An integral double as the integer a server reads it as, where it needs an int32 (an array
    index, a `$slice` bound: `$floor` of a `$divide` gives one); any other value unchanged."""
    if type(value) is not float:
        return value
    if not value.is_integer() or int(value) not in _INT32:
        code, message = error
        raise OperationFailure(f"{message}: {value}", code)
    return int(value)


class OperatorCompilers:
    """What each family of `op_<name>` compilers uses of `embedded.expressions.compiler._Compiler`,
    which provides it: the parser's `interpret`, `closure` of a sub-expression, and `fallback`, an
    expression left to mongomock-ng."""

    interpret: Interpret

    def closure(self, e: Any) -> Evaluator:
        raise NotImplementedError

    def fallback(self, expression: Any) -> Evaluator:
        raise NotImplementedError


class Arithmetic(OperatorCompilers):
    """The arithmetic `op_<name>` compilers."""

    def _binary(
        self, operator: str, value: Any, native: Callable[[Any, Any], Any]
    ) -> Evaluator | None:
        if not isinstance(value, list) or len(value) != 2:
            return None
        left, right = (self.closure(x) for x in value)
        interpret = self.interpret

        def run(doc: Any, env: dict[str, Any]) -> Any:
            a, b = left(doc, env), right(doc, env)
            if type(a) in NUMBERS and type(b) in NUMBERS:
                return native(a, b)
            literals = [{"$literal": a}, {"$literal": b}]
            return interpret(_new_parser(doc, env), {operator: literals})

        return run

    def op_add(self, value: Any) -> Evaluator | None:
        return self._binary("$add", value, operator.add)  # n-ary sums: mongomock-ng

    def op_subtract(self, value: Any) -> Evaluator | None:
        return self._binary("$subtract", value, operator.sub)

    def op_divide(self, value: Any) -> Evaluator | None:
        return self._binary("$divide", value, _divide)

    def _rounding(
        self, operator: str, value: Any, rounding: Callable[[float], int]
    ) -> Evaluator | None:
        """`$floor`, `$ceil`, `$trunc`: a server gives a double for a double, as the argument
        came (Python's `math.floor` gives an int), and an integer unchanged."""
        if isinstance(value, list):
            if len(value) != 1:
                return None
            value = value[0]  # the array form of a one-argument expression
        inner = self.closure(value)
        interpret = self.interpret

        def run(doc: Any, env: dict[str, Any]) -> Any:
            number = inner(doc, env)
            if type(number) is float:
                return float(rounding(number)) if math.isfinite(number) else number
            if isinstance(number, int) and not isinstance(number, bool):
                return number  # an int, or an Int64 that stays one
            return interpret(_new_parser(doc, env), {operator: {"$literal": number}})

        return run

    def op_floor(self, value: Any) -> Evaluator | None:
        return self._rounding("$floor", value, math.floor)

    def op_ceil(self, value: Any) -> Evaluator | None:
        return self._rounding("$ceil", value, math.ceil)

    def op_trunc(self, value: Any) -> Evaluator | None:
        if isinstance(value, list) and len(value) == 2:
            return None  # $trunc to a number of places: mongomock-ng
        return self._rounding("$trunc", value, math.trunc)


def _divide(a: float, b: float) -> float:
    """`$divide` of two numbers: always a double on a server (Python's `/` of ints is one too)."""
    if b == 0:
        raise OperationFailure("can't $divide by zero", BAD_VALUE)
    return float(a / b)
