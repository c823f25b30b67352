"""What a query may cost: how many values its answer can hold, known before anything runs.

Every list the schema answers declares its size (`FieldFacts.list_size`), from its arguments or
those of the field that returned its object (a connection's `edges` hold the page its field
asks for), at most what the resolver accepts. A field's count is the product of the list sizes
along its path, itself included (aliases apart; fragments spread and fields of one response key
merged as the executor collects them; over an interface, the costliest type), times the units
each of its values counts (a long text: by its bytes); the cost is the sum of the counts, and
of the units of the work a field does besides (`FieldFacts.work_units`): every object, list
item and scalar the answer can hold. Introspection (`__schema`, `__type`) counts 1: its answer
is bounded by the schema.

`CostLimit` runs once variables are coerced, as the executor is built
(`runtime/execution/executor.py`): over `max_cost`, the request is LIMIT_EXCEEDED, naming the
cost and the field of the highest count, and no resolver runs. The other bound, on an encoded
answer's bytes, is `runtime/request/response_size.py`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from graphql import (
    GraphQLError,
    GraphQLObjectType,
    get_named_type,
    get_nullable_type,
    is_abstract_type,
    is_list_type,
    is_object_type,
)

from runtime.errors import RequestLimitExceeded
from runtime.limits.field_facts import FieldFacts
from runtime.limits.operation_fields import FieldGroup, OperationFields


@dataclass(slots=True)
class _Tally:
    """The cost so far, and the field of the highest count (first in document order)."""

    limit: int
    visits: int = 0  # fields of a count of 1 or more: the cost is at least this
    most: tuple[int, str] = (0, "")

    def saw(self, count: int, path: str) -> None:
        self.visits += count > 0
        if count > self.most[0]:
            self.most = (count, path)
        if self.visits > self.limit:
            raise _Over


class _Over(Exception):
    """The walk visited more fields than the limit: the cost is over it, whatever the rest."""


@dataclass(frozen=True, slots=True)
class _Walk:
    fields: OperationFields
    facts: FieldFacts
    tally: _Tally

    def selection(
        self,
        parent_type: GraphQLObjectType,
        groups: Mapping[str, FieldGroup],
        count: int,
        parent: Mapping[str, Any],
        path: str,
    ) -> int:
        """The cost of `groups` selected on `count` objects of `parent_type`."""
        return sum(
            self.field(parent_type, group, count, parent, f"{path}{key}")
            for key, group in groups.items()
        )

    def field(
        self,
        parent_type: GraphQLObjectType,
        group: FieldGroup,
        count: int,
        parent: Mapping[str, Any],
        path: str,
    ) -> int:
        name = self.fields.node(group).name.value
        definition = parent_type.fields.get(name)
        if definition is None:  # __typename, __schema, __type: bounded by the schema
            self.tally.saw(count, path)
            return count
        arguments = self.fields.arguments(definition, group)
        works = self.facts.work_units(parent_type, name)
        read = count * works(arguments) if works is not None else 0  # each time it is answered
        if is_list_type(get_nullable_type(definition.type)):
            size = self.facts.list_size(parent_type, name)
            if size is None:
                raise LookupError(f"{parent_type.name}.{name} declares no list size")
            count *= size(arguments, parent)
        count *= self.facts.value_units(parent_type, name)  # a long text: by its bytes
        self.tally.saw(count + read, path)
        named = get_named_type(definition.type)
        if count == 0 or not (is_object_type(named) or is_abstract_type(named)):
            return count + read
        types = self.fields.possible_types(named)
        return count + read + self._costliest(types, group, count, arguments, f"{path}.")

    def _costliest(
        self,
        types: Sequence[GraphQLObjectType],
        group: FieldGroup,
        count: int,
        parent: Mapping[str, Any],
        path: str,
    ) -> int:
        """The cost of the selection on the costliest type the objects may be (one, but for
        an interface); the visits kept are those of the branch that visited most."""
        tally, before = self.tally, self.tally.visits
        best = seen = 0
        for runtime_type in types:
            tally.visits = before
            children = self.fields.children(runtime_type, group)
            best = max(best, self.selection(runtime_type, children, count, parent, path))
            seen = max(seen, tally.visits - before)
        tally.visits = before + seen
        return best


class Cost(NamedTuple):
    total: int
    most: int
    path: str
    complete: bool  # False: the walk stopped at the limit, and `total` is a lower bound


def operation_cost(fields: OperationFields, facts: FieldFacts, limit: int) -> Cost | None:
    """The cost of the operation, walked until past `limit`; None when it has no root type
    (the executor says so)."""
    root = fields.root()
    if root is None:
        return None
    tally = _Tally(limit)
    walk = _Walk(fields, facts, tally)
    try:
        total, complete = walk.selection(root[0], root[1], 1, {}, ""), True
    except _Over:
        total, complete = tally.visits, False
    return Cost(total, tally.most[0], tally.most[1], complete)


class CostLimit:
    """The schema's check: over `max_cost`, LIMIT_EXCEEDED, and nothing runs; within it, the
    cost, which the caller's budget is charged (`Charge`)."""

    def __init__(self, facts: FieldFacts, max_cost: int) -> None:
        self.facts = facts
        self.max_cost = max_cost

    def __call__(self, fields: OperationFields) -> GraphQLError | int | None:
        limit = self.max_cost
        cost = operation_cost(fields, self.facts, limit)
        if cost is None:
            return None
        if cost.total <= limit:
            return cost.total
        total = str(cost.total) if cost.complete else f"over {cost.total}"
        return RequestLimitExceeded(
            f"cost {total} exceeds ARRAYGRAPH_MAX_COST {limit} (most at {cost.path}: {cost.most})",
            extensions={"code": "LIMIT_EXCEEDED", "cost": cost.total, "maxCost": limit},
        )
