"""The compiled `$setField`, `$unsetField` and `$rand` of `embedded.expressions.compiler`, which
mongomock-ng lacks, as MongoDB 8.0 defines them.

`$setField` names its field literally (a dotted name or a `$`-prefixed one is one field, at the
top of its input): the name must be a constant string, a field path being refused with the
server's hint to wrap it in `$literal`. A null or missing input gives null, any other non-object
an error; a missing value (`$$REMOVE`) removes the field; the result is a new document, the field
kept in its place or added last. `$unsetField` is `$setField` with the value `$$REMOVE`. `$rand`
takes no argument and gives a double in [0, 1).
"""

from __future__ import annotations

import random
from typing import Any

from pymongo.errors import OperationFailure

from embedded.expressions.arithmetic import OperatorCompilers
from embedded.expressions.value_expressions import type_name
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Evaluator

_NOT_AN_OBJECT = 4161100
_UNKNOWN_ARGUMENT = 4161101
_REQUIRED = {"field": 4161102, "value": 4161103, "input": 4161104}
_INPUT_NOT_AN_OBJECT = 4161105
_NOT_CONSTANT = 4161106
_NOT_A_STRING = 4161107
_A_FIELD_PATH = 4161108
_RAND_ARGUMENTS = 3040501


def _arguments(operator: str, value: Any, required: tuple[str, ...]) -> dict[str, Any]:
    if not isinstance(value, dict):
        message = f"{operator} only supports an object as its argument"
        raise OperationFailure(message, _NOT_AN_OBJECT)
    for name in value:
        if name not in required:
            message = f"{operator} found an unknown argument: {name}"
            raise OperationFailure(message, _UNKNOWN_ARGUMENT)
    for name in required:
        if name not in value:
            raise OperationFailure(f"{operator} requires '{name}' to be specified", _REQUIRED[name])
    return value


def _is_constant(e: Any) -> bool:
    """Whether `e` reads no field and no variable (its value is known before any document)."""
    if isinstance(e, str):
        return not e.startswith("$")
    if isinstance(e, list):
        return all(_is_constant(x) for x in e)
    if isinstance(e, dict):
        if set(e) == {"$literal"}:
            return True
        return all(_is_constant(v) for v in e.values())
    return True


class FieldOperators(OperatorCompilers):
    """The `op_<name>` compilers of this module."""

    def _field_name(self, operator: str, field: Any) -> str:
        """The constant field name of `$setField`, refused as a server refuses it."""
        if isinstance(field, str) and field.startswith("$"):
            raise OperationFailure(
                f"'{field}' is a field path reference which is not allowed in this context. "
                f"Did you mean {{$literal: '{field}'}}?",
                _A_FIELD_PATH,
            )
        if not _is_constant(field):
            raise OperationFailure(
                f"{operator} requires 'field' to evaluate to a constant, but got a non-constant "
                "argument",
                _NOT_CONSTANT,
            )
        name = self.closure(field)({}, {})
        if type(name) is not str:
            raise OperationFailure(
                f"{operator} requires 'field' to evaluate to type String, but got "
                f"{type_name(name)}",
                _NOT_A_STRING,
            )
        return name

    def _set_field(self, operator: str, value: Any, *, unset: bool) -> Evaluator:
        required = ("field", "input") if unset else ("field", "input", "value")
        arguments = _arguments(operator, value, required)
        name = self._field_name(operator, arguments["field"])
        source = self.closure(arguments["input"])
        new_value = self.closure("$$REMOVE" if unset else arguments["value"])

        def set_field(doc: Any, env: dict[str, Any]) -> Any:
            found = source(doc, env)
            if found is None or found is NOTHING:
                return None
            if type(found) is not dict:
                raise OperationFailure(
                    f"{operator} requires 'input' to evaluate to type Object",
                    _INPUT_NOT_AN_OBJECT,
                )
            out = dict(found)
            given = new_value(doc, env)
            if given is NOTHING:
                out.pop(name, None)
            else:
                out[name] = given
            return out

        return set_field

    def op_setField(self, value: Any) -> Evaluator:
        return self._set_field("$setField", value, unset=False)

    def op_unsetField(self, value: Any) -> Evaluator:
        return self._set_field("$unsetField", value, unset=True)

    def op_rand(self, value: Any) -> Evaluator:
        if value != {}:
            raise OperationFailure("$rand does not currently accept arguments", _RAND_ARGUMENTS)
        return lambda doc, env: random.random()
