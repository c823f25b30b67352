"""Booleans are a type bracket of their own, as on a server: `true` is not `1` and `false` is
not `0` in an equality, `$in`, `$ne`, `$nin`, an `$expr` or a unique index (Python's `True == 1`
is not BSON's)."""

from __future__ import annotations

from typing import Any

from pymongo import IndexModel

from tests.engine.fronts import Front


async def _filled(front: Front) -> Any:
    things = front.collection("things")
    await things.insert_many(
        [
            {"_id": "true", "x": True},
            {"_id": "one", "x": 1},
            {"_id": "false", "x": False},
            {"_id": "zero", "x": 0.0},
            {"_id": "ones", "x": [1, 2]},
        ]
    )
    return things


async def _ids(things: Any, filter: dict[str, Any]) -> list[str]:
    return [doc["_id"] for doc in await things.find(filter).to_list()]


async def test_an_equality_to_a_number_leaves_out_booleans(front: Front) -> None:
    things = await _filled(front)
    assert await _ids(things, {"x": 1}) == ["one", "ones"]
    assert await _ids(things, {"x": {"$eq": 0}}) == ["zero"]


async def test_an_equality_to_a_boolean_leaves_out_numbers(front: Front) -> None:
    things = await _filled(front)
    assert await _ids(things, {"x": True}) == ["true"]
    assert await _ids(things, {"x": {"$eq": False}}) == ["false"]


async def test_in_keeps_booleans_and_numbers_apart(front: Front) -> None:
    things = await _filled(front)
    assert await _ids(things, {"x": {"$in": [1]}}) == ["one", "ones"]
    assert await _ids(things, {"x": {"$in": [True]}}) == ["true"]


async def test_negations_keep_booleans_and_numbers_apart(front: Front) -> None:
    things = await _filled(front)
    assert await _ids(things, {"x": {"$ne": 1}}) == ["true", "false", "zero"]
    assert await _ids(things, {"x": {"$nin": [False]}}) == ["true", "one", "zero", "ones"]


async def test_an_expression_keeps_booleans_and_numbers_apart(front: Front) -> None:
    things = await _filled(front)
    assert await _ids(things, {"$expr": {"$eq": ["$x", 1]}}) == ["one"]
    assert await _ids(things, {"$expr": {"$ne": ["$x", True]}}) == ["one", "false", "zero", "ones"]


async def test_a_unique_index_holds_true_beside_one(front: Front) -> None:
    things = front.collection("things")
    await things.create_indexes([IndexModel([("x", 1)], unique=True)])
    await things.insert_many([{"_id": 1, "x": True}, {"_id": 2, "x": 1}])
    assert await things.count_documents({}) == 2
