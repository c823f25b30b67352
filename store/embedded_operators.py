"""Aggregation operators MongoDB 8.0 has and mongomock-ng lacks, added to the embedded engine.

Only what arraygraph's store uses: `$sortArray` (MongoDB 5.2+), with the server's semantics;
and `$not` given its argument in the array form `{$not: [expr]}`, which mongomock-ng evaluates as
the truth of the list itself (always false) where a server evaluates `expr`.

Two speed-ups keep the semantics: `$in` against an array of strings, integers or ObjectIds is a
set lookup instead of mongomock-ng's scan with BSON equality (an order upsert tests 10,000 ids
against up to 500); and expressions are compiled once into closures (`embedded_compiler`), with
mongomock-ng's parser, finding each operator's handler in one dictionary lookup, as fallback.
"""

from __future__ import annotations

from typing import Any

from bson import ObjectId
from mongomock_ng import aggregate as mongomock_aggregate
from mongomock_ng import filtering as mongomock_filtering
from pymongo.errors import OperationFailure

from store.embedded_compiler import evaluator

_Parser: Any = mongomock_aggregate._Parser
_sort_stage: Any = mongomock_aggregate._handle_sort_stage
_BsonComparable: Any = mongomock_filtering.BsonComparable
_operator_eq: Any = mongomock_filtering.operator_eq


def _sort_array(parser: Any, value: Any) -> Any:
    if not isinstance(value, dict) or set(value) != {"input", "sortBy"}:
        raise OperationFailure("$sortArray takes exactly 'input' and 'sortBy'")
    items = parser.parse(value["input"])
    if items is None:
        return None
    if not isinstance(items, list):
        raise OperationFailure("The input argument to $sortArray must be an array")
    sort_by = value["sortBy"]
    if isinstance(sort_by, dict):
        return list(_sort_stage(items, None, sort_by, None))
    if sort_by not in (1, -1):
        raise OperationFailure("$sortArray sortBy must be 1, -1 or a sort document")
    return sorted(items, key=_BsonComparable, reverse=sort_by == -1)


# Types whose Python equality and hash agree with BSON equality (bool is excluded: 1 == True).
_HASHABLE_EXACT = (str, int, ObjectId)
_in_sets: dict[int, tuple[list[Any], frozenset[Any] | None]] = {}


def _exact(value: Any) -> bool:
    return isinstance(value, _HASHABLE_EXACT) and not isinstance(value, bool)


def _fast_in(parser: Any, values: Any) -> Any:
    """`$in` by set lookup when every value compares exactly; None to fall back."""
    expression, array = values
    items = parser.parse(array)
    if not isinstance(items, list):
        return None
    cached = _in_sets.get(id(items))
    if cached is None or cached[0] is not items:
        members = frozenset(items) if all(_exact(v) for v in items) else None
        if len(_in_sets) > 64:
            _in_sets.clear()
        cached = _in_sets[id(items)] = (items, members)
    members = cached[1]
    if members is None:
        return None
    value = parser.parse(expression)
    if not _exact(value):
        return None
    return value in members


def _in_with_bools(parser: Any, values: Any) -> Any:
    """`$in` where booleans take part: BSON never equates true with 1 (mongomock-ng does)."""
    expression, array = values
    items, value = parser.parse(array), parser.parse(expression)
    if not isinstance(items, list):
        return None
    if isinstance(value, bool):
        return any(isinstance(item, bool) and item == value for item in items)
    if any(isinstance(item, bool) for item in items):
        return any(_operator_eq(value, item) for item in items if not isinstance(item, bool))
    return None


# mongomock-ng's operator lists, in the order its parser tries them, and their handlers.
_CATEGORIES = (
    ("arithmetic_operators", "_handle_arithmetic_operator"),
    ("project_operators", "_handle_project_operator"),
    ("projection_operators", "_handle_projection_operator"),
    ("comparison_operators", "_handle_comparison_operator"),
    ("date_operators", "_handle_date_operator"),
    ("array_operators", "_handle_array_operator"),
    ("conditional_operators", "_handle_conditional_operator"),
    ("control_flow_operators", "_handle_control_flow_operator"),
    ("set_operators", "_handle_set_operator"),
    ("string_operators", "_handle_string_operator"),
    ("type_convertion_operators", "_handle_type_convertion_operator"),
    ("type_operators", "_handle_type_operator"),
    ("boolean_operators", "_handle_boolean_operator"),
    ("object_operators", "_handle_object_operator"),
    ("field_operators", "_handle_field_operator"),
    ("custom_operators", "_handle_custom_operator"),
)


def _install_dispatch() -> None:
    handlers: dict[str, str] = {}
    for names, handler in _CATEGORIES:
        for name in getattr(mongomock_aggregate, names):
            handlers.setdefault(name, handler)
    original = _Parser.parse
    nothing = getattr(mongomock_aggregate, "NOTHING")  # noqa: B009 (not exported)

    def interpret(self: Any, expression: Any) -> Any:
        """mongomock-ng's parser, finding an operator's handler in one lookup."""
        if not isinstance(expression, dict):
            return original(self, expression)
        if len(expression) > 1:
            return original(self, expression)  # its own checks and error messages
        for key, value in expression.items():
            handler = handlers.get(key)
            if handler is not None:
                return getattr(self, handler)(key, value)
            if key.startswith("$"):
                return original(self, expression)  # unknown or unsupported: its own error
            parsed = self.parse(value)
            return {} if parsed is nothing else {key: parsed}
        return {}

    def parse(self: Any, expression: Any) -> Any:
        if isinstance(expression, dict):
            return evaluator(expression, interpret)(self._doc_dict, self._user_vars)
        return original(self, expression)

    _Parser.parse = parse


def install() -> None:
    """Teach the engine's expression parser the operators above (idempotent)."""
    if "$sortArray" in mongomock_aggregate.array_operators:
        return
    mongomock_aggregate.array_operators.append("$sortArray")
    handle = _Parser._handle_array_operator

    def handle_array_operator(self: Any, operator: str, value: Any) -> Any:
        if operator == "$sortArray":
            return _sort_array(self, value)
        return handle(self, operator, value)

    _Parser._handle_array_operator = handle_array_operator
    handle_boolean = _Parser._handle_boolean_operator

    def handle_boolean_operator(self: Any, operator: str, values: Any) -> Any:
        if operator == "$not" and isinstance(values, list):
            if len(values) != 1:
                raise OperationFailure("Expression $not takes exactly 1 argument")
            values = values[0]
        return handle_boolean(self, operator, values)

    _Parser._handle_boolean_operator = handle_boolean_operator
    handle_set = _Parser._handle_set_operator

    def handle_set_operator(self: Any, operator: str, values: Any) -> Any:
        if operator == "$in" and isinstance(values, list) and len(values) == 2:
            found = _fast_in(self, values)
            if found is None:
                found = _in_with_bools(self, values)
            if found is not None:
                return found
        return handle_set(self, operator, values)

    _Parser._handle_set_operator = handle_set_operator
    _install_dispatch()
