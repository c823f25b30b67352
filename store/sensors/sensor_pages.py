"""The sensors list: sorted and filtered on the 24-hour count inside the database, in one
command, a page costing the page and not the collection.

Computing a sensor's window (filtering its `totals` to the 24 hours, summing the counts) is the
expensive part of a page, so it is done only for the sensors that can be on it:
- `orderBy: TITLE` without `minCount24h`: the `title_id` index gives the page's sensors in order
  (`$sort` + `$limit` right after the `$match`), and only those are windowed: O(page).
- `COUNT_24H_DESC`, and `minCount24h` of 1 or more: only *active* sensors (`lastEventAt` in the
  window, found on the `last_event_at` index) are windowed: O(active sensors). An inactive
  sensor's count is 0, since every write sets `lastEventAt` to its latest event, so no hour of
  the window holds events without `lastEventAt` in the window too. For `COUNT_24H_DESC` the
  inactive sensors come after the active ones with a count, by id: a second branch of the same
  command reads the first `first + 1` of them by id, and the two sorted branches are merged.
- `minCount24h` of 0 or less keeps every count of 0, so it windows every sensor: O(sensors).

`totalCount` is counted only when selected: without `minCount24h`, the sensors whose title has
the prefix (a range of the title index), or every sensor (on the `_id` index: every sensor's
`_id` is an ObjectId); with it, alongside the page (`$facet`), from the sensors windowed anyway.
Cursors carry the sort key and the id (keyset), so they stay valid while sensors come and go.
"""

from __future__ import annotations

import functools
import sys
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, NamedTuple

from bson import ObjectId
from pymongo import ASCENDING, DESCENDING

from store.expressions import literal
from store.protocols import AsyncCollection, Document
from store.sensors.sensor_window import Window
from store.sensors.sensors import SensorDoc, sensor_from_document
from store.unions import read_branches

# Every ObjectId is at least this one: `_id >= EVERY_OBJECT_ID` is every sensor, on the index.
EVERY_OBJECT_ID = ObjectId("0" * 24)
_SURROGATES = range(0xD800, 0xE000)


class SensorOrder(Enum):
    TITLE = "title"
    COUNT_24H_DESC = "count24h"


class SensorPosition(NamedTuple):
    """Where a page ends: the sort key (the title, or the 24-hour count) and the id."""

    key: str | int
    id: ObjectId


@dataclass(frozen=True, slots=True)
class SensorPage:
    sensors: tuple[SensorDoc, ...]
    count24h: tuple[int, ...]
    total: int | None  # None when not asked for
    has_more: bool


@dataclass(frozen=True, slots=True)
class _Query:
    window: Window
    first: int
    order: SensorOrder
    after: SensorPosition | None
    prefix: dict[str, Any]  # the title prefix's range, or {}

    @property
    def sort(self) -> dict[str, int]:
        if self.order is SensorOrder.TITLE:
            return {"title": ASCENDING, "_id": ASCENDING}
        return {"count24h": DESCENDING, "_id": ASCENDING}


def _after_prefix(prefix: str) -> str | None:
    """The least string after every string that starts with `prefix` (None: there is none)."""
    chars = list(prefix)
    while chars:
        code = ord(chars.pop()) + 1
        if code in _SURROGATES:
            code = _SURROGATES.stop  # not in a BSON string
        if code <= sys.maxunicode:
            return "".join(chars) + chr(code)
    return None


def _prefix_range(prefix: str | None) -> dict[str, Any]:
    """The titles that start with `prefix`, as a range: never a pattern, exact on the index."""
    if not prefix:
        return {}
    bounds: dict[str, str] = {"$gte": prefix}
    end = _after_prefix(prefix)
    if end is not None:
        bounds["$lt"] = end
    return {"title": bounds}


def _after_filter(order: SensorOrder, after: SensorPosition | None) -> dict[str, Any]:
    if after is None:
        return {}
    key, last_id = after
    if order is SensorOrder.TITLE:
        return {"$or": [{"title": {"$gt": key}}, {"title": key, "_id": {"$gt": last_id}}]}
    return {"$or": [{"count24h": {"$lt": key}}, {"count24h": key, "_id": {"$gt": last_id}}]}


