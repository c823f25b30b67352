"""Bulk writes fail as PyMongo's do: a `BulkWriteError` naming each failed request."""

from __future__ import annotations

import pytest
from pymongo import IndexModel, InsertOne, UpdateOne
from pymongo.errors import BulkWriteError

from embedded import EmbeddedCollection, EmbeddedEngine
from tests.engine.fronts import Front

DUPLICATE_KEY = 11000


@pytest.fixture
async def coll(engine: EmbeddedEngine) -> EmbeddedCollection:
    things = engine["test"]["things"]
    await things.insert_one({"_id": 1, "name": "taken"})
    return things


async def _ids(coll: EmbeddedCollection) -> list[object]:
    return [doc["_id"] for doc in await coll.find({}, sort=[("_id", 1)]).to_list()]


async def test_insert_many_returns_the_inserted_ids(coll: EmbeddedCollection) -> None:
    result = await coll.insert_many([{"_id": 2}, {"_id": 3}])
    assert result.inserted_ids == [2, 3]
    assert await _ids(coll) == [1, 2, 3]


async def test_insert_many_of_a_duplicate_id_stops_an_ordered_insert(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(BulkWriteError) as raised:
        await coll.insert_many([{"_id": 0}, {"_id": 1, "again": True}, {"_id": 2}])
    details = raised.value.details
    [error] = details["writeErrors"]
    assert (error["index"], error["code"]) == (1, DUPLICATE_KEY)
    assert error["op"] == {"_id": 1, "again": True}
    assert details["nInserted"] == 1
    assert await _ids(coll) == [0, 1]


async def test_insert_many_unordered_inserts_all_but_the_duplicates(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(BulkWriteError) as raised:
        await coll.insert_many([{"_id": 1}, {"_id": 2}, {"_id": 2}, {"_id": 3}], ordered=False)
    details = raised.value.details
    assert [(e["index"], e["code"]) for e in details["writeErrors"]] == [
        (0, DUPLICATE_KEY),
        (2, DUPLICATE_KEY),
    ]
    assert details["nInserted"] == 2
    assert await _ids(coll) == [1, 2, 3]


async def test_bulk_insert_against_a_unique_index_reports_the_key(
    coll: EmbeddedCollection,
) -> None:
    await coll.create_indexes([IndexModel([("name", 1)], unique=True)])
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write([InsertOne({"_id": 5, "name": "taken"})])
    [error] = raised.value.details["writeErrors"]
    assert error["code"] == DUPLICATE_KEY
    assert error["keyValue"] == {"name": "taken"}
    assert await _ids(coll) == [1]


async def test_a_failed_update_is_named_by_its_statement(coll: EmbeddedCollection) -> None:
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write([UpdateOne({"_id": 1}, {"$inc": {"name": 1}})])
    [error] = raised.value.details["writeErrors"]
    assert error["op"] == {
        "q": {"_id": 1}, "u": {"$inc": {"name": 1}}, "multi": False, "upsert": False
    }  # fmt: skip


async def test_an_update_refused_by_its_parse_checks_fails_each_statement_that_sends_it(
    coll: EmbeddedCollection,
) -> None:
    refused = [{"$match": {"name": "taken"}}]  # no stage of an update pipeline
    allowed = [{"$set": {"seen": True}}]
    requests = [UpdateOne({"_id": 1}, refused), UpdateOne({"_id": 1}, allowed)]
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write([*requests, UpdateOne({"_id": 1}, refused)], ordered=False)
    details = raised.value.details
    assert [error["index"] for error in details["writeErrors"]] == [0, 2]
    assert len({error["code"] for error in details["writeErrors"]}) == 1
    assert details["nModified"] == 1
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "name": "taken", "seen": True}


async def test_a_command_statement_finds_what_an_earlier_one_upserted(front: Front) -> None:
    fresh = front.collection("never_created")  # the first upsert creates the collection
    bump = [{"$set": {"n": {"$add": [{"$ifNull": ["$n", 0]}, "$$step"]}}}]
    requests = [UpdateOne({"_id": "a"}, bump, upsert=True) for _ in range(3)]
    result = await fresh.bulk_write(requests, ordered=False, let={"step": 2})
    assert (result.upserted_count, result.matched_count, result.modified_count) == (1, 2, 2)
    assert await fresh.find_one({"_id": "a"}) == {"_id": "a", "n": 6}


async def test_a_shared_pipeline_reads_the_document_of_each_statement(front: Front) -> None:
    things = front.collection("things")
    await things.insert_many([{"_id": i, "n": i} for i in range(4)])
    doubled = [{"$set": {"n": {"$multiply": ["$n", "$$by"]}}}]
    requests = [UpdateOne({"_id": i}, doubled) for i in (3, 1, 9)]  # 9 matches nothing
    result = await things.bulk_write(requests, ordered=False, let={"by": 10})
    assert (result.matched_count, result.modified_count) == (2, 2)
    found = await things.find({}, sort=[("_id", 1)]).to_list()
    assert [doc["n"] for doc in found] == [0, 10, 2, 30]
