"""A subdocument equals another only with the same fields in the same order, as on a server:
`{x: 1, y: 2}` is not `{y: 2, x: 1}`, in an equality, an `$in` or a unique index."""

from __future__ import annotations

from typing import Any

from pymongo import IndexModel

from tests.engine.fronts import Front


async def _filled(front: Front) -> Any:
    places = front.collection("places")
    await places.insert_many(
        [{"_id": 1, "at": {"x": 1, "y": 2}}, {"_id": 2, "at": {"y": 2, "x": 1}}]
    )
    return places


async def _ids(places: Any, filter: dict[str, Any]) -> list[int]:
    return [doc["_id"] for doc in await places.find(filter).to_list()]


async def test_an_equality_on_a_subdocument_follows_its_key_order(front: Front) -> None:
    places = await _filled(front)
    assert await _ids(places, {"at": {"x": 1, "y": 2}}) == [1]
    assert await _ids(places, {"at": {"$eq": {"y": 2, "x": 1}}}) == [2]


async def test_in_with_subdocuments_follows_their_key_order(front: Front) -> None:
    places = await _filled(front)
    assert await _ids(places, {"at": {"$in": [{"y": 2, "x": 1}]}}) == [2]
    assert await _ids(places, {"at": {"$nin": [{"y": 2, "x": 1}]}}) == [1]


async def test_a_unique_index_holds_both_key_orders(front: Front) -> None:
    places = front.collection("places")
    await places.create_indexes([IndexModel([("at", 1)], unique=True)])
    await _filled(front)
    assert await places.count_documents({}) == 2
