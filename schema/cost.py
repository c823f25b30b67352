"""The size of each list the schema answers, for the cost walk (`runtime/limits/cost.py`).

Every list field declares its size in `LIST_SIZES`, keyed by type and field, from its arguments
or those of the field that returned its object (a connection's `edges` hold the page its field
asks for), at most what the resolver accepts. `schema/field_facts.py` answers the walk from it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from resolvers.series_reads import charged_points_of, charged_width
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
