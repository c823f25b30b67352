"""What a batch mutation counts in the cost for what it writes, besides what it answers.

An answer of one number (`accepted`, `orderCount`) let thirty aliases each write a whole batch
for a cost of some sixty units, far past bench/costliest.py's CPU target. So each item of a
batch counts: an event `UNITS_PER_EVENT` (the update it may be), an order its id and time and
its info by its bytes (one unit per COST_VALUE_BYTES, as an answer's texts count), an order id
deleted one unit, a trade `UNITS_PER_TRADE` (its check, its conversion and its place in a
bucket) and an observed value `UNITS_PER_OBSERVED_VALUE` (`resolvers/series_reads.py`: three
rollups). The resolvers write at most one document (a sensor, a user, a trade's bucket) per
event, order or trade, so the documents a call writes are at most the units it counts
(tests/sensors/test_event_writes_within_charge.py and its twins).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from resolvers.series_reads import observation_write_units
from settings import COST_VALUE_BYTES

UNITS_PER_EVENT = 25
UNITS_PER_ORDER = 2  # its id and its time; its info by its bytes besides
UNITS_PER_TRADE = 60


def _given(arguments: Mapping[str, Any], name: str) -> list[Any] | tuple[Any, ...]:
    given = arguments.get(name)
    return given if isinstance(given, list | tuple) else ()


def _info(order: Any) -> Any:
    # As coercion built it: an input object, or a mapping by the schema's names.
    return order.get("info") if isinstance(order, Mapping) else getattr(order, "info", None)


def _info_units(info: Any) -> int:
    if not isinstance(info, str) or not info:
        return 0
    size = len(info) if info.isascii() else len(info.encode("utf-8", "surrogatepass"))
    return math.ceil(size / COST_VALUE_BYTES)


def _orders_written(arguments: Mapping[str, Any]) -> int:
    orders = _given(arguments, "orders")
    return UNITS_PER_ORDER * len(orders) + sum(_info_units(_info(o)) for o in orders)


def _field_values(observation: Any) -> int:
    # As coercion built it: an input object, or a mapping by the schema's names.
    given = observation.get("fields") if isinstance(observation, Mapping) else None
    given = given or getattr(observation, "fields", None) or ()
    return len(given) if isinstance(given, list | tuple) else 0


def _observation_writes(arguments: Mapping[str, Any]) -> int:
    observations = arguments.get("observations") or ()
    return observation_write_units(_field_values(o) for o in observations)


def _per_item(name: str, units: int) -> Callable[[Mapping[str, Any]], int]:
    return lambda arguments: units * len(_given(arguments, name))


# By type and field: the units a mutation counts, each time it is answered, for its writes.
WRITE_UNITS: dict[tuple[str, str], Callable[[Mapping[str, Any]], int]] = {
    ("Mutation", "recordSensorEvents"): _per_item("events", UNITS_PER_EVENT),
    ("Mutation", "upsertOrders"): _orders_written,
    ("Mutation", "deleteOrders"): _per_item("orderIds", 1),
    ("Mutation", "recordTrades"): _per_item("trades", UNITS_PER_TRADE),
    ("Mutation", "recordObservations"): _observation_writes,
}
