"""What a field counts in the cost for what it reads, where that is more than it answers.

A `seriesTotal` answers a few values, but reads its range cut into pieces
(`store/series_query.py`): a rollup document's total for each whole month, and the days, hours
and minutes at its ends one by one. Over 1900 to 3000 that is some 13,200 months; thirty such
totals aliased held the embedded engine for 8 s, for a 3 KB query of a cost of 150. It counts
one unit per month of its range and per day, hour and minute its ends may be cut into.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import UTC, datetime
from typing import Any

from settings import MAX_SERIES_YEAR, MIN_SERIES_YEAR

# The most days, hours and minutes a range's two ends are cut into besides its whole months.
PARTIAL_PIECES = 2 * (31 + 24 + 60)
# What a range may span; beyond it the resolver refuses the range, and nothing is read.
_FIRST = datetime(MIN_SERIES_YEAR, 1, 1, tzinfo=UTC)
_LAST = datetime(MAX_SERIES_YEAR + 1, 1, 1, tzinfo=UTC)


def _series_total_reads(arguments: Mapping[str, Any]) -> int:
    start, end = arguments.get("from"), arguments.get("to")
    if not isinstance(start, datetime) or not isinstance(end, datetime):
        return 0  # refused by the resolver: nothing is read
    start, end = max(start.astimezone(UTC), _FIRST), min(end.astimezone(UTC), _LAST)
    if end <= start:
        return 0
    months = (end.year - start.year) * 12 + end.month - start.month + 1
    return months + PARTIAL_PIECES


# By type and field: the units a field counts, each time it is answered, for what it reads.
READ_UNITS: dict[tuple[str, str], Callable[[Mapping[str, Any]], int]] = {
    ("Query", "seriesTotal"): _series_total_reads,
}
