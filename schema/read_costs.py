"""What a field counts in the cost for the documents it reads, where that is more than it
answers.

A `seriesTotal` answers a few values, but reads a rollup document for each whole month of its
range, and for each day, hour and minute at its ends (`store/series_query.py` cuts it so): over
1900 to 3000, some 13,400 documents; thirty of them aliased held the embedded engine for 8 s,
for a 3 KB query of a cost of 150. It counts one unit per document its range can name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

# The most days, hours and minutes a range's two ends are cut into besides its whole months.
PARTIAL_PIECES = 2 * (31 + 24 + 60)


def _series_total_reads(arguments: Mapping[str, Any]) -> int:
    start, end = arguments.get("from"), arguments.get("to")
    if not isinstance(start, datetime) or not isinstance(end, datetime) or end <= start:
        return 0  # refused by the resolver: nothing is read
    start, end = start.astimezone(UTC), end.astimezone(UTC)
    months = (end.year - start.year) * 12 + end.month - start.month + 1
    return months + PARTIAL_PIECES


# By type and field: the units a field counts, each time it is answered, for what it reads.
READ_UNITS: dict[tuple[str, str], Callable[[Mapping[str, Any]], int]] = {
    ("Query", "seriesTotal"): _series_total_reads,
}
