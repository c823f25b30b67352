"""A sort on a field holding arrays takes, as a server does, each array's least element in an
ascending sort and its greatest in a descending one, an empty array sorting below null and a
missing field; in a `find` and in a pipeline's `$sort` alike."""

from __future__ import annotations

from typing import Any

import pytest

from tests.engine.fronts import Front

DOCS = [
    {"_id": 1, "x": [5, 1]},
    {"_id": 2, "x": 3},
    {"_id": 3, "x": []},
    {"_id": 4},
    {"_id": 5, "x": [2, 8]},
]
ORDERS = {1: [3, 4, 1, 5, 2], -1: [5, 1, 2, 4, 3]}


async def _sorted(front: Front, direction: int, *, pipeline: bool) -> list[Any]:
    items = front.collection("items")
    await items.insert_many(DOCS)
    if pipeline:
        stages = [{"$match": {"_id": {"$gt": 0}}}, {"$sort": {"x": direction}}]
        found = await (await items.aggregate(stages)).to_list()
    else:
        found = await items.find({}, sort=[("x", direction)]).to_list()
    return [doc["_id"] for doc in found]


@pytest.mark.parametrize("direction", [1, -1])
async def test_a_find_sorts_arrays_by_their_least_or_greatest(front: Front, direction: int) -> None:
    assert await _sorted(front, direction, pipeline=False) == ORDERS[direction]


@pytest.mark.parametrize("direction", [1, -1])
async def test_a_sort_stage_sorts_arrays_alike(front: Front, direction: int) -> None:
    assert await _sorted(front, direction, pipeline=True) == ORDERS[direction]
