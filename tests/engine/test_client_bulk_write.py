"""The client's bulk write across namespaces (`bulk_write` of the client, MongoDB 8.0's
`bulkWrite` command): each model runs in turn on its own collection, counted and answered as a
server's reply is, and a failed model is a `ClientBulkWriteException` naming it."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo import DeleteMany, InsertOne, ReplaceOne, UpdateMany, UpdateOne
from pymongo.errors import ClientBulkWriteException

from tests.engine.fronts import Front

DUPLICATE_KEY = 11000


async def _stored(front: Front, name: str) -> list[object]:
    return list(await front.collection(name).find({}, sort=[("_id", 1)]).to_list())


async def test_models_write_to_their_own_namespaces(front: Front) -> None:
    await front.collection("a").insert_many([{"_id": 1, "n": 1}, {"_id": 2, "n": 2}])
    result = await front.db.client.bulk_write(
        [
            InsertOne({"_id": 1, "m": 1}, namespace="test.b"),
            UpdateMany({}, {"$inc": {"n": 10}}, namespace="test.a"),
            ReplaceOne({"_id": 9}, {"up": True}, upsert=True, namespace="test.b"),
            UpdateOne({"_id": 1}, {"$set": {"m": 2}}, namespace="test.b"),
            DeleteMany({"n": 12}, namespace="test.a"),
        ],
        verbose_results=True,
    )
    assert (result.inserted_count, result.matched_count, result.modified_count) == (1, 3, 3)
    assert (result.upserted_count, result.deleted_count) == (1, 1)
    assert result.update_results[2].upserted_id == 9
    assert result.delete_results[4].deleted_count == 1
    assert await _stored(front, "a") == [{"_id": 1, "n": 11}]
    assert await _stored(front, "b") == [{"_id": 1, "m": 2}, {"_id": 9, "up": True}]


async def test_a_failed_model_stops_an_ordered_bulk(front: Front) -> None:
    await front.collection("a").insert_one({"_id": 1})
    with pytest.raises(ClientBulkWriteException) as raised:
        await front.db.client.bulk_write(
            [
                InsertOne({"_id": 2}, namespace="test.a"),
                InsertOne({"_id": 1}, namespace="test.a"),
                InsertOne({"_id": 3}, namespace="test.a"),
            ]
        )
    errors: list[Any] = list(raised.value.write_errors or [])
    [error] = errors
    assert (error["idx"], error["code"]) == (1, DUPLICATE_KEY)
    partial = raised.value.partial_result
    assert partial is not None and partial.inserted_count == 1
    assert await _stored(front, "a") == [{"_id": 1}, {"_id": 2}]
