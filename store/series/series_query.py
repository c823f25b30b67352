"""Reading time series: any range, cut into the few pre-added numbers that cover it exactly.

A point of an answer is a half-open UTC interval [a, b) of whole minutes. It is cut into the
coarsest whole units the rollups keep (`store/series/series.py`): whole UTC months (a month
document's total), runs of whole days (a month document's entries), runs of whole hours (a
day document's entries), and the minutes at the edges (an hour document's entries). So a DAY
point in UTC reads one number per field, and one in Asia/Kolkata (+05:30) adds two half hours
of minutes to 23 hours: exact in any time zone whose offsets are whole minutes.

One aggregation answers every point: it matches the documents the pieces name on the
(`_id.m`, `_id.k`) index, stops after `most_rollups` + 1 of them (`$limit`, before the tags
filter, so that no more are examined whatever the tags), picks each document's pieces by its
period key from the `let` variable `pieces` (none for a tag set the query's tags leave out),
and adds the stats up to the answer's points on the server (`$group`). Each document also adds
one to a count of the rollups read, so the reply says whether the limit cut the read.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from settings import MAX_SERIES_YEAR, MIN_SERIES_YEAR
from store.expressions import literal
from store.protocols import AsyncCollection
from store.series.series import EPOCH, MINUTE, minutes

DAY = timedelta(days=1)
EPOCH_DAY = EPOCH.date().toordinal()
MINUTES_A_DAY = DAY // MINUTE
TOTAL = -1  # a piece that takes a document's total, not a run of its entries
READ = -2  # the piece every document adds to the count of rollups read
# Not a field name (store/series/series.py): the count of rollups read, under point READ.
READ_KEY = "#read"


# The pieces of each rollup document a read names, by its period key: `{i, lo, hi}`, its
# entries lo..hi-1 (or its total, lo = hi = TOTAL) for point i.
Pieces = dict[str, list[dict[str, int]]]


@dataclass(frozen=True, slots=True)
class FieldTotals:
    sum: float
    count: int
    min: float | None
    max: float | None


@dataclass(frozen=True, slots=True)
class SeriesAnswer:
    points: dict[int, dict[str, FieldTotals]]  # by point index; points without data absent
    rollups: int  # rollup documents read: at most `most_rollups` + 1
    cut: bool  # more than `most_rollups` matched: `points` are not the whole answer


def _month_start(year: int, month: int) -> int:
    return (date(year, month, 1).toordinal() - EPOCH_DAY) * MINUTES_A_DAY


# Every month a series may span, and the one after: its start in minutes since 1970, and its
# period key, so that a range of centuries names its months by slicing, not one by one.
MONTH_STARTS = [
    _month_start(year, month)
    for year in range(MIN_SERIES_YEAR, MAX_SERIES_YEAR + 1)
    for month in range(1, 13)
] + [_month_start(MAX_SERIES_YEAR + 1, 1)]
MONTH_KEYS = [f"M{start}" for start in MONTH_STARTS]


def _month_of(day: int) -> tuple[int, int]:
    """The UTC month holding the day that starts `day` minutes since 1970: its start and the
    next month's, in minutes since 1970."""
    index = bisect.bisect_right(MONTH_STARTS, day) - 1
    if 0 <= index < len(MONTH_STARTS) - 1:
        return MONTH_STARTS[index], MONTH_STARTS[index + 1]
    first = date.fromordinal(EPOCH_DAY + day // MINUTES_A_DAY)
    following = date(first.year + first.month // 12, first.month % 12 + 1, 1)
    return _month_start(first.year, first.month), _month_start(following.year, following.month)


def _month_keys(first: int, last: int) -> list[str]:
    """The period keys of the months from `first` up to `last`, both the start of a month."""
    low = bisect.bisect_left(MONTH_STARTS, first)
    high = bisect.bisect_left(MONTH_STARTS, last)
    if MONTH_STARTS[0] <= first and last <= MONTH_STARTS[-1]:
        return MONTH_KEYS[low:high]
    keys = []
    while first < last:  # outside the years a series may span: the store refuses nothing
        keys.append(f"M{first}")
        first = _month_of(first)[1]
    return keys


def _cut(a: int, b: int, point: int, out: Pieces, months: list[str]) -> None:
    """[a, b), in minutes since 1970, into the coarsest whole UTC units, as pieces of the
    point; its whole months apart, as keys. In whole minutes: a 10,000-point series cuts as
    many ranges."""

    def piece(key: str, lo: int, hi: int) -> None:
        out.setdefault(key, []).append({"i": point, "lo": lo, "hi": hi})

    t = a
    while t < b:
        hour, day = t - t % 60, t - t % MINUTES_A_DAY  # floored, before 1970 too
        month, next_month = _month_of(day)
        if t == month and next_month <= b:
            last = _month_of(b - b % MINUTES_A_DAY)[0]
            months.extend(_month_keys(month, last))
            t = last
        elif t == day and t + MINUTES_A_DAY <= b:
            end = min(next_month, b - b % MINUTES_A_DAY)
            piece(f"M{month}", (t - month) // MINUTES_A_DAY, (end - month) // MINUTES_A_DAY)
            t = end
        elif t == hour and t + 60 <= b:
            end = min(day + MINUTES_A_DAY, b - b % 60)
            piece(f"D{day}", (t - day) // 60, (end - day) // 60)
            t = end
        else:
            end = min(hour + 60, b)
            piece(f"H{hour}", t - hour, end - hour)
            t = end


@dataclass(frozen=True, slots=True)
class SeriesRead:
    """What a series reads: the rollup documents its pieces name, by period key. The totals
    of whole months a range of centuries names by the thousand are kept as keys alone when
    one point has them all (a total's), each read whole for `month_point`."""

    by_document: Pieces
    months: list[str]
    month_point: int

    @property
    def keys(self) -> list[str]:
        return [*self.by_document, *self.months]


def series_read(boundaries: Sequence[datetime]) -> SeriesRead:
    """Point i is [boundaries[i], boundaries[i + 1]); every boundary a whole UTC minute."""
    out: Pieces = {}
    months: dict[int, list[str]] = {}
    edges = [minutes(boundary) for boundary in boundaries]  # periods are UTC periods
    for point, (a, b) in enumerate(itertools.pairwise(edges)):
        _cut(a, b, point, out, months.setdefault(point, []))
    having = [point for point, keys in months.items() if keys]
    if len(having) == 1:
        return SeriesRead(out, months[having[0]], having[0])
    for point in having:
        for key in months[point]:
            out.setdefault(key, []).append({"i": point, "lo": TOTAL, "hi": TOTAL})
    return SeriesRead(out, [], 0)


def _stats_of_pieces() -> dict[str, Any]:
    """Each piece's stats objects: the document's total, or its entries, each looked up by its
    key (not every entry of the document tested for each piece); the count of rollups read
    for the piece every document adds."""
    entry = {"$getField": {"field": {"$toString": "$$this"}, "input": "$e"}}
    entries = {"$map": {"input": {"$range": ["$p.lo", "$p.hi"]}, "in": entry}}
    return {
        "$cond": [
            {"$eq": ["$p.lo", READ]},
            [{READ_KEY: {"s": 0, "c": 1}}],
            {
                "$cond": [
                    {"$eq": ["$p.lo", TOTAL]},
                    [{"$ifNull": ["$tot", {}]}],
                    {"$filter": {"input": entries, "cond": {"$ne": ["$$this", None]}}},
                ]
            },
        ]
    }


def _pieces_of_document(tags: Sequence[tuple[str, str]]) -> dict[str, Any]:
    """The document's pieces (none where its tag set lacks one of the query's tags), after
    the one that counts it as read; a whole month named by key alone is its total."""
    named: Any = {"$ifNull": [{"$getField": {"field": "$_id.k", "input": "$$pieces"}}, "$$whole"]}
    if tags:
        has_tags = {"$and": [{"$eq": [f"$_id.t.{key}", literal(value)]} for key, value in tags]}
        named = {"$cond": [has_tags, named, []]}
    return {"$concatArrays": [[{"i": READ, "lo": READ, "hi": READ}], named]}


def _added_up() -> list[dict[str, Any]]:
    """Stats added up per point and field, then per point."""
    totals = {"k": "$_id.f", "s": "$s", "c": "$c", "n": "$n", "x": "$x"}
    return [
        {
            "$group": {
                "_id": {"i": "$i", "f": "$f.k"},
                "s": {"$sum": "$f.v.s"},
                "c": {"$sum": "$f.v.c"},
                "n": {"$min": "$f.v.n"},
                "x": {"$max": "$f.v.x"},
            }
        },
        {"$group": {"_id": "$_id.i", "f": {"$push": totals}}},
    ]


def series_pipeline(
    *,
    measurement: str,
    tags: Sequence[tuple[str, str]],
    keys: Sequence[str],
    fields: Sequence[str] | None,
    most_rollups: int,
) -> list[dict[str, Any]]:
    # The index holds the measurement and the period, not the tags: the tags are tested after
    # the limit, so that it bounds the documents examined, not only those answered.
    match: dict[str, Any] = {"_id.m": measurement, "_id.k": {"$in": list(keys)}}
    pipeline: list[dict[str, Any]] = [
        {"$match": match},
        {"$limit": most_rollups + 1},
        {"$project": {"tot": 1, "e": 1, "p": _pieces_of_document(tags)}},
        {"$unwind": "$p"},
        {"$project": {"_id": 0, "i": "$p.i", "stats": _stats_of_pieces()}},
        {"$unwind": "$stats"},
        {"$project": {"i": 1, "f": {"$objectToArray": "$stats"}}},
        {"$unwind": "$f"},
    ]
    if fields is not None:
        pipeline.append({"$match": {"f.k": {"$in": [READ_KEY, *fields]}}})
    return pipeline + _added_up()


def _totals(raw: dict[str, Any]) -> FieldTotals:
    minimum, maximum = raw.get("n"), raw.get("x")
    return FieldTotals(
        sum=float(raw.get("s") or 0.0),
        count=int(raw.get("c") or 0),
        min=None if minimum is None else float(minimum),
        max=None if maximum is None else float(maximum),
    )


async def read_series(
    coll: AsyncCollection,
    *,
    measurement: str,
    tags: Sequence[tuple[str, str]],
    read: SeriesRead,
    points: int,
    fields: Sequence[str] | None,
    most_rollups: int,
) -> SeriesAnswer:
    """Stats per point and field, added up on the server from at most `most_rollups` + 1
    rollup documents: one command, one batch."""
    pipeline = series_pipeline(
        measurement=measurement,
        tags=tags,
        keys=read.keys,
        fields=fields,
        most_rollups=most_rollups,
    )
    # Every point and the count in the first batch: no getMore (the values limit keeps the
    # reply under a batch's 16 MiB).
    whole = [{"i": read.month_point, "lo": TOTAL, "hi": TOTAL}] if read.months else []
    variables = {"pieces": literal(read.by_document), "whole": literal(whole)}
    cursor = await coll.aggregate(pipeline, let=variables, batchSize=points + 1)
    found: dict[int, dict[str, FieldTotals]] = {}
    for row in await cursor.to_list():
        found[int(row["_id"])] = {raw["k"]: _totals(raw) for raw in row["f"]}
    counted = found.pop(READ, {}).get(READ_KEY)
    rollups = counted.count if counted is not None else 0
    return SeriesAnswer(points=found, rollups=rollups, cut=rollups > most_rollups)
