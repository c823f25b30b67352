"""Reads and writes by key examine the documents they name, whatever the collection's size:
`_id` and unique keys are found by hashing, a sorted page by walking an index from where it
starts (`embedded/planner/plans.py`). The engine counts what each command examines, as a server's
explain does (`engine.examined`)."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo import DeleteOne, IndexModel, ReturnDocument, UpdateOne

from tests.engine.fronts import Front

SIZES = [10, 10_000]


async def _filled(front: Front, size: int) -> Any:
    """`size` users: `_id` "c<customer>_<n>" (50 per customer), a unique `userId`, a `group`."""
    users = front.collection("users")
    await users.create_indexes([IndexModel([("userId", 1)], unique=True, name="userId_unique")])
    docs = [
        {"_id": f"c{i // 50:04d}_{i % 50:04d}", "userId": f"u{i}", "n": i, "group": i % 2}
        for i in range(size)
    ]
    await users.insert_many(docs)
    front.examined.reset()
    return users


def _examined(front: Front) -> int:
    return front.examined.by_namespace["test.users"]


@pytest.mark.parametrize("size", SIZES)
async def test_find_by_id_examines_one_document(front: Front, size: int) -> None:
    users = await _filled(front, size)
    assert (await users.find_one({"_id": "c0000_0005"}))["n"] == 5
    assert _examined(front) == 1


@pytest.mark.parametrize("size", SIZES)
async def test_find_by_id_in_examines_the_documents_named(front: Front, size: int) -> None:
    users = await _filled(front, size)
    found = await users.find({"_id": {"$in": ["c0000_0007", "c0000_0002", "nope"]}}).to_list()
    assert [doc["n"] for doc in found] == [2, 7]  # natural order, as a scan gives it
    assert _examined(front) == 2


@pytest.mark.parametrize("size", SIZES)
async def test_find_by_unique_key_examines_one_document(front: Front, size: int) -> None:
    users = await _filled(front, size)
    assert (await users.find_one({"userId": "u3"}))["n"] == 3
    assert _examined(front) == 1


@pytest.mark.parametrize("size", SIZES)
async def test_update_by_id_examines_one_document(front: Front, size: int) -> None:
    users = await _filled(front, size)
    result = await users.update_one({"_id": "c0000_0004"}, {"$inc": {"n": 1}})
    assert (result.matched_count, result.modified_count) == (1, 1)
    assert _examined(front) == 1


@pytest.mark.parametrize("size", SIZES)
async def test_pipeline_update_by_unique_key_examines_one_document(front: Front, size: int) -> None:
    users = await _filled(front, size)
    after = await users.find_one_and_update(
        {"userId": "u4"},
        [{"$set": {"m": {"$add": ["$n", 1]}}}],
        return_document=ReturnDocument.AFTER,
    )
    assert after["m"] == 5
    assert _examined(front) == 1


@pytest.mark.parametrize("size", SIZES)
async def test_bulk_writes_by_key_examine_one_document_each(front: Front, size: int) -> None:
    users = await _filled(front, size)
    await users.bulk_write(
        [
            UpdateOne({"_id": "c0000_0001"}, {"$set": {"x": 1}}),
            UpdateOne({"userId": "u2"}, {"$set": {"x": 2}}),
            DeleteOne({"_id": "c0000_0003"}),
        ]
    )
    assert _examined(front) == 3


@pytest.mark.parametrize("size", SIZES)
async def test_replacement_by_unique_key_examines_one_document(front: Front, size: int) -> None:
    users = await _filled(front, size)
    replacement = {"userId": "u2", "n": -2}
    await users.replace_one({"userId": "u2"}, replacement)
    assert _examined(front) == 1
    assert await users.find_one({"userId": "u2"}, {"_id": 0}) == replacement


@pytest.mark.parametrize("size", SIZES)
async def test_delete_by_unique_key_examines_one_document(front: Front, size: int) -> None:
    users = await _filled(front, size)
    assert (await users.delete_one({"userId": "u9"})).deleted_count == 1
    assert _examined(front) == 1
    assert await users.count_documents({"userId": "u9"}) == 0


@pytest.mark.parametrize("size", SIZES)
async def test_id_range_page_examines_the_page(front: Front, size: int) -> None:
    users = await _filled(front, size)
    where = {"_id": {"$gte": "c0000_", "$lt": "c0000`"}}
    page = await users.find(where, sort=[("_id", -1)], limit=3).to_list()
    assert [doc["n"] for doc in page] == [min(size, 50) - 1 - k for k in range(3)]
    assert _examined(front) == 3


@pytest.mark.parametrize("size", SIZES)
async def test_compound_index_page_examines_the_page(front: Front, size: int) -> None:
    users = await _filled(front, size)
    await users.create_indexes([IndexModel([("group", 1), ("n", 1)], name="group_n")])
    pipeline = [{"$match": {"group": 1, "n": {"$gt": 2}}}, {"$sort": {"n": 1}}, {"$limit": 2}]
    found = await (await users.aggregate(pipeline)).to_list()
    assert [doc["n"] for doc in found] == [3, 5]
    assert _examined(front) == 2


async def test_a_filter_no_index_serves_scans_every_document(front: Front) -> None:
    users = await _filled(front, 100)
    assert len(await users.find({"n": {"$gte": 90}}).to_list()) == 10
    assert _examined(front) == 100


async def test_find_by_unique_key_finds_an_array_holding_it(front: Front) -> None:
    users = await _filled(front, 10)
    await users.insert_one({"_id": "array", "userId": ["x1", "x2"], "n": -1})
    assert [doc["n"] for doc in await users.find({"userId": "x2"}).to_list()] == [-1]
    front.examined.reset()
    assert [doc["n"] for doc in await users.find({"userId": "u3"}).to_list()] == [3]
    assert _examined(front) == 2  # the key's document, and the array the index cannot file


async def test_find_by_unique_key_equates_numbers_as_a_server_does(front: Front) -> None:
    users = await _filled(front, 10)
    await users.insert_one({"_id": "number", "userId": 7, "n": -7})
    assert (await users.find_one({"userId": 7.0}))["n"] == -7
    assert await users.find_one({"userId": "7"}) is None
