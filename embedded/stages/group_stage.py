"""`$group` by a hash of each document's key, its accumulators fed by compiled expressions.

mongomock-ng sorts every document by its key, compared as BSON in Python, to group neighbours,
and reads each accumulator's expression through its parser: for a 10,000-minute series (30,000
documents into 20,000 groups) that was nine tenths of its 2 s. Here a key is made hashable as
BSON compares it (1 and 1.0 one key, true and 1 two, fields in their order, every NaN one),
and the groups come out ordered by their keys (`bson_order.order_key`), as mongomock-ng orders
them (a server promises no order), each `_id` the key of its first document. The accumulators
answer as a server's: `$sum` and `$avg` of numbers only, doubles added compensated;
`$min`/`$max` leaving out nulls, by BSON's order of types; `$first`/`$last` a missing value as
null; `$addToSet` by BSON equality. `_id: null` makes one group of every document, and none
of no document. With another accumulator, the stage is mongomock-ng's, given this `$addToSet`.

mongomock-ng's pipeline runner is one for the whole process: `install()` changes it for every
user of mongomock-ng, so it runs when the first `EmbeddedEngine` is created, never on import.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from bson import Decimal128, Int64
from pymongo.errors import OperationFailure

from embedded import mongomock_internals as mongomock
from embedded.bson_order import hash_key, order_key
from embedded.expressions import operators
from embedded.expressions.value_expressions import extreme
from embedded.protocols import Document, Stage
from embedded.stages.stage_hooks import install_stage

_ACCUMULATORS = frozenset(
    {"$push", "$addToSet", "$count", "$sum", "$avg", "$min", "$max", "$first", "$last"}
)
_POSITIONAL = frozenset({"$first", "$last"})  # these take a document's missing value as null
_Key = tuple[Any, ...]


def _plan(spec: Any) -> tuple[Any, list[tuple[str, str, Any]]] | None:
    """The `_id` expression and the accumulators (field, operator, expression) of a spec of
    the form handled here; None for any other."""
    if not isinstance(spec, Mapping):
        return None
    if "_id" not in spec:
        raise OperationFailure("a group specification must include an _id", 15955)
    fields = []
    for name, accumulator in spec.items():
        if name == "_id":
            continue
        if not isinstance(accumulator, Mapping) or len(accumulator) != 1:
            return None
        [(operator, expression)] = accumulator.items()
        if operator not in _ACCUMULATORS or not isinstance(name, str) or "." in name:
            return None
        fields.append((name, operator, expression))
    return spec["_id"], fields


def _sum(values: list[Any]) -> Any:
    """`$sum` as a server adds: numbers only (not arrays, not booleans), integers exactly (past
    64 bits a double), doubles compensated, so that the order of the values does not change
    the double (mongomock-ng adds in order: 0.3 + 0.2 + 0.1 is 0.6000000000000001, a server's
    0.6); with a Decimal128, mongomock-ng's."""
    whole, doubles, long = 0, [], False
    for value in values:
        kind = type(value)
        if kind is int or kind is Int64:
            whole += value
            long = long or kind is Int64
        elif kind is float:
            doubles.append(value)
        elif kind is Decimal128:
            numbers = [v for v in values if type(v) in (int, Int64, float, Decimal128)]
            return mongomock.group_accumulators["$sum"](numbers)
    if doubles:
        try:
            return math.fsum([*doubles, whole])
        except (OverflowError, ValueError):  # past a double's range, or inf - inf: as a server,
            return sum(doubles, float(whole))  # infinity or NaN
    if not -(2**63) <= whole < 2**63:
        return float(whole)
    return Int64(whole) if long else whole  # a long stays a long


def _distinct(values: list[Any]) -> list[Any]:
    """`$addToSet`: each value once, as BSON compares them (1, 1.0 and `Decimal128("1")` one
    value, 1 and true two, `{a, b}` and `{b, a}` two documents), in the order first seen."""
    seen: set[Any] = set()
    distinct: list[Any] = []
    for value in values:
        key = hash_key(value)
        if key not in seen:
            seen.add(key)
            distinct.append(value)
    return distinct


def _average(values: list[Any]) -> Any:
    """`$avg`: of the numbers (not booleans), a double; null when there is none. With a
    Decimal128, mongomock-ng's."""
    if any(type(value) is Decimal128 for value in values):
        return mongomock.group_accumulators["$avg"](values)
    numbers = [value for value in values if type(value) in (int, float, Int64)]
    return _sum(numbers) / len(numbers) if numbers else None


def _accumulated(operator: str, values: list[Any], documents: int) -> Any:
    if operator == "$sum":
        return _sum(values)
    if operator == "$avg":
        return _average(values)
    if operator in ("$min", "$max"):  # nulls and missing left out, BSON's order of types
        return extreme(values, min if operator == "$min" else max)
    if operator in ("$first", "$last"):  # a missing value is null here
        return (values[0] if operator == "$first" else values[-1]) if values else None
    if operator == "$push":
        return values
    if operator == "$count":
        return documents
    return _distinct(values)  # $addToSet


def _hashed(original: Stage) -> Stage:
    def group(documents: Any, database: Any, spec: Any, variables: Any) -> Any:
        plan = _plan(spec)
        documents = list(documents)
        if plan is None:
            return original(documents, database, spec, variables)
        scope = variables or {}
        key_of = operators.compiled(plan[0])
        fields = [(name, op, operators.compiled(e)) for name, op, e in plan[1]]
        groups: dict[_Key, tuple[Any, list[list[Any]], list[int]]] = {}
        for doc in documents:
            value = key_of(doc, scope)
            key = order_key(value)
            found = groups.get(key)
            if found is None:
                kept = None if value is mongomock.NOTHING else value
                found = groups[key] = (kept, [[] for _ in fields], [0])
            found[2][0] += 1
            for values, (_, op, evaluate) in zip(found[1], fields, strict=True):
                item = evaluate(doc, scope)
                if item is not mongomock.NOTHING:
                    values.append(item)
                elif op in _POSITIONAL:
                    values.append(None)
        out: list[Document] = []
        for key in sorted(groups):
            value, values, count = groups[key]
            doc = {"_id": value}
            for (name, op, _), collected in zip(fields, values, strict=True):
                doc[name] = _accumulated(op, collected, count[0])
            out.append(doc)
        return out

    return group


def install() -> None:
    """Run every pipeline's `$group` as above (idempotent)."""
    install_stage("$group", _hashed)
    # mongomock-ng's own stage (another accumulator) takes `$addToSet` from its table first
    mongomock.group_accumulators["$addToSet"] = _distinct
