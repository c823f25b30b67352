"""What a field counts in the cost for the work it does, where that is more than it answers.

A `series` or a `seriesTotal` answers a few values, but reads its range cut into pieces, once
per tag set, and a series builds every point's stats whatever it selects; a
`recordObservations` answers one number, but converts, checks and writes every field value it
is given into three rollups. Their units, and the rollups a read's units buy,
are `resolvers/series_reads.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from resolvers.series_reads import (
    observation_write_units,
    series_work_units,
    total_read_units,
)


def _series_total_reads(arguments: Mapping[str, Any]) -> int:
    start, end = arguments.get("from"), arguments.get("to")
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return 0  # refused by the resolver: nothing is read
    return total_read_units(start, end)


def _field_values(observation: Any) -> int:
    # As coercion built it: an input object, or a mapping by the schema's names.
    given = observation.get("fields") if isinstance(observation, Mapping) else None
    given = given or getattr(observation, "fields", None) or ()
    return len(given) if isinstance(given, list | tuple) else 0


def _observation_writes(arguments: Mapping[str, Any]) -> int:
    observations = arguments.get("observations") or ()
    return observation_write_units(_field_values(o) for o in observations)


# By type and field: the units a field counts, each time it is answered, for its work.
WORK_UNITS: dict[tuple[str, str], Callable[[Mapping[str, Any]], int]] = {
    ("Query", "series"): series_work_units,
    ("Query", "seriesTotal"): _series_total_reads,
    ("Mutation", "recordObservations"): _observation_writes,
}
