"""Two `_id`s are the same exactly when BSON deems them equal, as in a server's `_id` index:
`true` and 1 are two `_id`s (Python's `True == 1` is not BSON's), while 1, 1.0 and
`Decimal128("1")` are one; a `Decimal128` is an `_id` like any number."""

from __future__ import annotations

from typing import Any

import pytest
from bson.decimal128 import Decimal128
from pymongo.errors import DuplicateKeyError

from tests.engine.fronts import Front


async def _ids(things: Any, filter: dict[str, Any]) -> list[Any]:
    return [doc["_id"] for doc in await things.find(filter).to_list()]


async def test_true_and_one_are_two_ids(front: Front) -> None:
    things = front.collection("things")
    await things.insert_many([{"_id": True, "x": "bool"}, {"_id": 1, "x": "int"}])
    assert await _ids(things, {}) == [True, 1]
    assert (await things.find_one({"_id": True}))["x"] == "bool"
    assert (await things.find_one({"_id": 1}))["x"] == "int"
    await things.update_one({"_id": True}, {"$set": {"x": "changed"}})
    await things.delete_one({"_id": 1})
    assert await things.find().to_list() == [{"_id": True, "x": "changed"}]


async def test_subdocument_ids_keep_booleans_apart_from_numbers(front: Front) -> None:
    things = front.collection("things")
    await things.insert_many([{"_id": {"a": True}}, {"_id": {"a": 1}}])
    assert await _ids(things, {"_id": {"a": 1}}) == [{"a": 1}]


async def test_a_decimal_is_an_id(front: Front) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": Decimal128("2.5"), "x": 1})
    assert await _ids(things, {"_id": Decimal128("2.5")}) == [Decimal128("2.5")]
    assert await _ids(things, {"_id": 2.5}) == [Decimal128("2.5")]
    await things.update_one({"_id": Decimal128("2.5")}, {"$inc": {"x": 1}})
    assert await things.find().to_list() == [{"_id": Decimal128("2.5"), "x": 2}]


async def test_equal_numbers_are_one_id(front: Front) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": Decimal128("1")})
    with pytest.raises(DuplicateKeyError):
        await things.insert_one({"_id": 1})
    with pytest.raises(DuplicateKeyError):
        await things.insert_one({"_id": 1.0})
    assert await _ids(things, {"_id": 1}) == [Decimal128("1")]
