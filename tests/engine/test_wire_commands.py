"""The wire front's commands beyond the common paths: cursors, options of find and
findAndModify, multi-statement writes, and the errors a server names."""

from __future__ import annotations

import pytest
from pymongo import DeleteMany, IndexModel, ReplaceOne, ReturnDocument, UpdateMany
from pymongo.errors import CursorNotFound, OperationFailure

from tests.engine.wire_support import Client, Collection, SentCommands


@pytest.fixture
async def coll(client: Client) -> Collection:
    things = client["test"]["things"]
    await things.insert_many([{"_id": i, "n": i % 3, "tag": f"t{i}"} for i in range(10)])
    return things


async def test_find_sorts_skips_limits_and_projects(coll: Collection) -> None:
    docs = await coll.find(
        {"n": {"$gt": 0}}, {"tag": 1, "_id": 0}, sort=[("_id", -1)], skip=1, limit=3
    ).to_list()
    assert docs == [{"tag": "t7"}, {"tag": "t5"}, {"tag": "t4"}]


async def test_a_batch_size_sets_the_size_of_every_batch(
    coll: Collection, sent: SentCommands
) -> None:
    sent.names.clear()
    assert len(await coll.find({}, batch_size=4).to_list()) == 10
    assert sent.names == ["find", "getMore", "getMore"]


async def test_find_one_is_a_single_batch(coll: Collection, sent: SentCommands) -> None:
    sent.names.clear()
    assert (await coll.find_one({}, sort=[("_id", -1)]) or {})["_id"] == 9
    assert sent.names == ["find"]


async def test_closing_a_cursor_kills_it(coll: Collection, sent: SentCommands) -> None:
    cursor = coll.find({}, batch_size=2)
    assert len(await cursor.to_list(2)) == 2
    await cursor.close()
    assert sent.names[-1] == "killCursors"


async def test_a_get_more_of_an_unknown_cursor_is_cursor_not_found(client: Client) -> None:
    with pytest.raises(CursorNotFound) as raised:
        await client["test"].command({"getMore": 12345, "collection": "things"})
    assert raised.value.code == 43


async def test_an_unknown_command_is_command_not_found(client: Client) -> None:
    with pytest.raises(OperationFailure) as raised:
        await client["test"].command("frobnicate")
    assert raised.value.code == 59
    assert (raised.value.details or {})["errmsg"] == "no such command: 'frobnicate'"


async def test_the_count_command_counts(coll: Collection) -> None:
    assert await coll.estimated_document_count() == 10
    reply = await coll.database.command({"count": "things", "query": {"n": 0}, "skip": 1})
    assert reply["n"] == 3


async def test_find_one_and_update_returns_the_document_after_projected(coll: Collection) -> None:
    after = await coll.find_one_and_update(
        {"n": 2},
        {"$inc": {"n": 10}},
        projection={"n": 1},
        sort=[("_id", -1)],
        return_document=ReturnDocument.AFTER,
    )
    assert after == {"_id": 8, "n": 12}


async def test_find_one_and_update_upserts(coll: Collection) -> None:
    before = await coll.find_one_and_update({"_id": 99}, {"$set": {"n": 1}}, upsert=True)
    assert before is None
    assert await coll.find_one({"_id": 99}) == {"_id": 99, "n": 1}


async def test_find_one_and_delete_removes_the_first_in_sort_order(coll: Collection) -> None:
    removed = await coll.find_one_and_delete({"n": 1}, sort=[("_id", -1)])
    assert (removed or {})["_id"] == 7
    assert await coll.count_documents({}) == 9


async def test_a_multi_update_changes_every_match(coll: Collection) -> None:
    result = await coll.bulk_write([UpdateMany({"n": 0}, {"$set": {"zero": True}})])
    assert (result.matched_count, result.modified_count) == (4, 4)
    assert await coll.count_documents({"zero": True}) == 4


async def test_a_replacement_keeps_only_the_id(coll: Collection) -> None:
    await coll.bulk_write([ReplaceOne({"_id": 1}, {"tag": "replaced"})])
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "tag": "replaced"}


async def test_a_delete_without_a_limit_deletes_every_match(coll: Collection) -> None:
    result = await coll.bulk_write([DeleteMany({"n": 2})])
    assert result.deleted_count == 3
    assert await coll.count_documents({"n": 2}) == 0


async def test_update_many_upserts_one_document(coll: Collection) -> None:
    result = await coll.update_many({"n": 7}, {"$set": {"new": True}}, upsert=True)
    assert result.upserted_id is not None
    assert await coll.count_documents({"n": 7, "new": True}) == 1


async def test_list_indexes_names_each_index(coll: Collection) -> None:
    await coll.create_indexes([IndexModel([("tag", 1)], unique=True, name="by_tag")])
    indexes = {index["name"]: index async for index in await coll.list_indexes()}
    assert set(indexes) == {"_id_", "by_tag"}
    assert (indexes["by_tag"]["key"], indexes["by_tag"]["unique"]) == ({"tag": 1}, True)


async def test_a_unique_index_the_documents_break_is_refused(coll: Collection) -> None:
    with pytest.raises(OperationFailure) as raised:
        await coll.create_indexes([IndexModel([("n", 1)], unique=True)])
    assert raised.value.code == 11000


async def test_drop_drops_the_collection(coll: Collection) -> None:
    await coll.drop()
    assert await coll.count_documents({}) == 0
    assert "things" not in await coll.database.list_collection_names()
