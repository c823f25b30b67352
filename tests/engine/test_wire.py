"""The wire front: PyMongo's own `AsyncMongoClient` talks to the engine as to a MongoDB 8.0
standalone, and gets a server's replies, errors and exception classes."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from bson import ObjectId
from pymongo import IndexModel, UpdateOne
from pymongo.errors import BulkWriteError, DuplicateKeyError, OperationFailure, WriteError

from embedded.wire import WireServer
from tests.engine.wire_support import Client, Collection, SentCommands

MIB = 1024 * 1024


@pytest.fixture
def coll(client: Client) -> Collection:
    return client["test"]["things"]


async def test_the_handshake_describes_a_standalone_mongodb_8(client: Client) -> None:
    hello = await client.admin.command("hello")
    assert hello["isWritablePrimary"] is True
    assert (hello["maxWireVersion"], hello["maxBsonObjectSize"]) == (25, 16 * MIB)
    assert "setName" not in hello and "$clusterTime" not in hello


async def test_ping_answers(client: Client) -> None:
    assert await client.admin.command("ping") == {"ok": 1.0}


async def test_the_uri_names_the_port(server: WireServer) -> None:
    assert server.uri == f"mongodb://127.0.0.1:{server.port}/?directConnection=true"
    assert server.port > 0


async def test_documents_come_back_with_their_datetimes_and_object_ids(coll: Collection) -> None:
    at = datetime(2024, 5, 6, 7, 8, 9, 123000, tzinfo=UTC)
    oid = ObjectId()
    await coll.insert_one({"_id": oid, "at": at, "nested": {"ids": [oid]}})
    assert await coll.find_one({"at": at}) == {"_id": oid, "at": at, "nested": {"ids": [oid]}}


async def test_a_find_of_150_documents_is_a_find_and_one_get_more(
    coll: Collection, sent: SentCommands
) -> None:
    await coll.insert_many([{"_id": i} for i in range(150)])
    sent.names.clear()
    docs = await coll.find({}, sort=[("_id", 1)]).to_list()
    assert [d["_id"] for d in docs] == list(range(150))
    assert sent.names == ["find", "getMore"]


async def test_an_aggregate_takes_let_variables(coll: Collection) -> None:
    await coll.insert_many([{"_id": 1, "n": 5}, {"_id": 2, "n": 7}])
    cursor = await coll.aggregate(
        [{"$match": {"$expr": {"$gt": ["$n", "$$least"]}}}, {"$project": {"n": 1}}],
        let={"least": {"$literal": 6}},
    )
    assert await cursor.to_list() == [{"_id": 2, "n": 7}]


async def test_a_duplicate_id_on_insert_one_is_a_duplicate_key_error(coll: Collection) -> None:
    await coll.insert_one({"_id": 1})
    with pytest.raises(DuplicateKeyError) as raised:
        await coll.insert_one({"_id": 1})
    assert raised.value.code == 11000
    assert "E11000 duplicate key error collection: test.things index: _id_" in str(raised.value)


async def test_a_duplicate_id_on_insert_many_is_a_bulk_write_error(coll: Collection) -> None:
    await coll.insert_one({"_id": 1})
    with pytest.raises(BulkWriteError) as raised:
        await coll.insert_many([{"_id": 0}, {"_id": 1}, {"_id": 2}])
    details = raised.value.details
    assert [(e["index"], e["code"]) for e in details["writeErrors"]] == [(1, 11000)]
    assert details["nInserted"] == 1


async def test_an_update_of_one_path_twice_is_a_write_error_40(coll: Collection) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$pull": {"list": 1}, "$push": {"list": 2}})
    assert raised.value.code == 40


async def test_find_one_and_update_past_16_mib_is_an_operation_failure_17419(
    coll: Collection,
) -> None:
    await coll.insert_one({"_id": 1, "blob": "x" * (10 * MIB)})
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": 1}, {"$set": {"more": "y" * (7 * MIB)}})
    assert not isinstance(raised.value, WriteError)
    assert raised.value.code == 17419
    assert (raised.value.details or {})["codeName"] == "Location17419"


async def test_an_upsert_past_16_mib_is_an_operation_failure_17420(coll: Collection) -> None:
    # The command stays under 16 MiB (PyMongo refuses a larger one itself); the document the
    # pipeline builds from it does not.
    doubling = [{"$set": {"a": "x" * (9 * MIB)}}, {"$set": {"b": "$a"}}]
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": 2}, doubling, upsert=True)
    assert not isinstance(raised.value, WriteError)
    assert raised.value.code == 17420
    assert await coll.count_documents({}) == 0


async def test_an_unordered_bulk_of_updates_reports_each_failed_index(
    coll: Collection, sent: SentCommands
) -> None:
    await coll.insert_many([{"_id": 1, "n": "text"}, {"_id": 2, "n": 1}, {"_id": 3, "n": "x"}])
    sent.names.clear()
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write(
            [UpdateOne({"_id": i}, {"$inc": {"n": 1}}) for i in (1, 2, 3)], ordered=False
        )
    details = raised.value.details
    assert [(e["index"], e["code"]) for e in details["writeErrors"]] == [(0, 14), (2, 14)]
    assert (details["nMatched"], details["nModified"]) == (1, 1)
    assert sent.names == ["update"]


async def test_a_unique_index_refuses_a_second_document_with_its_key(coll: Collection) -> None:
    await coll.create_indexes([IndexModel([("name", 1)], unique=True)])
    await coll.insert_one({"_id": 1, "name": "taken"})
    with pytest.raises(DuplicateKeyError) as raised:
        await coll.insert_one({"_id": 2, "name": "taken"})
    assert (raised.value.details or {})["keyValue"] == {"name": "taken"}


async def test_count_documents_counts_the_matches(coll: Collection) -> None:
    await coll.insert_many([{"_id": i, "even": i % 2 == 0} for i in range(7)])
    assert await coll.count_documents({"even": True}) == 4


async def test_drop_database_drops_its_collections(client: Client, coll: Collection) -> None:
    await coll.insert_one({"_id": 1})
    await client.drop_database("test")
    assert await coll.count_documents({}) == 0
    assert await client["test"].list_collection_names() == []
