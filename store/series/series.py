"""Time series: pre-aggregated rollups of observations (../shared/seeds/002), written in one
command and read from a few pre-added numbers.

A rollup document holds one measurement's one tag set over one UTC period, at one level:
    {_id: {m, t: {<key>: <value>, ...}, k}, tot: {<field>: {s, c, n, x}},
     e: {"<i>": {<field>: {s, c, n, x}}}}
`s`, `c`, `n`, `x` are the sum, count, min and max of the field's values. Three levels:
- `H` (an hour): entries are its minutes, `"0"`..`"59"`;
- `D` (a day): entries are its hours, `"0"`..`"23"`;
- `M` (a month): entries are its days, `"0"`..`"30"`.
`k` is the level's letter and the period's start in minutes since 1970 ("H25664260"); `t`
holds the tags, keys in sorted order, so the `_id` of a (measurement, tag set, period) is one
value (documents compare field by field, in order), and `{a: "x|b=y"}` can never be
`{a: "x", b: "y"}`. Field names live under `tot` and the entries, tag keys under `_id.t`: no
name can meet a structural key. Queries match on `_id.m`, `_id.k` (indexed) and `_id.t.<key>`.

A write is one update per document touched, `$inc` (sum, count), `$min`, `$max` on paths
computed from the observation's time, with `upsert`: the first write of a period is the same
single command as every other. On a server, `$inc` of `e.6.f.s` under a missing `e` creates
the object key "6", not an array element: entries are object keys by design. A call's
documents go in one unordered bulk write; the `_id` is the upsert's whole filter, so a server
retries the duplicate key of two first writes by itself, and this module retries it once more
(a standalone, or the embedded engine).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from pymongo import ASCENDING, IndexModel, UpdateOne
from pymongo.errors import BulkWriteError

from store.protocols import AsyncCollection, Document
from store.running_stats import RunningStats

COLLECTION = "series"
INDEXES = [IndexModel([("_id.m", ASCENDING), ("_id.k", ASCENDING)], name="measurement_period")]
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MINUTE = timedelta(minutes=1)
DUPLICATE_KEY = 11000


@dataclass(frozen=True, slots=True)
class Observation:
    measurement: str
    at: datetime
    tags: tuple[tuple[str, str], ...]  # sorted by key
    fields: tuple[tuple[str, float], ...]


def names_by_measurement(
    observations: Iterable[Observation],
) -> dict[str, tuple[set[str], set[str]]]:
    """Each measurement's field names and tag keys, as the observations name them."""
    found: dict[str, tuple[set[str], set[str]]] = {}
    for observation in observations:
        fields, keys = found.setdefault(observation.measurement, (set(), set()))
        fields.update(name for name, _ in observation.fields)
        keys.update(key for key, _ in observation.tags)
    return found


@dataclass(slots=True)
class _Rollup:
    """What one call adds to one document: its total and its entries, per field."""

    tot: dict[str, RunningStats] = field(default_factory=lambda: defaultdict(RunningStats))
    entries: dict[int, dict[str, RunningStats]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(RunningStats))
    )


def minutes(moment: datetime) -> int:
    return (moment - EPOCH) // MINUTE


def period_key(level: str, start: datetime) -> str:
    return f"{level}{minutes(start)}"


def periods(at: datetime) -> list[tuple[str, datetime, int]]:
    """(level, period start, entry) of the three documents an observation at `at` adds to."""
    at = at.astimezone(UTC)
    hour = at.replace(minute=0, second=0, microsecond=0)
    day = hour.replace(hour=0)
    month = day.replace(day=1)
    return [("H", hour, at.minute), ("D", day, at.hour), ("M", month, at.day - 1)]


def _rollups(observations: Iterable[Observation]) -> dict[tuple[Any, ...], _Rollup]:
    found: dict[tuple[Any, ...], _Rollup] = defaultdict(_Rollup)
    for observation in observations:
        for level, start, entry in periods(observation.at):
            key = (observation.measurement, observation.tags, period_key(level, start))
            rollup = found[key]
            for name, value in observation.fields:
                rollup.tot[name].add(value)
                rollup.entries[entry][name].add(value)
    return found


def _stats_update(update: dict[str, dict[str, Any]], prefix: str, stats: RunningStats) -> None:
    update["$inc"][f"{prefix}.s"] = stats.total
    update["$inc"][f"{prefix}.c"] = stats.count
    update["$min"][f"{prefix}.n"] = stats.minimum
    update["$max"][f"{prefix}.x"] = stats.maximum


def _statement(key: tuple[Any, ...], rollup: _Rollup) -> UpdateOne:
    measurement, tags, period = key
    update: dict[str, dict[str, Any]] = {"$inc": {}, "$min": {}, "$max": {}}
    for name, stats in rollup.tot.items():
        _stats_update(update, f"tot.{name}", stats)
    for entry, fields in rollup.entries.items():
        for name, stats in fields.items():
            _stats_update(update, f"e.{entry}.{name}", stats)
    document_id = {"m": measurement, "t": dict(tags), "k": period}
    return UpdateOne({"_id": document_id}, update, upsert=True)


async def record_observations(coll: AsyncCollection, *, observations: Sequence[Observation]) -> int:
    """Add the observations to their rollups: one bulk write, one statement per document."""
    statements = [_statement(key, rollup) for key, rollup in _rollups(observations).items()]
    if not statements:
        return 0
    try:
        await coll.bulk_write(statements, ordered=False)
    except BulkWriteError as exc:
        # Two first writes of one period raced (a standalone server, or the embedded engine):
        # the loser's statement finds the winner's document on the retry.
        errors = exc.details.get("writeErrors", [])
        if not errors or any(error.get("code") != DUPLICATE_KEY for error in errors):
            raise
        await coll.bulk_write([statements[error["index"]] for error in errors], ordered=False)
    return len(observations)


def _stats_document(stats: RunningStats) -> Document:
    return {"s": stats.total, "c": stats.count, "n": stats.minimum, "x": stats.maximum}


def new_documents(observations: Iterable[Observation]) -> list[Document]:
    """The rollup documents the observations make where none exists yet: what their upserts
    would insert (demo data loads these with `insert_many`, much faster)."""
    documents = []
    for (measurement, tags, period), rollup in _rollups(observations).items():
        entries = {
            str(i): {name: _stats_document(s) for name, s in fields.items()}
            for i, fields in rollup.entries.items()
        }
        documents.append(
            {
                "_id": {"m": measurement, "t": dict(tags), "k": period},
                "tot": {name: _stats_document(s) for name, s in rollup.tot.items()},
                "e": entries,
            }
        )
    return documents
