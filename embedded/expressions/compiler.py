"""Aggregation expressions of the embedded engine, compiled once into Python closures.

mongomock-ng interprets an expression again for every document and every array element it is
applied to. Here each expression object is compiled once (cached by identity, so a pipeline that
is built once and reused is compiled once) into closures with mongomock-ng's semantics, operator
by operator. Operators not listed below, and every case the closures do not cover exactly (a
datetime in `$add`, a malformed argument), go to mongomock-ng's own parser, so its behaviour and
its errors stay the reference. The arithmetic operators, which follow a server's number types
where mongomock-ng does not, are in `embedded.expressions.arithmetic`. No source is written: an
expression is a tree of closures, each made by the `op_<name>` of its operator.
"""

from __future__ import annotations

from typing import Any

from embedded import mongomock_internals as mongomock
from embedded.expressions.arithmetic import (
    ARRAY_ELEM_AT_INDEX,
    SLICE_ARGUMENTS,
    Arithmetic,
    Interpret,
    as_index,
)
from embedded.expressions.array_expressions import ArrayOperators
from embedded.expressions.comparisons import equal, ordering
from embedded.expressions.field_expressions import FieldOperators
from embedded.expressions.literals import literal
from embedded.expressions.paths import document_field, variable
from embedded.expressions.value_expressions import ValueOperators
from embedded.mongomock_internals import NOTHING
from embedded.protocols import Evaluator

_new_parser = mongomock.new_parser
_truth = mongomock.mongodb_to_bool

_cache: dict[int, tuple[Any, Evaluator]] = {}
_CACHE_LIMIT = 4096


def evaluator(expression: Any, interpret: Interpret) -> Evaluator:
    """The compiled form of `expression`, a closure; `interpret(parser, expression)` is the
    fallback for what the closures do not cover."""
    hit = _cache.get(id(expression))
    if hit is not None and hit[0] is expression:
        return hit[1]
    compiled = _Compiler(interpret).closure(expression)
    if len(_cache) >= _CACHE_LIMIT:
        _cache.clear()
    _cache[id(expression)] = (expression, compiled)  # holding it keeps the id unique
    return compiled


def compiled_operators() -> frozenset[str]:
    """The operators compiled here (some of which mongomock-ng's parser does not know)."""
    return frozenset("$" + name[3:] for name in dir(_Compiler) if name.startswith("op_"))


def _present(value: Any) -> Any:
    """An array element whose expression is missing is null, as a server builds the array."""
    return None if value is NOTHING else value


