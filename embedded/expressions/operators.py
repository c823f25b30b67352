"""Aggregation operators MongoDB 8.0 has and mongomock-ng lacks, added to the engine's parser.

Only what arraygraph's store uses: `$sortArray` (MongoDB 5.2+) and `$range`
(`embedded.expressions.range_operator`), with the server's semantics;
and `$not` given its argument in the array form `{$not: [expr]}`, which mongomock-ng evaluates as
the truth of the list itself (always false) where a server evaluates `expr`.

Two speed-ups keep the semantics: `$in` against an array of strings, integers or ObjectIds is a set
lookup instead of mongomock-ng's scan with BSON equality (an order upsert tests 10,000 ids against
up to 500); and expressions are compiled once into closures (`embedded.expressions.compiler`), with
mongomock-ng's parser, finding each operator's handler in one dictionary lookup, as fallback.

mongomock-ng's parser is one class for the whole process: `install()` changes it for every user
of mongomock-ng, so it runs when the first `EmbeddedEngine` is created, never on import.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

from bson import ObjectId
from pymongo.errors import OperationFailure

from embedded import bson_order, rules
from embedded import mongomock_internals as mongomock
from embedded.expressions.compiler import compiled_operators, evaluator
from embedded.expressions.number_types import with_server_number_types
from embedded.expressions.range_operator import range_of
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Evaluator, Handler, Parser
from embedded.stages.sort_stage import sorted_documents


def _sort_array(parser: Parser, value: Any) -> Any:
    if not isinstance(value, dict) or set(value) != {"input", "sortBy"}:
        raise OperationFailure("$sortArray takes exactly 'input' and 'sortBy'")
    items = parser.parse(value["input"])
    if items is None:
        return None
    if not isinstance(items, list):
        raise OperationFailure("The input argument to $sortArray must be an array")
    sort_by = value["sortBy"]
    if isinstance(sort_by, dict) and sort_by and all(d in (1, -1) for d in sort_by.values()):
        # as `$sort` sorts: an array field by its least (greatest) element, in BSON's order
        return sorted_documents(items, list(sort_by.items()))
    if sort_by not in (1, -1):
        raise OperationFailure("$sortArray sortBy must be 1, -1 or a sort document")
    return sorted(items, key=bson_order.order_key, reverse=sort_by == -1)


# Types whose Python equality and hash agree with BSON equality (bool is excluded: 1 == True).
_HASHABLE_EXACT = (str, int, ObjectId)
_in_sets: dict[int, tuple[list[Any], frozenset[Any] | None]] = {}


def _exact(value: Any) -> bool:
    return isinstance(value, _HASHABLE_EXACT) and not isinstance(value, bool)


def _fast_in(parser: Parser, values: Any) -> Any:
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


def _in_with_bools(parser: Parser, values: Any) -> Any:
    """`$in` where booleans take part: BSON never equates true with 1 (mongomock-ng does)."""
    expression, array = values
    items, value = parser.parse(array), parser.parse(expression)
    if not isinstance(items, list):
        return None
    if isinstance(value, bool):
        return any(isinstance(item, bool) and item == value for item in items)
    if any(isinstance(item, bool) for item in items):
        return any(bson_order.equal(value, item) for item in items if not isinstance(item, bool))
    return None


def _with_sort_array(handle: Handler) -> Handler:
    def handle_array_operator(parser: Parser, operator: str, value: Any) -> Any:
        if operator == "$sortArray":
            return _sort_array(parser, value)
        if operator == "$range":
            return range_of(parser, value)
        return handle(parser, operator, value)

    return handle_array_operator


def _with_not_of_an_array(handle: Handler) -> Handler:
    def handle_boolean_operator(parser: Parser, operator: str, values: Any) -> Any:
        if operator == "$not" and isinstance(values, list):
            if len(values) != 1:
                raise OperationFailure("Expression $not takes exactly 1 argument")
            values = values[0]
        return handle(parser, operator, values)

    return handle_boolean_operator


def _with_fast_in(handle: Handler) -> Handler:
    def handle_set_operator(parser: Parser, operator: str, values: Any) -> Any:
        if operator == "$in" and isinstance(values, list) and len(values) == 2:
            found = _fast_in(parser, values)
            if found is None:
                found = _in_with_bools(parser, values)
            if found is not None:
                return found
        return handle(parser, operator, values)

    return handle_set_operator


_compiled: functools.partial[Evaluator] | None = None
_known: frozenset[str] = frozenset()


def known(operator: str) -> bool:
    """Whether `operator` is an expression operator the engine evaluates (or `$meta`, which
    mongomock-ng's `$project` reads)."""
    return operator in _known or operator == "$meta"


def _unknown(parser: Parser, expression: Any, original: Callable[[Parser, Any], Any]) -> Any:
    """mongomock-ng's parse of an operator it has no handler for, with a server's error: 168
    for an unknown one (mongomock-ng gives none), 238 for one it knows and does not run."""
    try:
        return original(parser, expression)
    except NotImplementedError as exc:
        raise rules.unsupported("the expression operator", str(next(iter(expression)))) from exc
    except OperationFailure as exc:
        if exc.code is not None:
            raise
        raise OperationFailure(str(exc), rules.INVALID_PIPELINE_OPERATOR) from None


def compiled(expression: Any) -> Evaluator:
    """`expression` compiled (once per expression object), with the parser as fallback."""
    assert _compiled is not None, "operators.install() runs first (EmbeddedEngine does)"
    return _compiled(expression)


def _install_dispatch() -> None:
    global _compiled, _known
    handlers = mongomock.operator_handlers()
    _known = frozenset(handlers) | compiled_operators()
    original = mongomock.parser_parse()

    def interpret(parser: Parser, expression: Any) -> Any:
        """mongomock-ng's parser, finding an operator's handler in one lookup."""
        if not isinstance(expression, dict):
            return original(parser, expression)
        if len(expression) > 1:
            return original(parser, expression)  # its own checks and error messages
        for key, value in expression.items():
            handler = handlers.get(key)
            if handler is not None:
                return handler(parser, key, value)
            if key.startswith("$"):
                return _unknown(parser, expression, original)
            parsed = parser.parse(value)
            return {} if parsed is NOTHING else {key: parsed}
        return {}

    _compiled = functools.partial(evaluator, interpret=interpret)
    mongomock.route_documents_to(_compiled)


_install_lock = threading.Lock()


def install() -> None:
    """Teach mongomock-ng's expression parser the operators above (idempotent)."""
    with _install_lock:
        if mongomock.has_operator("array", "$sortArray"):
            return
        mongomock.add_operator("array", "$sortArray")
        mongomock.wrap_handler("array", _with_sort_array)
        mongomock.wrap_handler("boolean", _with_not_of_an_array)
        mongomock.wrap_handler("set", _with_fast_in)
        mongomock.wrap_handler("arithmetic", with_server_number_types)
        _install_dispatch()
