"""`$sortArray` with a sort document sorts as a `$sort` stage does: a field holding an array by
its least element (its greatest, descending), as a server's sort key takes it (mongomock-ng
took the first)."""

from __future__ import annotations

from typing import Any

from tests.engine.fronts import Front


async def _sorted(front: Front, items: list[Any], sort_by: Any) -> list[Any]:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "items": items})
    pipeline = [
        {"$project": {"_id": 0, "s": {"$sortArray": {"input": "$items", "sortBy": sort_by}}}}
    ]
    [result] = await (await things.aggregate(pipeline)).to_list()
    return list(result["s"])


async def test_an_array_field_sorts_by_its_least_element(front: Front) -> None:
    items = [{"v": 3}, {"v": [5, 1]}, {"v": 2}]
    assert await _sorted(front, items, {"v": 1}) == [{"v": [5, 1]}, {"v": 2}, {"v": 3}]


async def test_an_array_field_sorts_by_its_greatest_element_descending(front: Front) -> None:
    items = [{"v": 4}, {"v": [1, 5]}, {"v": 2}]
    assert await _sorted(front, items, {"v": -1}) == [{"v": [1, 5]}, {"v": 4}, {"v": 2}]
