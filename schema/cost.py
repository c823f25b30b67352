"""What a query may cost: how many values its answer can hold, known before anything runs.

Every list the schema answers declares its size in `LIST_SIZES`, keyed by type and field, from
its arguments or those of the field that returned its object (a connection's `edges` hold the
page its field asks for), at most what the resolver accepts. A field's count is the product of
the list sizes along its path, itself included (aliases apart; fragments spread and fields of
one response key merged as the executor collects them; over an interface, the costliest type);
the cost is the sum of the counts: every object, list item and scalar the answer can hold.
Introspection (`__schema`, `__type`) counts 1: its answer is bounded by the schema.

`CostLimit` runs once variables are coerced, as the executor is built
(`schema/strawberry_internals.py`): over `ARRAYGRAPH_MAX_COST`, the request is LIMIT_EXCEEDED,
naming the cost and the field of the highest count, and no resolver runs. The other bound, on
an encoded answer's bytes, is `schema/response_size.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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

from resolvers.series_reads import charged_points_of, charged_width
from schema.errors import RequestLimitExceeded
from schema.operation_fields import FieldGroup, OperationFields
from schema.value_sizes import VALUE_UNITS
from schema.work_costs import WORK_UNITS
from settings import (
    DEFAULT_PAGE_SIZE,
    MAX_FIELDS_PER_MEASUREMENT,
    MAX_MEASUREMENTS_PAGE,
    MAX_NODES_PER_QUERY,
    MAX_TAG_KEYS_PER_MEASUREMENT,
    MAX_TAG_VALUES_PAGE,
    MAX_TRADES_PER_CALL,
    MAX_USERS_PER_QUERY,
    SENSOR_WINDOW_HOURS,
    Settings,
)


class Sizing(NamedTuple):
    """A list's field's coerced arguments, those of the field that returned its object."""

    arguments: Mapping[str, Any]
    parent: Mapping[str, Any]
    settings: Settings


Size = Callable[[Sizing], int]


def _clamp(value: object, maximum: int) -> int:
    return max(0, min(value, maximum)) if isinstance(value, int) else 0


def _page(s: Sizing) -> int:
    first, last = s.parent.get("first"), s.parent.get("last")
    asked = first if first is not None else last if last is not None else DEFAULT_PAGE_SIZE
    return _clamp(asked, s.settings.max_page_size)


def _length(name: str, maximum: int, *, parent: bool = False) -> Size:
    return lambda s: _clamp(len((s.parent if parent else s.arguments).get(name) or ()), maximum)


def _fixed(count: int) -> Size:
    return lambda s: count


def _touched_sensors(s: Sizing) -> int:
    """The sensors a batch touches: each once, however many of its events name it."""
    events = s.parent.get("events") or ()
    ids = {getattr(event, "sensor_id", None) for event in events}  # as coercion built them
    return _clamp(len(ids), s.settings.max_batch_size)


LIST_SIZES: dict[tuple[str, str], Size] = {
    # Connections: `edges` hold the page their field asks for.
    ("SensorConnection", "edges"): _page,
    ("OrderConnection", "edges"): _page,
    ("TradeConnection", "edges"): _page,
    ("MessageConnection", "edges"): _page,
    ("ChatSessionConnection", "edges"): _page,
    # Id lists answer in the order asked, one entry per id, a repeated one each time.
    ("Query", "users"): _length("userIds", MAX_USERS_PER_QUERY),
    ("Query", "nodes"): _length("ids", MAX_NODES_PER_QUERY),
    # Batches: one entry per item, or per distinct sensor for the sensors a batch touched.
    ("RecordSensorEventsPayload", "rejected"): lambda s: _clamp(
        len(s.parent.get("events") or ()), s.settings.max_batch_size
    ),
    ("RecordSensorEventsPayload", "sensors"): _touched_sensors,
    ("RecordTradesPayload", "pageNumbers"): _length("trades", MAX_TRADES_PER_CALL, parent=True),
    ("TradePage", "trades"): lambda s: s.settings.trades_per_bucket,
    ("Sensor", "hourly"): _fixed(SENSOR_WINDOW_HOURS),
    # Time series and their catalogue.
    ("Query", "series"): lambda s: charged_points_of(s.arguments),
    ("SeriesPoint", "values"): lambda s: charged_width(s.parent),
    ("Query", "seriesTotal"): lambda s: charged_width(s.arguments),
    ("Query", "measurements"): lambda s: _clamp(s.arguments.get("first"), MAX_MEASUREMENTS_PAGE),
    ("Measurement", "fields"): _fixed(MAX_FIELDS_PER_MEASUREMENT),
    ("Measurement", "tagKeys"): _fixed(MAX_TAG_KEYS_PER_MEASUREMENT),
    ("Measurement", "tagValues"): lambda s: _clamp(s.arguments.get("first"), MAX_TAG_VALUES_PAGE),
}


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
    settings: Settings
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
        works = WORK_UNITS.get((parent_type.name, name))
        read = count * works(arguments) if works is not None else 0  # each time it is answered
        if is_list_type(get_nullable_type(definition.type)):
            size = LIST_SIZES.get((parent_type.name, name))
            if size is None:
                raise LookupError(f"{parent_type.name}.{name} declares no size in LIST_SIZES")
            count *= size(Sizing(arguments, parent, self.settings))
        count *= VALUE_UNITS.get((parent_type.name, name), 1)  # a long text: by its bytes
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


def operation_cost(fields: OperationFields, settings: Settings) -> Cost | None:
    """The cost of the operation; None when it has no root type (the executor says so)."""
    root = fields.root()
    if root is None:
        return None
    tally = _Tally(settings.max_cost)
    walk = _Walk(fields, settings, tally)
    try:
        total, complete = walk.selection(root[0], root[1], 1, {}, ""), True
    except _Over:
        total, complete = tally.visits, False
    return Cost(total, tally.most[0], tally.most[1], complete)


class CostLimit:
    """The schema's check: over `max_cost`, LIMIT_EXCEEDED, and nothing runs."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    def __call__(self, fields: OperationFields) -> GraphQLError | None:
        cost = operation_cost(fields, self.settings)
        limit = self.settings.max_cost
        if cost is None or cost.total <= limit:
            return None
        total = str(cost.total) if cost.complete else f"over {cost.total}"
        return RequestLimitExceeded(
            f"cost {total} exceeds ARRAYGRAPH_MAX_COST {limit} (most at {cost.path}: {cost.most})",
            extensions={"code": "LIMIT_EXCEEDED", "cost": cost.total, "maxCost": limit},
        )
