"""findOneAndReplace and findOneAndDelete answer the document before (or after) their write, as
PyMongo's methods do; a projection shapes it, a sort chooses it."""

from __future__ import annotations

import pytest
from pymongo import ReturnDocument

from tests.engine.fronts import Front


@pytest.fixture
async def things(front: Front) -> object:
    coll = front.collection("things")
    await coll.insert_many([{"_id": i, "n": i, "k": "a"} for i in range(1, 4)])
    return coll


async def test_replace_answers_the_document_before_or_after(front: Front, things: object) -> None:
    coll = front.collection("things")
    before = await coll.find_one_and_replace({"_id": 1}, {"n": 10})
    assert before == {"_id": 1, "n": 1, "k": "a"}
    after = await coll.find_one_and_replace(
        {"_id": 1}, {"n": 11}, return_document=ReturnDocument.AFTER, projection={"_id": 0}
    )
    assert after == {"n": 11}


async def test_replace_upserts_with_the_filter_id(front: Front, things: object) -> None:
    coll = front.collection("things")
    found = await coll.find_one_and_replace(
        {"_id": 9}, {"n": 9}, upsert=True, return_document=ReturnDocument.AFTER
    )
    assert found == {"_id": 9, "n": 9}
    assert await coll.find_one_and_replace({"_id": 8}, {"n": 8}) is None


async def test_delete_removes_the_first_in_sort_order(front: Front, things: object) -> None:
    coll = front.collection("things")
    deleted = await coll.find_one_and_delete({"k": "a"}, sort=[("n", -1)], projection=["n"])
    assert deleted == {"_id": 3, "n": 3}
    assert await coll.find_one_and_delete({"_id": 3}) is None
    assert await coll.count_documents({}) == 2
