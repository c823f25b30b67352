"""Reading time series: any range, cut into the few pre-added numbers that cover it exactly.

A point of an answer is a half-open UTC interval [a, b) of whole minutes. It is cut into the
coarsest whole units the rollups keep (`store/series.py`): whole UTC months (a month
document's total), runs of whole days (a month document's entries), runs of whole hours (a
day document's entries), and the minutes at the edges (an hour document's entries). So a DAY
point in UTC reads one number per field, and one in Asia/Kolkata (+05:30) adds two half hours
of minutes to 23 hours: exact in any time zone whose offsets are whole minutes.

One aggregation answers every point: it matches the documents the pieces name (every tag set
that has the query's tags), picks each document's pieces by its period key from the `let`
variable `pieces`, adds the stats up to the answer's points on the server (`$group`), and
brings the measurement's catalogue along (`$unionWith`), so the reply holds one document per
point that has data, and one more.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from store import measurements
from store.expressions import literal
from store.protocols import AsyncCollection
from store.series import MINUTE, period_key

HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
TOTAL = -1  # a piece that takes a document's total, not a run of its entries


@dataclass(frozen=True, slots=True)
class Piece:
    key: str  # the rollup document's period key
    lo: int  # its entries lo..hi-1, or TOTAL
    hi: int
    point: int


@dataclass(frozen=True, slots=True)
class FieldTotals:
    sum: float
    count: int
    min: float | None
    max: float | None


@dataclass(frozen=True, slots=True)
class SeriesAnswer:
    points: dict[int, dict[str, FieldTotals]]  # by point index; points without data absent
    catalogue: tuple[str, ...] | None  # the measurement's fields; None when there is none


def _next_month(month: datetime) -> datetime:
    year, number = (month.year + 1, 1) if month.month == 12 else (month.year, month.month + 1)
    return month.replace(year=year, month=number)


def _floor(moment: datetime, unit: str) -> datetime:
    hour = moment.replace(minute=0, second=0, microsecond=0)
    if unit == "hour":
        return hour
    day = hour.replace(hour=0)
    return day if unit == "day" else day.replace(day=1)


def _cut(a: datetime, b: datetime, point: int, out: list[Piece]) -> None:
    """[a, b) into the coarsest whole units, as pieces of the point."""
    t = a
    while t < b:
        hour, day, month = _floor(t, "hour"), _floor(t, "day"), _floor(t, "month")
        if t == month and _next_month(month) <= b:
            out.append(Piece(period_key("M", month), TOTAL, TOTAL, point))
            t = _next_month(month)
        elif t == day and t + DAY <= b:
            end = min(_next_month(month), _floor(b, "day"))
            out.append(
                Piece(period_key("M", month), t.day - 1, t.day - 1 + (end - t) // DAY, point)
            )
            t = end
        elif t == hour and t + HOUR <= b:
            end = min(day + DAY, _floor(b, "hour"))
            out.append(Piece(period_key("D", day), t.hour, t.hour + (end - t) // HOUR, point))
            t = end
        else:
            end = min(hour + HOUR, b)
            out.append(
                Piece(period_key("H", hour), t.minute, t.minute + (end - t) // MINUTE, point)
            )
            t = end


def pieces(boundaries: Sequence[datetime]) -> list[Piece]:
    """Point i is [boundaries[i], boundaries[i + 1]); every boundary a whole UTC minute."""
    out: list[Piece] = []
    utc = [boundary.astimezone(UTC) for boundary in boundaries]  # periods are UTC periods
    for point, (a, b) in enumerate(itertools.pairwise(utc)):
        _cut(a, b, point, out)
    return out


def _by_document(cut: Sequence[Piece]) -> dict[str, list[dict[str, int]]]:
    found: dict[str, list[dict[str, int]]] = {}
    for piece in cut:
        found.setdefault(piece.key, []).append({"i": piece.point, "lo": piece.lo, "hi": piece.hi})
    return found


def _stats_of_pieces() -> dict[str, Any]:
    """Each piece's stats objects: the document's total, or its entries, each looked up by its
    key (testing every entry of the document for each piece, an hour cut into 60 minutes cost
    3,600 tests; a 10,000-minute series held the embedded engine for seconds)."""
    entry = {"$getField": {"field": {"$toString": "$$this"}, "input": "$e"}}
    entries = {"$map": {"input": {"$range": ["$p.lo", "$p.hi"]}, "in": entry}}
    return {
        "$cond": [
            {"$eq": ["$p.lo", TOTAL]},
            [{"$ifNull": ["$tot", {}]}],
            {"$filter": {"input": entries, "cond": {"$ne": ["$$this", None]}}},
        ]
    }


def _added_up(measurement: str) -> list[dict[str, Any]]:
    """Stats added up per point and field, then per point; the catalogue brought along."""
    totals = {"k": "$_id.f", "s": "$s", "c": "$c", "n": "$n", "x": "$x"}
    catalogue = [
        {"$match": {"_id": measurement}},
        {"$project": {"_id": 0, "catalogue": {"$ifNull": ["$fields", []]}}},
    ]
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
        {"$unionWith": {"coll": measurements.COLLECTION, "pipeline": catalogue}},
    ]


def series_pipeline(
    *,
    measurement: str,
    tags: Sequence[tuple[str, str]],
    keys: Sequence[str],
    fields: Sequence[str] | None,
) -> list[dict[str, Any]]:
    match: dict[str, Any] = {"_id.m": measurement, "_id.k": {"$in": list(keys)}}
    match |= {f"_id.t.{key}": value for key, value in tags}
    pipeline: list[dict[str, Any]] = [
        {"$match": match},
        {
            "$project": {
                "tot": 1,
                "e": 1,
                "p": {"$getField": {"field": "$_id.k", "input": "$$pieces"}},
            }
        },
        {"$unwind": "$p"},
        {"$project": {"_id": 0, "i": "$p.i", "stats": _stats_of_pieces()}},
        {"$unwind": "$stats"},
        {"$project": {"i": 1, "f": {"$objectToArray": "$stats"}}},
        {"$unwind": "$f"},
    ]
    if fields is not None:
        pipeline.append({"$match": {"f.k": {"$in": list(fields)}}})
    return pipeline + _added_up(measurement)


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
    boundaries: Sequence[datetime],
    fields: Sequence[str] | None,
) -> SeriesAnswer:
    """Stats per point and field, added up on the server: one command, one batch."""
    cut = pieces(boundaries)
    by_document = _by_document(cut)
    pipeline = series_pipeline(
        measurement=measurement, tags=tags, keys=list(by_document), fields=fields
    )
    # Every point and the catalogue in the first batch: no getMore (the values limit keeps the
    # reply under a batch's 16 MiB).
    cursor = await coll.aggregate(
        pipeline, let={"pieces": literal(by_document)}, batchSize=len(boundaries) + 1
    )
    points: dict[int, dict[str, FieldTotals]] = {}
    catalogue: tuple[str, ...] | None = None
    for row in await cursor.to_list():
        if "catalogue" in row:
            catalogue = tuple(sorted(row["catalogue"]))
            continue
        points[int(row["_id"])] = {raw["k"]: _totals(raw) for raw in row["f"]}
    return SeriesAnswer(points=points, catalogue=catalogue)
