"""What a field counts in the cost for what it reads, where that is more than it answers.

A `series` or a `seriesTotal` answers a few values, but reads its range cut into pieces, once
per tag set: its read units and the rollups they buy are `resolvers/series_reads.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from resolvers.series_reads import series_read_units, total_read_units


def _series_total_reads(arguments: Mapping[str, Any]) -> int:
    start, end = arguments.get("from"), arguments.get("to")
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return 0  # refused by the resolver: nothing is read
    return total_read_units(start, end)


# By type and field: the units a field counts, each time it is answered, for what it reads.
READ_UNITS: dict[tuple[str, str], Callable[[Mapping[str, Any]], int]] = {
    ("Query", "series"): lambda arguments: series_read_units(),
    ("Query", "seriesTotal"): _series_total_reads,
}
