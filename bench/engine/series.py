"""Time series on the embedded engine: our rollups (`store/series/series.py`) against the article's
layouts (../shared/seeds/002): its pre-allocated month document, and one document per
observation."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import bson

import settings
from bench.engine.orders import _seconds_per_call
from embedded import EmbeddedCollection, EmbeddedDatabase, EmbeddedEngine
from store.series import measurements
from store.series.series import Observation, period_key, record_observations
from store.series.series_query import SeriesAnswer, read_series, series_read

MEASUREMENT = "insects"
FIELDS = ("butterflies", "honeybees")
TAG_SETS = (
    (("location", "1"), ("scientist", "langstroth")),
    (("location", "2"), ("scientist", "perpetua")),
)
APRIL = datetime(2024, 4, 1, tzinfo=UTC)  # 30 days: the month of minute data
YEAR = datetime(2023, 1, 1, tzinfo=UTC)  # 365 days: the year of hourly data
STEP = 1  # minutes between the month's observations (every minute loads in about 10 s here)
DAYS = 30
UNBOUNDED = 10**9  # rollups a read may examine: the bench compares layouts, not limits


def _observation(at: datetime, tags: tuple[tuple[str, str], ...], minute: int) -> Observation:
    # Whole numbers: their sums are exact in doubles in any order, so both layouts must agree.
    values = (float(minute % 7), float(minute % 11))
    return Observation(MEASUREMENT, at, tags, tuple(zip(FIELDS, values, strict=True)))


def _article_month(fields: Sequence[str], start: datetime, days: int) -> dict[str, Any]:
    """The article's month document, every day, hour and minute present, all zeros (its
    counters are whole numbers: int32 zeros), each level with its `date` as the article shows."""
    zeros = dict.fromkeys(fields, 0)
    day_docs = []
    for d in range(days):
        day = start + timedelta(days=d)
        hour_docs = []
        for h in range(24):
            hour = day + timedelta(hours=h)
            minute_docs = [{"date": hour + timedelta(minutes=m), **zeros} for m in range(60)]
            hour_docs.append({"date": hour, **zeros, "minutes": minute_docs})
        day_docs.append({"date": day, **zeros, "hours": hour_docs})
    tags = {"location": "1", "scientist": "langstroth"}
    return {"_id": "month", "date": start, **tags, **zeros, "days": day_docs}


async def _write_cost(db: EmbeddedDatabase) -> None:
    ours, article = db["series_write"], db["article_months"]
    at = APRIL + timedelta(days=17, minutes=6)
    observation = _observation(at, TAG_SETS[0], 6)
    await record_observations(ours, observations=[observation])  # steady state: documents exist
    await article.insert_one(_article_month(FIELDS, APRIL, DAYS))
    prefixes = ["", "days.17.", "days.17.hours.0.", "days.17.hours.0.minutes.6."]
    inc = {f"{prefix}{name}": 1 for prefix in prefixes for name in FIELDS}

    async def ours_once() -> None:
        await record_observations(ours, observations=[observation])

    async def article_once() -> None:
        await article.update_one({"_id": "month"}, {"$inc": inc})

    our_cost = await _seconds_per_call(ours_once)
    article_cost = await _seconds_per_call(article_once)
    one, two = (len(bson.encode(_article_month(FIELDS[:n], APRIL, 31))) for n in (1, 2))
    print("  write of one observation (2 fields, 2 tags), documents already there")
    print(f"    record_observations (3 rollups)    {our_cost * 1e3:9.3f} ms")
    print(f"    article $inc, pre-allocated month  {article_cost * 1e3:9.3f} ms")
    print(f"    ratio article write / our write    {article_cost / our_cost:9.1f}   (target >= 10)")
    print(f"    article month document (31 days)   1 field {one / 1024:.0f} KiB, "
          f"2 fields {two / 1024:.0f} KiB, {(two - one) / 1024:.0f} KiB per field")  # fmt: skip


def _longest(prefix: str, length: int, i: int) -> str:
    name = f"{prefix}{i:02}"
    return name + "x" * (length - len(name))


async def _largest_documents(db: EmbeddedDatabase) -> None:
    coll = db["series_largest"]
    measurement = _longest("m", 64, 0)
    fields = [_longest("f", 64, i) for i in range(settings.MAX_FIELDS_PER_MEASUREMENT)]
    tags = tuple(
        (_longest("k", 64, i), _longest("v", settings.MAX_TAG_VALUE_LENGTH, i))
        for i in range(settings.MAX_TAGS_PER_OBSERVATION)
    )
    month = datetime(2024, 1, 1, tzinfo=UTC)  # 31 days
    # Every minute of the first hour, every hour of the first day, every day of the month:
    # the H, D and M documents of that hour, day and month each get all their entries.
    moments = [month + timedelta(minutes=m) for m in range(60)]
    moments += [month + timedelta(hours=h) for h in range(1, 24)]
    moments += [month + timedelta(days=d) for d in range(1, 31)]
    observations = [
        Observation(measurement, at, tags, tuple((f, 0.5 + i + j) for j, f in enumerate(fields)))
        for i, at in enumerate(moments)
    ]
    await record_observations(coll, observations=observations)
    sizes = {}
    for level, entries in (("H", 60), ("D", 24), ("M", 31)):
        key = {"m": measurement, "t": dict(tags), "k": period_key(level, month)}
        doc = await coll.find_one({"_id": key})
        assert doc is not None and len(doc["e"]) == entries and len(doc["tot"]) == len(fields)
        sizes[level] = len(bson.encode(doc)) / 1024
    print("  largest rollup documents the limits allow (32 fields, 16 tags, longest names)")
    print(f"    hour (H, 60 minute entries)        {sizes['H']:9.1f} KiB   (target <= 1024 KiB)")
    print(f"    day (D, 24) / month (M, 31)        {sizes['D']:.1f} / {sizes['M']:.1f} KiB")


async def _load_month(ours: EmbeddedCollection, flat: EmbeddedCollection) -> None:
    """Every STEP-th minute of April for both tag sets, into both layouts; one call a day."""
    number = 0
    for day in range(DAYS):
        observations, documents = [], []
        for tags in TAG_SETS:
            for minute in range(0, 24 * 60, STEP):
                at = APRIL + timedelta(days=day, minutes=minute)
                observation = _observation(at, tags, minute)
                observations.append(observation)
                number += 1
                fields = dict(observation.fields)
                documents.append({"_id": number, "at": at, **dict(tags), **fields})
        await record_observations(ours, observations=observations)
        await flat.insert_many(documents)


def _flat_pipeline(start: datetime, end: datetime, unit: str) -> list[dict[str, Any]]:
    # The engine has `$dateTrunc` (checked: unit "day" and "hour" give UTC starts), so the
    # 1:1 side groups as a server would, with no arithmetic bucket.
    sums = {name: {"$sum": f"${name}"} for name in FIELDS}
    match = {**dict(TAG_SETS[0]), "at": {"$gte": start, "$lt": end}}
    bucket = {"$dateTrunc": {"date": "$at", "unit": unit}}
    return [{"$match": match}, {"$group": {"_id": bucket, **sums}}]


async def _read(coll: EmbeddedCollection, bounds: list[datetime]) -> SeriesAnswer:
    return await read_series(
        coll,
        measurement=MEASUREMENT,
        tags=TAG_SETS[0],
        read=series_read(bounds),
        points=len(bounds) - 1,
        fields=FIELDS,
        most_rollups=UNBOUNDED,
    )


def _grid(start: datetime, step: timedelta, points: int) -> list[datetime]:
    return [start + step * i for i in range(points + 1)]


async def _compare(
    ours: EmbeddedCollection, flat: EmbeddedCollection, bounds: list[datetime], unit: str
) -> tuple[float, float]:
    """Seconds per call of our read and of the 1:1 aggregation, after checking they agree."""

    async def rollups() -> dict[datetime, dict[str, float]]:
        answer = await _read(ours, bounds)
        return {bounds[i]: {f: t.sum for f, t in p.items()} for i, p in answer.points.items()}

    async def one_to_one() -> dict[datetime, dict[str, float]]:
        cursor = await flat.aggregate(_flat_pipeline(bounds[0], bounds[-1], unit))
        rows = await cursor.to_list()
        return {row["_id"]: {f: float(row[f]) for f in FIELDS} for row in rows}

    expected = await rollups()
    assert len(expected) == len(bounds) - 1, "a point without data"
    assert expected == await one_to_one(), "the layouts disagree"
    return await _seconds_per_call(rollups), await _seconds_per_call(one_to_one)


async def _queries(db: EmbeddedDatabase) -> None:
    ours, flat = db["series_month"], db["observations"]
    await _load_month(ours, flat)
    day = await _compare(ours, flat, _grid(APRIL, timedelta(days=1), DAYS), "day")
    week = await _compare(ours, flat, _grid(APRIL, timedelta(hours=1), 7 * 24), "hour")
    print(f"  queries, April 2024, an observation every {STEP} min, 2 tag sets x 2 fields "
          f"({DAYS * 24 * 60 // STEP:,} per tag set; same sums asserted)")  # fmt: skip
    for label, (rollups, one_to_one) in (("DAY over the month", day), ("HOUR over a week", week)):
        print(f"    {label:<20} rollups             {rollups * 1e3:9.3f} ms")
        print(f"    {label:<20} 1:1 aggregation     {one_to_one * 1e3:9.3f} ms")
        print(f"    {label:<20} 1:1 / rollups       {one_to_one / rollups:9.1f}")


async def _growth(db: EmbeddedDatabase) -> None:
    coll = db["series_year"]
    hours = 365 * 24
    # 31 days per call: at most 744 observations, within the API's 1,000 per call.
    for first in range(0, hours, 31 * 24):
        moments = (YEAR + timedelta(hours=h) for h in range(first, min(first + 31 * 24, hours)))
        batch = [_observation(at, TAG_SETS[0], at.hour) for at in moments]
        await record_observations(coll, observations=batch)

    def series_of(months: int) -> Callable[[], Awaitable[object]]:
        days = (YEAR.replace(year=2024) if months == 12 else YEAR.replace(month=months + 1)) - YEAR
        bounds = _grid(YEAR, timedelta(days=1), days.days)
        return lambda: _read(coll, bounds)

    cost = {n: await _seconds_per_call(series_of(n), budget=0.5) for n in (1, 3, 6, 12)}
    # The engine's `$match` reads every stored document (it uses no index), so each number
    # holds a fixed scan of the year's 9,137 rollups; a server finds them by `_id.m`, `_id.k`.
    print("  growth: DAY series of one tag set over a year of hourly data (2023)")
    print("    1 / 3 / 6 / 12 months               "
          + " / ".join(f"{cost[n] * 1e3:.3f}" for n in (1, 3, 6, 12)) + " ms")  # fmt: skip
    print(f"    ratio 12 months / 1 month          {cost[12] / cost[1]:9.1f}")


async def run() -> None:
    db = EmbeddedEngine()["bench"]
    await measurements.register_names(
        db[measurements.COLLECTION],
        measurement=MEASUREMENT,
        fields=FIELDS,
        tag_keys=[key for key, _ in TAG_SETS[0]],
        max_fields=settings.MAX_FIELDS_PER_MEASUREMENT,
        max_tag_keys=settings.MAX_TAG_KEYS_PER_MEASUREMENT,
    )
    print("time series (embedded engine)")
    await _write_cost(db)
    await _largest_documents(db)
    await _queries(db)
    await _growth(db)