class _Compiler(Arithmetic, ArrayOperators, ValueOperators, FieldOperators):
    def __init__(self, interpret: Interpret) -> None:
        self.interpret = interpret

    def fallback(self, expression: Any) -> Evaluator:
        interpret = self.interpret
        return lambda doc, env: interpret(_new_parser(doc, env), expression)

    def closure(self, e: Any) -> Evaluator:
        if isinstance(e, list):
            items = [self.closure(x) for x in e]
            return lambda doc, env: [_present(f(doc, env)) for f in items]
        if isinstance(e, str) and e.startswith("$$"):
            name, _, path = e[2:].partition(".")
            return variable(name, path)
        if isinstance(e, str) and e.startswith("$"):
            return document_field(e[1:])
        if not isinstance(e, dict):
            return lambda doc, env: e
        if len(e) != 1:
            if any(key.startswith("$") for key in e):
                return self.fallback(e)  # mongomock-ng reports the error
            return self.compile_object(e)
        [(key, value)] = e.items()
        if not key.startswith("$"):
            return self.compile_object(e)
        compile_operator = getattr(self, "op_" + key[1:], None)
        compiled = compile_operator(value) if compile_operator else None
        return compiled if compiled is not None else self.fallback(e)

    def compile_object(self, e: dict[str, Any]) -> Evaluator:
        fields = [(k, self.closure(v)) for k, v in e.items()]

        def build(doc: Any, env: dict[str, Any]) -> Any:
            out = {}
            for key, f in fields:
                value = f(doc, env)
                if value is not NOTHING:
                    out[key] = value
            return out

        return build

    def op_literal(self, value: Any) -> Evaluator:
        return literal(value)

    def op_let(self, value: Any) -> Evaluator | None:
        if not isinstance(value, dict) or set(value) != {"vars", "in"}:
            return None
        if not isinstance(value["vars"], dict):
            return None
        variables = [(k, self.closure(v)) for k, v in value["vars"].items()]
        body = self.closure(value["in"])

        def let(doc: Any, env: dict[str, Any]) -> Any:
            scope = env.copy()
            for name, f in variables:
                scope[name] = f(doc, env)  # each from the outer scope, as a server does
            return body(doc, scope)

        return let

    def op_cond(self, value: Any) -> Evaluator | None:
        if isinstance(value, list) and len(value) == 3:
            parts = value
        elif isinstance(value, dict) and set(value) == {"if", "then", "else"}:
            parts = [value["if"], value["then"], value["else"]]
        else:
            return None
        condition, then, otherwise = (self.closure(x) for x in parts)

        def cond(doc: Any, env: dict[str, Any]) -> Any:
            test = condition(doc, env)
            # mongodb_to_bool, with the common boolean answered without a list scan.
            true = test if test is True or test is False else _truth(test)
            return then(doc, env) if true else otherwise(doc, env)

        return cond

    def op_ifNull(self, value: Any) -> Evaluator | None:
        if not isinstance(value, list) or len(value) < 2:
            return None
        *tried, fallback = [self.closure(x) for x in value]

        def if_null(doc: Any, env: dict[str, Any]) -> Any:
            for f in tried:
                found = f(doc, env)
                if found is not None and found is not NOTHING:
                    return found
            return fallback(doc, env)

        return if_null

    def op_and(self, value: Any) -> Evaluator | None:
        if not isinstance(value, list):
            return None
        parts = [self.closure(x) for x in value]
        return lambda doc, env: all(_truth(f(doc, env)) for f in parts)

    def op_or(self, value: Any) -> Evaluator | None:
        if not isinstance(value, list):
            return None
        parts = [self.closure(x) for x in value]
        return lambda doc, env: any(_truth(f(doc, env)) for f in parts)

    def op_not(self, value: Any) -> Evaluator | None:
        if isinstance(value, list):
            if len(value) != 1:
                return None
            value = value[0]  # the array form, read as a server reads it
        inner = self.closure(value)
        return lambda doc, env: not _truth(inner(doc, env))

    def _equality(self, value: Any, *, negate: bool) -> Evaluator | None:
        if not isinstance(value, list) or len(value) != 2:
            return None
        left, right = (self.closure(x) for x in value)
        if negate:
            return lambda doc, env: not equal(left(doc, env), right(doc, env))
        return lambda doc, env: equal(left(doc, env), right(doc, env))

    def op_eq(self, value: Any) -> Evaluator | None:
        return self._equality(value, negate=False)

    def op_ne(self, value: Any) -> Evaluator | None:
        return self._equality(value, negate=True)

    def _order(self, name: str, value: Any) -> Evaluator | None:
        if not isinstance(value, list) or len(value) != 2:
            return None
        left, right = (self.closure(x) for x in value)
        compare = ordering(name)
        return lambda doc, env: compare(left(doc, env), right(doc, env))

    def op_lt(self, value: Any) -> Evaluator | None:
        return self._order("$lt", value)

    def op_lte(self, value: Any) -> Evaluator | None:
        return self._order("$lte", value)

    def op_gt(self, value: Any) -> Evaluator | None:
        return self._order("$gt", value)

    def op_gte(self, value: Any) -> Evaluator | None:
        return self._order("$gte", value)

    def op_arrayElemAt(self, value: Any) -> Evaluator | None:
        if not isinstance(value, list) or len(value) != 2:
            return None
        array, index = (self.closure(x) for x in value)

        def element(doc: Any, env: dict[str, Any]) -> Any:
            items, position = array(doc, env), index(doc, env)
            if items is NOTHING or position is NOTHING:
                return None
            position = as_index(position, ARRAY_ELEM_AT_INDEX)
            try:
                return items[position]
            except IndexError:
                return NOTHING

        return element

    def op_slice(self, value: Any) -> Evaluator | None:
        """`$slice` of an array by integers (integral doubles taken as integers, as a server
        takes them); any other case goes to mongomock-ng, which reports its errors."""
        if not isinstance(value, list) or len(value) not in (2, 3):
            return None
        parts = [self.closure(x) for x in value]
        interpret = self.interpret

        def run(doc: Any, env: dict[str, Any]) -> Any:
            array, *numbers = (f(doc, env) for f in parts)
            codes = SLICE_ARGUMENTS[: len(numbers)]
            numbers = [as_index(n, code) for n, code in zip(numbers, codes, strict=True)]
            if type(array) is list and all(type(n) is int for n in numbers):
                if len(numbers) == 1:
                    [n] = numbers
                    return array[:n] if n >= 0 else array[n:]
                position, n = numbers
                if n > 0:
                    start = position if position >= 0 else max(len(array) + position, 0)
                    return array[start : start + n]
            literals = [{"$literal": v} for v in (array, *numbers)]
            return interpret(_new_parser(doc, env), {"$slice": literals})

        return run