@functools.lru_cache(maxsize=8)
def _windowed(window: Window, *, count: bool = True) -> tuple[dict[str, Any], ...]:
    """The window's totals of each sensor and, with `count`, their count (else 0). The same
    stages for every page of one hour (never changed: every pipeline copies them in), so that
    the embedded engine, which keeps its compiled expressions by stage, finds them again (a
    server parses every command; to it they are the same bytes)."""
    in_window = {
        "$and": [
            {"$gte": ["$$this.timestamp", literal(window.start)]},
            {"$lte": ["$$this.timestamp", literal(window.end)]},
        ]
    }
    totals = {"$filter": {"input": {"$ifNull": ["$totals", []]}, "cond": in_window}}
    return (
        {"$project": {"title": 1, "lastEventAt": 1, "totals": totals}},
        {"$set": {"count24h": {"$sum": "$totals.count"} if count else literal(0)}},
    )


def _page(query: _Query, *, after: bool = True) -> list[dict[str, Any]]:
    keyset = _after_filter(query.order, query.after) if after else {}
    stages = [{"$match": keyset}] if keyset else []
    return [*stages, {"$sort": query.sort}, {"$limit": query.first + 1}]


def _filtered(query: _Query, minimum: int, count_total: bool) -> list[dict[str, Any]]:
    """`minCount24h` given: window the active sensors (every sensor when `minimum <= 0`)."""
    where = dict(query.prefix)
    if minimum > 0:
        where["lastEventAt"] = {"$gte": query.window.start}
    stages = [
        {"$match": where},
        *_windowed(query.window),
        {"$match": {"count24h": {"$gte": minimum}}},
    ]
    if count_total:
        return [*stages, {"$facet": {"page": _page(query), "total": [{"$count": "n"}]}}]
    return stages + _page(query)


def _by_title(query: _Query) -> list[dict[str, Any]]:
    """The page by the title index, then its windows."""
    where = {**query.prefix, **_after_filter(query.order, query.after)}
    return [{"$match": where}, *_page(query, after=False), *_windowed(query.window)]


def _by_count(query: _Query) -> list[list[dict[str, Any]]]:
    """The active sensors' page, and the inactive sensors' (count 0, by id) when it can hold
    any of them."""
    active = {**query.prefix, "lastEventAt": {"$gte": query.window.start}}
    branches = [[{"$match": active}, *_windowed(query.window), *_page(query)]]
    inactive = {**query.prefix, "lastEventAt": {"$not": {"$gte": query.window.start}}}
    if query.after is not None:
        key, last_id = query.after
        if not isinstance(key, int) or key < 0:
            return branches  # past every count of 0
        if key == 0:
            inactive["_id"] = {"$gt": last_id}
    limit = {"$limit": query.first + 1}
    by_id: list[dict[str, Any]] = [{"$match": inactive}, {"$sort": {"_id": ASCENDING}}, limit]
    return [*branches, [*by_id, *_windowed(query.window, count=False)]]


def _merged(pages: list[list[Document]], first: int) -> list[Document]:
    """The first `first + 1` of the branches' pages, each sorted by count (descending), then
    id: sorted again together."""
    rows = [row for page in pages for row in page]
    rows.sort(key=lambda row: (-row["count24h"], row["_id"]))
    return rows[: first + 1]


async def list_sensors(
    coll: AsyncCollection,
    *,
    now: datetime,
    first: int,
    order: SensorOrder = SensorOrder.TITLE,
    after: SensorPosition | None = None,
    title_prefix: str | None = None,
    min_count24h: int | None = None,
    count_total: bool = True,
) -> SensorPage:
    """One page of sensors, sorted and filtered on the window's count inside the database:
    one command, which windows only the sensors that can be on the page (module doc)."""
    query = _Query(Window.at(now), first, order, after, _prefix_range(title_prefix))
    total: int | None = None
    if min_count24h is not None:
        [found] = await read_branches(
            coll, branches=[_filtered(query, min_count24h, count_total)], rows_at_most=first + 1
        )
        docs = found
        if count_total:
            docs = found[0]["page"]
            total = found[0]["total"][0]["n"] if found[0]["total"] else 0
    else:
        by_title = order is SensorOrder.TITLE
        branches = [_by_title(query)] if by_title else _by_count(query)
        if count_total:
            everyone = query.prefix or {"_id": {"$gte": EVERY_OBJECT_ID}}
            branches.append([{"$match": everyone}, {"$count": "n"}])
        found_all = await read_branches(
            coll, branches=branches, rows_at_most=len(branches) * (first + 1)
        )
        if count_total:
            counted = found_all.pop()
            total = counted[0]["n"] if counted else 0
        docs = found_all[0] if by_title else _merged(found_all, first)
    return SensorPage(
        sensors=tuple(sensor_from_document(d) for d in docs[:first]),
        count24h=tuple(int(d["count24h"]) for d in docs[:first]),
        total=total,
        has_more=len(docs) > first,
    )
