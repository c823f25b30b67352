"""The sensors list: sorted and filtered on the 24-hour count inside the database."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, NamedTuple

from bson import ObjectId
from pymongo import ASCENDING, DESCENDING

from store.expressions import literal
from store.protocols import AsyncCollection
from store.sensor_window import Window
from store.sensors import SensorDoc, sensor_from_document


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
    total: int
    has_more: bool


def _title_prefix_filter(prefix: str | None) -> dict[str, Any]:
    # Anchored and escaped: a prefix is never a pattern, and the title index serves it.
    return {"title": {"$regex": "^" + re.escape(prefix)}} if prefix else {}


def _after_filter(order: SensorOrder, after: SensorPosition | None) -> dict[str, Any]:
    if after is None:
        return {}
    key, last_id = after
    if order is SensorOrder.TITLE:
        return {"$or": [{"title": {"$gt": key}}, {"title": key, "_id": {"$gt": last_id}}]}
    return {"$or": [{"count24h": {"$lt": key}}, {"count24h": key, "_id": {"$gt": last_id}}]}


async def list_sensors(
    coll: AsyncCollection,
    *,
    now: datetime,
    first: int,
    order: SensorOrder = SensorOrder.TITLE,
    after: SensorPosition | None = None,
    title_prefix: str | None = None,
    min_count24h: int | None = None,
) -> SensorPage:
    """One page of sensors, sorted and filtered on the window's count inside the database."""
    window = Window.at(now)
    in_window = {
        "$and": [
            {"$gte": ["$$this.timestamp", literal(window.start)]},
            {"$lte": ["$$this.timestamp", literal(window.end)]},
        ]
    }
    pipeline: list[dict[str, Any]] = [
        {"$match": _title_prefix_filter(title_prefix)},
        {
            "$project": {
                "title": 1,
                "lastEventAt": 1,
                "totals": {"$filter": {"input": {"$ifNull": ["$totals", []]}, "cond": in_window}},
            }
        },
        {"$set": {"count24h": {"$sum": "$totals.count"}}},
    ]
    if min_count24h is not None:
        pipeline.append({"$match": {"count24h": {"$gte": min_count24h}}})
    sort = (
        {"title": ASCENDING, "_id": ASCENDING}
        if order is SensorOrder.TITLE
        else {"count24h": DESCENDING, "_id": ASCENDING}
    )
    page = [{"$match": _after_filter(order, after)}, {"$sort": sort}, {"$limit": first + 1}]
    pipeline.append({"$facet": {"total": [{"$count": "n"}], "page": page}})
    cursor = await coll.aggregate(pipeline)
    [facets] = await cursor.to_list()
    docs = facets["page"]
    total = facets["total"][0]["n"] if facets["total"] else 0
    return SensorPage(
        sensors=tuple(sensor_from_document(d) for d in docs[:first]),
        count24h=tuple(int(d["count24h"]) for d in docs[:first]),
        total=total,
        has_more=len(docs) > first,
    )
