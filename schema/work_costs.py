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
    series_work_units,
    total_read_units,
)
from schema.write_costs import WRITE_UNITS


def _series_total_reads(arguments: Mapping[str, Any]) -> int:
    start, end = arguments.get("from"), arguments.get("to")
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return 0  # refused by the resolver: nothing is read
    return total_read_units(start, end)


# By type and field: the units a field counts, each time it is answered, for its work: what
# it reads, and what a batch mutation writes (schema/write_costs.py).
WORK_UNITS: dict[tuple[str, str], Callable[[Mapping[str, Any]], int]] = {
    ("Query", "series"): series_work_units,
    ("Query", "seriesTotal"): _series_total_reads,
    **WRITE_UNITS,
}
