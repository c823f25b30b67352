"""The compiled value operators of `embedded.expressions.compiler`: `$getField`, `$toString`,
`$mergeObjects`, `$max` and `$min`.

Each is compiled for the cases it answers exactly as a server does; anything else (a double or
a date to a string, an argument of a type the operator refuses) goes to mongomock-ng's parser,
as the other compiled operators do. `$max` and `$min` compare values of mixed types in BSON's
order of types (where mongomock-ng fails). `$getField` is the
server's, which mongomock-ng's is not: a computed field name (MongoDB 7.2+), a missing field
missing, a null or missing input null, and the server's errors for a name that is not a string
or an input that is not a document.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bson import ObjectId
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded.expressions.arithmetic import OperatorCompilers
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Evaluator

_new_parser = mongomock.new_parser
_bson_key = mongomock.bson_sort_key
_FIELD_NOT_A_STRING = 3041704
_INPUT_NOT_AN_OBJECT = 3041705
_COMPARED_ALIKE = frozenset({str, datetime})
_NUMBERS = frozenset({int, float, Int64})
# Types Python orders as BSON does, two values of one of them alike (NaN aside).
_PICKED_AS_THEY_ARE = frozenset({int, float, str, datetime})
_TYPE_NAMES = {
    str: "string", int: "int", Int64: "long", float: "double", bool: "bool", dict: "object",
    list: "array", type(None): "null", datetime: "date", ObjectId: "objectId",
    Decimal128: "decimal", type(NOTHING): "missing",
}  # fmt: skip
_NOT_OBJECTS = 40400


def _missing(value: Any) -> bool:
    return value is None or value is NOTHING


def _get_field_arguments(value: Any) -> dict[str, Any] | None:
    """`$getField`'s argument as `{field, input?}` (a plain name is its short form); None for a
    form left to mongomock-ng (a `$` name, other keys)."""
    if isinstance(value, str):
        if value.startswith("$"):
            return None
        value = {"field": {"$literal": value}}
    if not isinstance(value, dict) or not {"field"} <= set(value) <= {"field", "input"}:
        return None
    return value


def merge_into(merged: dict[str, Any], found: Any) -> None:
    """One input of `$mergeObjects` merged: null and missing add nothing, a document its
    fields; anything else is refused, as a server refuses it."""
    if _missing(found):
        return
    if type(found) is not dict:
        raise OperationFailure(
            f"$mergeObjects requires object inputs, but input {found!r} is of type "
            f"{type_name(found)}",
            _NOT_OBJECTS,
        )
    merged.update(found)


def _iso_utc(moment: datetime) -> str:
    """A date as a server's `$toString` writes it: UTC, milliseconds, "Z"."""
    if moment.tzinfo is not None:
        moment = moment.astimezone(UTC).replace(tzinfo=None)
    return moment.isoformat(timespec="milliseconds") + "Z"


def type_name(value: Any) -> str:
    """A value's type as a server's messages name it."""
    return _TYPE_NAMES.get(type(value), type(value).__name__)


def _number_order(value: Any) -> tuple[int, Any]:
    return (0, 0) if value != value else (1, value)  # NaN is BSON's least number


def extreme(values: list[Any], pick: Any) -> Any:
    """`pick` (max or min) of `values`, nulls and missing left out: by Python's order when
    all are of one type that it orders as BSON does (numbers by value, NaN least), else by
    BSON's order of types."""
    if len(values) == 2:  # the common form (`$max: [a, b]`): two values of one type, no NaN
        a, b = values
        kind = type(a)
        if kind is type(b) and kind in _PICKED_AS_THEY_ARE and a == a and b == b:
            return pick(a, b)  # the first of equals, as over the list
    present = [v for v in values if not _missing(v)]
    if not present:
        return None
    if all(type(v) in _NUMBERS for v in present):
        return pick(present, key=_number_order)
    kind = type(present[0])
    if kind in _COMPARED_ALIKE and all(type(v) is kind for v in present):
        return pick(present)
    return pick(present, key=_bson_key)


class ValueOperators(OperatorCompilers):
    """The `op_<name>` compilers of this module."""

    def op_getField(self, value: Any) -> Evaluator | None:
        value = _get_field_arguments(value)
        if value is None:
            return None
        field = self.closure(value["field"])
        source = self.closure(value.get("input", "$$CURRENT"))

        def get_field(doc: Any, env: dict[str, Any]) -> Any:
            name = field(doc, env)
            if type(name) is not str:
                raise OperationFailure(
                    "$getField requires 'field' to evaluate to type String, but got "
                    f"{type_name(name)}",
                    _FIELD_NOT_A_STRING,
                )
            found = source(doc, env)
            if _missing(found):
                return None
            if type(found) is not dict:
                raise OperationFailure(
                    "$getField requires 'input' to evaluate to type Object, but got "
                    f"{type_name(found)}",
                    _INPUT_NOT_AN_OBJECT,
                )
            return found.get(name, NOTHING)

        return get_field

    def op_toString(self, value: Any) -> Evaluator | None:
        if isinstance(value, list):
            if len(value) != 1:
                return None
            value = value[0]
        inner, fallback = self.closure(value), self.fallback({"$toString": value})

        def to_string(doc: Any, env: dict[str, Any]) -> Any:
            found = inner(doc, env)
            kind = type(found)
            if kind is ObjectId:
                return str(found)
            if kind is str:
                return found
            if _missing(found):
                return None
            if kind is bool:
                return "true" if found else "false"
            if kind is int:
                return str(found)
            if kind is datetime:
                return _iso_utc(found)
            return fallback(doc, env)  # a double has the server's own format

        return to_string

    def op_mergeObjects(self, value: Any) -> Evaluator | None:
        parts = [self.closure(x) for x in (value if isinstance(value, list) else [value])]

        def merge(doc: Any, env: dict[str, Any]) -> Any:
            merged: dict[str, Any] = {}
            for part in parts:
                merge_into(merged, part(doc, env))
            return merged

        return merge

    def _picked(self, value: Any, pick: Any) -> Evaluator:
        if isinstance(value, list) and len(value) == 1:
            value = value[0]  # one operand, as without the list: an array's elements compared
        if isinstance(value, list):
            parts = [self.closure(x) for x in value]
            return lambda doc, env: extreme([f(doc, env) for f in parts], pick)
        inner = self.closure(value)

        def of_one(doc: Any, env: dict[str, Any]) -> Any:
            found = inner(doc, env)  # one operand: an array's elements are compared
            return extreme(found if type(found) is list else [found], pick)

        return of_one

    def op_max(self, value: Any) -> Evaluator | None:
        return self._picked(value, max)

    def op_min(self, value: Any) -> Evaluator | None:
        return self._picked(value, min)
