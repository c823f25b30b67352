"""An upsert whose filter is `{_id: null}` inserts a document whose `_id` is null, as MongoDB 8.0
does, whatever the update (operators the engine applies itself or through mongomock-ng, a
pipeline, a replacement), and reports it upserted, with its null `_id`."""

from __future__ import annotations

from pymongo import UpdateOne

from tests.engine.fronts import Front
from tests.engine.wire_support import Client


async def test_an_unset_upsert_inserts_a_null_id(front: Front) -> None:
    coll = front.collection("nulls")
    result = await coll.update_one({"_id": None}, {"$unset": {"a": ""}}, upsert=True)
    # PyMongo reads `upserted: null` as no upsert (its matched_count is then `n`): the reply
    # itself tells.
    raw = result.raw_result or {}
    assert (raw["n"], raw["nModified"], raw["upserted"]) == (1, 0, None)
    assert await coll.find({"_id": None}).to_list() == [{"_id": None}]


async def test_a_set_upsert_and_a_pipeline_upsert_match_it_then(front: Front) -> None:
    coll = front.collection("nulls")
    await coll.update_one({"_id": None}, {"$set": {"a": 1}}, upsert=True)
    result = await coll.update_one({"_id": None}, [{"$set": {"b": 2}}], upsert=True)
    assert (result.matched_count, result.modified_count) == (1, 1)
    assert await coll.find({}).to_list() == [{"_id": None, "a": 1, "b": 2}]


async def test_a_bulk_upsert_reports_the_null_id(front: Front) -> None:
    coll = front.collection("nulls")
    result = await coll.bulk_write([UpdateOne({"_id": None}, {"$push": {"a": 1}}, upsert=True)])
    assert (result.upserted_count, result.upserted_ids) == (1, {0: None})
    assert await coll.find({}).to_list() == [{"_id": None, "a": [1]}]


async def test_update_many_and_replace_one_upsert_it_over_the_wire(client: Client) -> None:
    coll = client["test"]["nulls"]
    result = await coll.update_many({"_id": None}, {"$unset": {"a": ""}}, upsert=True)
    assert (result.upserted_id, (result.raw_result or {})["n"]) == (None, 1)
    await coll.delete_many({})
    result = await coll.replace_one({"_id": None}, {"x": 1}, upsert=True)
    assert (result.raw_result or {})["upserted"] is None and (result.raw_result or {})["n"] == 1
    assert await coll.find({}).to_list() == [{"_id": None, "x": 1}]
