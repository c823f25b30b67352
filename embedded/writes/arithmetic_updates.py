"""`$inc`, `$mul`, `$min` and `$max` as a server applies them, for both update paths.

`$inc` and `$mul` keep a server's number types: the result has the wider type of the two (int32
< int64 < double < decimal), an int32 result past 32 bits becomes an int64, an int64 past 64 bits
fails the write (BadValue, "Failed to apply $inc operations to current value ..."), and `$mul`
of a missing field stores a zero of the multiplier's type. A non-number on either side fails
with a server's TypeMismatch. `$min` and `$max` compare in BSON's order (`embedded.bson_order`):
across types (null below numbers below strings...), NaN below every number, and an equal value
changes nothing.

`fast_updates` applies these directly (`new_value`); mongomock-ng's update code applies them
through `UPDATERS` (positional paths, arrays), which `embedded.planner.query_operators.install`
puts in its table. `document_id` names the document a failure reports: the engine's copy that
mongomock-ng updates is filed under a stand-in `_id`.
"""

from __future__ import annotations

import contextvars
import decimal
import operator
from collections.abc import Callable, MutableMapping
from typing import Any, Final

from bson.decimal128 import Decimal128, create_decimal128_context
from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded import bson_order, rules

MISSING: Final = object()
_INT32, _INT64, _DOUBLE, _DECIMAL = 1, 2, 3, 4
_INT32_LOW, _INT32_HIGH = -(2**31), 2**31 - 1
_DECIMAL_CONTEXT = create_decimal128_context()
_DOUBLE_TO_DECIMAL = decimal.Context(prec=15)  # a server converts a double to 15 digits
_VERBS = {"$inc": "increment", "$mul": "multiply"}
_ARITHMETIC: dict[str, Callable[[Any, Any], Any]] = {"$inc": operator.add, "$mul": operator.mul}
# The `_id` of the document being updated, for the messages of failures.
document_id: contextvars.ContextVar[Any] = contextvars.ContextVar("document_id", default=None)


def _width(value: Any) -> int | None:
    kind = type(value)
    if kind is int:
        return _INT32 if -(2**31) <= value < 2**31 else _INT64
    if kind is Int64:
        return _INT64
    if kind is float:
        return _DOUBLE
    if kind is Decimal128:
        return _DECIMAL
    return None


def _decimal(value: Any) -> decimal.Decimal:
    if isinstance(value, Decimal128):
        return value.to_decimal()
    if isinstance(value, float):
        return _DOUBLE_TO_DECIMAL.create_decimal_from_float(value)
    return decimal.Decimal(value)


def _shell_number(value: Any) -> str:
    names = {_INT32: "NumberInt", _INT64: "NumberLong", _DOUBLE: "NumberDouble"}
    return f"({names.get(_width(value) or 0, 'NumberDecimal')}){value}"


def _overflow(current: Any) -> OperationFailure:
    return OperationFailure(
        f"Failed to apply $inc operations to current value ({_shell_number(current)}) for"
        f" document {{_id: {rules.shell_value(document_id.get())}}}",
        rules.BAD_VALUE,
    )


def arithmetic(name: str, current: Any, by: Any) -> Any:
    """`current` `$inc`'d or `$mul`'d by `by` (both numbers), in a server's number type."""
    width = max(_width(current) or 0, _width(by) or 0)
    if width == _DECIMAL:
        with decimal.localcontext(_DECIMAL_CONTEXT):
            return Decimal128(_ARITHMETIC[name](_decimal(current), _decimal(by)))
    if width == _DOUBLE:
        return float(_ARITHMETIC[name](float(current), float(by)))
    result = _ARITHMETIC[name](int(current), int(by))
    if -(2**31) <= result < 2**31 and width == _INT32:
        return result
    if -(2**63) <= result < 2**63:
        return Int64(result)
    raise _overflow(current)


def _check_argument(name: str, field: str, by: Any) -> None:
    if _width(by) is None:
        raise OperationFailure(
            f"Cannot {_VERBS[name]} with non-numeric argument: "
            f"{{{field}: {rules.shell_value(by)}}}",
            rules.TYPE_MISMATCH,
        )


def new_value(name: str, field: str, current: Any, value: Any) -> Any:
    """The value `$inc`, `$mul`, `$min` or `$max` of `value` gives the field `field` holding
    `current` (`MISSING` when it has none)."""
    kind = type(current)
    if name == "$inc" and kind is type(value):  # the commonest: no type to change
        if kind is float:
            return current + value
        if kind is int:
            result = current + value
            low, high = _INT32_LOW, _INT32_HIGH
            if low <= result <= high and low <= current <= high and low <= value <= high:
                return result
    if name in ("$min", "$max"):
        if current is MISSING:
            return value
        wanted = operator.lt if name == "$min" else operator.gt
        return value if bson_order.compare(wanted, value, current) else current
    _check_argument(name, field, value)
    if current is MISSING:
        return value if name == "$inc" else arithmetic(name, 0, value)
    if _width(current) is None:
        raise OperationFailure(
            f"Cannot apply {name} to a value of non-numeric type. {{_id:"
            f" {rules.shell_value(document_id.get())}}} has the field '{field}' of non-numeric type"
            f" {bson_order.type_name(current)}",
            rules.TYPE_MISMATCH,
        )
    return arithmetic(name, current, value)


def _updater(name: str) -> Callable[..., None]:
    def update(doc: Any, field: str, value: Any, codec_options: Any = None) -> None:
        """mongomock-ng's updater: `doc` (a subdocument or an array) holds `field`."""
        if isinstance(doc, MutableMapping):
            doc[field] = new_value(name, field, doc.get(field, MISSING), value)
            return
        if isinstance(doc, list):
            index = int(field)
            if index < 0:
                raise OperationFailure("Negative index provided", rules.BAD_VALUE)
            current = doc[index] if index < len(doc) else MISSING
            doc.extend([None] * (index + 1 - len(doc)))
            doc[index] = new_value(name, field, current, value)

    return update


UPDATERS = {name: _updater(name) for name in ("$inc", "$mul", "$min", "$max")}
