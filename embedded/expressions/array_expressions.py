"""The compiled array operators of `embedded.expressions.compiler`: `$filter`, `$map`, `$reduce`,
`$sum`, `$size`, `$concatArrays` and `$in`.

Each element is evaluated by the compiled closures with its variable (`as`, `this` by default)
bound in one scope, instead of a new mongomock-ng parser per element. The answers are a
server's: a null or missing input gives null; an input that is not an array fails with the
server's code; `$filter` keeps an element when its condition is true as a server reads truth
(so `""` and `[]` are true); `$map` gives null for an element whose value is missing; `$sum` of
one array adds its numbers, of a list of expressions adds those that are numbers (an array among
them is not one), booleans and strings are not numbers; `$reduce` binds `value` and `this`;
`$size` counts an array and refuses anything else, null and missing too (17124);
`$concatArrays` is null when an argument is null or missing, and refuses one that is not an
array (28664); `$in` compares as BSON does, and refuses a second argument that is not an array
(40081). A Decimal128, booleans or documents to find with `$in`, and malformed arguments, go to
mongomock-ng's parser.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bson import ObjectId
from bson.int64 import Int64
from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded.expressions.arithmetic import OperatorCompilers
from embedded.expressions.value_expressions import type_name
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Evaluator

_new_parser = mongomock.new_parser
_truth = mongomock.mongodb_to_bool
_ADDED = frozenset({int, float, Int64})
_IGNORED = frozenset({str, bool, dict, list, type(None), datetime, ObjectId, type(NOTHING)})
_NOT_AN_ARRAY = {"$filter": 28651, "$map": 16883, "$reduce": 40080}
# Values `$in` finds by Python equality, which is BSON's between them (a bool is not among
# them: True == 1 in Python, never in BSON; nor documents, whose fields' order BSON compares).
_FOUND_BY_EQUALITY = frozenset({str, int, float, datetime, ObjectId})


def has_arguments(value: Any, required: set[str], optional: set[str]) -> bool:
    return isinstance(value, dict) and required <= set(value) <= required | optional


def array_input(operator: str, items: Any) -> list[Any] | None:
    """The input of `$filter` or `$map`: None when null or missing; a server's error when it
    is not an array."""
    if items is None or items is NOTHING:
        return None
    if type(items) is not list:
        code = _NOT_AN_ARRAY[operator]
        raise OperationFailure(f"input to {operator} must be an array not {type_name(items)}", code)
    return items


def _total(values: list[Any]) -> Any:
    """The sum of the numbers among `values`; NOTHING when one needs mongomock-ng."""
    total: Any = 0
    for value in values:
        kind = type(value)
        if kind in _ADDED:
            total += value
        elif kind not in _IGNORED:
            return NOTHING  # a Decimal128, or a type of its own
    return total


class ArrayOperators(OperatorCompilers):
    """The `op_<name>` compilers of this module."""

    def op_filter(self, value: Any) -> Evaluator | None:
        if not has_arguments(value, {"input", "cond"}, {"as"}):
            return None
        name = value.get("as", "this")
        if not isinstance(name, str):
            return None
        source, cond = self.closure(value["input"]), self.closure(value["cond"])

        def run(doc: Any, env: dict[str, Any]) -> Any:
            items = array_input("$filter", source(doc, env))
            if items is None:
                return None
            scope, kept = dict(env), []
            for item in items:
                scope[name] = item
                test = cond(doc, scope)
                if test is True or (test is not False and _truth(test)):
                    kept.append(item)
            return kept

        return run

    def op_map(self, value: Any) -> Evaluator | None:
        if not has_arguments(value, {"input", "in"}, {"as"}):
            return None
        name = value.get("as", "this")
        if not isinstance(name, str):
            return None
        source, body = self.closure(value["input"]), self.closure(value["in"])

        def run(doc: Any, env: dict[str, Any]) -> Any:
            items = array_input("$map", source(doc, env))
            if items is None:
                return None
            scope, mapped = dict(env), []
            for item in items:
                scope[name] = item
                found = body(doc, scope)
                mapped.append(None if found is NOTHING else found)
            return mapped

        return run

    def op_reduce(self, value: Any) -> Evaluator | None:
        if not has_arguments(value, {"input", "initialValue", "in"}, set()):
            return None
        source, initial = self.closure(value["input"]), self.closure(value["initialValue"])
        body = self.closure(value["in"])

        def run(doc: Any, env: dict[str, Any]) -> Any:
            items = array_input("$reduce", source(doc, env))
            if items is None:
                return None
            scope = dict(env)
            accumulated = initial(doc, env)
            for item in items:
                scope["value"], scope["this"] = accumulated, item
                accumulated = body(doc, scope)
            return accumulated

        return run

    def op_size(self, value: Any) -> Evaluator | None:
        if isinstance(value, list):
            if len(value) != 1:
                return None  # mongomock-ng reports the argument count
            value = value[0]
        argument = self.closure(value)

        def size(doc: Any, env: dict[str, Any]) -> Any:
            found = argument(doc, env)
            if type(found) is not list:
                raise OperationFailure(
                    "The argument to $size must be an array. Type of argument is: "
                    f"{type_name(found)}",
                    17124,
                )
            return len(found)

        return size

    def op_concatArrays(self, value: Any) -> Evaluator | None:
        if not isinstance(value, list):
            return None
        parts = [self.closure(x) for x in value]

        def concat(doc: Any, env: dict[str, Any]) -> Any:
            joined: list[Any] = []
            for part in parts:
                found = part(doc, env)
                if found is None or found is NOTHING:
                    return None
                if type(found) is not list:
                    raise OperationFailure(
                        f"$concatArrays only supports arrays, not {type_name(found)}", 28664
                    )
                joined += found
            return joined

        return concat

    def op_in(self, value: Any) -> Evaluator | None:
        if not isinstance(value, list) or len(value) != 2:
            return None
        needle, haystack = (self.closure(x) for x in value)
        fallback = self.fallback({"$in": value})

        def found_in(doc: Any, env: dict[str, Any]) -> Any:
            wanted, items = needle(doc, env), haystack(doc, env)
            if type(items) is not list:
                raise OperationFailure(
                    f"$in requires an array as a second argument, found: {type_name(items)}",
                    40081,
                )
            if type(wanted) not in _FOUND_BY_EQUALITY:
                return fallback(doc, env)
            if wanted != wanted:
                return fallback(doc, env)  # NaN equals NaN in BSON
            for item in items:
                if type(item) is bool:
                    return fallback(doc, env)
                if item == wanted:
                    return True
            return False

        return found_in

    def op_sum(self, value: Any) -> Evaluator | None:
        if isinstance(value, dict) and len(value) != 1:
            return None  # malformed: mongomock-ng says how
        interpret = self.interpret
        if isinstance(value, list):
            parts = [self.closure(x) for x in value]

            def each(doc: Any, env: dict[str, Any]) -> Any:
                values = [f(doc, env) for f in parts]
                total = _total(values)
                if total is NOTHING:
                    literals = [{"$literal": v} for v in values]
                    return interpret(_new_parser(doc, env), {"$sum": literals})
                return total

            return each
        inner = self.closure(value)

        def one(doc: Any, env: dict[str, Any]) -> Any:
            found = inner(doc, env)
            total = _total(found if type(found) is list else [found])
            if total is NOTHING:
                return interpret(_new_parser(doc, env), {"$sum": {"$literal": found}})
            return total

        return one
