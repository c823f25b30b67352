"""A command's `let` variables reach the `$expr` of its filter, as on a server: in `find`, the
deletes, findAndModify and the updates (the filter, and an update pipeline's stages), in process
and over the wire. `$$name` never reads as missing there."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo import DeleteOne, ReturnDocument, UpdateOne

from tests.engine.fronts import Front

# `name` is missing from document 2: a `$$name` read as missing would match it.
DOCS: list[dict[str, Any]] = [{"_id": 1, "name": "ada"}, {"_id": 2}, {"_id": 3, "name": "bob"}]
BY_NAME = {"$expr": {"$eq": ["$name", "$$name"]}}
LET = {"name": "ada"}


async def _coll(front: Front) -> Any:
    coll = front.collection("people")
    await coll.insert_many(DOCS)
    return coll


async def _ids(coll: Any) -> list[int]:
    return [doc["_id"] for doc in await coll.find({}, sort=[("_id", 1)]).to_list()]


async def test_find_reads_let_in_its_filter(front: Front) -> None:
    coll = await _coll(front)
    assert await coll.find(BY_NAME, let=LET).to_list() == [DOCS[0]]


async def test_find_reads_let_under_and_or(front: Front) -> None:
    coll = await _coll(front)
    filter = {"$or": [{"_id": 3}, {"$and": [BY_NAME]}]}
    found = await coll.find(filter, let=LET, sort=[("_id", 1)]).to_list()
    assert [doc["_id"] for doc in found] == [1, 3]


async def test_delete_one_reads_let_in_its_filter(front: Front) -> None:
    coll = await _coll(front)
    result = await coll.delete_one(BY_NAME, let=LET)
    assert result.deleted_count == 1
    assert await _ids(coll) == [2, 3]


async def test_delete_many_reads_let_in_its_filter(front: Front) -> None:
    coll = await _coll(front)
    result = await coll.delete_many({"$expr": {"$ne": ["$name", "$$name"]}}, let=LET)
    assert result.deleted_count == 2  # a missing name is not "ada" either
    assert await _ids(coll) == [1]


async def test_bulk_delete_reads_the_bulk_let(front: Front) -> None:
    coll = await _coll(front)
    result = await coll.bulk_write([DeleteOne(BY_NAME)], let=LET)
    assert result.deleted_count == 1
    assert await _ids(coll) == [2, 3]


async def test_find_one_and_delete_reads_let_in_its_filter(front: Front) -> None:
    coll = await _coll(front)
    if not hasattr(coll, "find_one_and_delete"):
        pytest.skip("the in-process adapter has no find_one_and_delete yet")
    assert await coll.find_one_and_delete(BY_NAME, let=LET) == DOCS[0]
    assert await _ids(coll) == [2, 3]


async def test_update_one_reads_let_in_its_filter(front: Front) -> None:
    coll = await _coll(front)
    result = await coll.update_one(BY_NAME, {"$set": {"seen": True}}, let=LET)
    assert result.matched_count == 1
    assert await coll.find_one({"seen": True}) == {**DOCS[0], "seen": True}


async def test_update_pipeline_reads_let_in_its_filter_and_stages(front: Front) -> None:
    coll = await _coll(front)
    pipeline = [{"$set": {"greeting": {"$concat": ["hello ", "$$name"]}}}]
    await coll.update_one(BY_NAME, pipeline, let=LET)
    assert await coll.find_one({"greeting": {"$exists": True}}) == {
        **DOCS[0],
        "greeting": "hello ada",
    }


async def test_bulk_update_reads_the_bulk_let(front: Front) -> None:
    coll = await _coll(front)
    result = await coll.bulk_write([UpdateOne(BY_NAME, {"$set": {"seen": True}})], let=LET)
    assert result.matched_count == 1
    assert await coll.find_one({"seen": True}) == {**DOCS[0], "seen": True}


async def test_find_one_and_update_reads_let_in_its_filter(front: Front) -> None:
    coll = await _coll(front)
    found = await coll.find_one_and_update(
        BY_NAME, {"$set": {"seen": True}}, let=LET, return_document=ReturnDocument.AFTER
    )
    assert found == {**DOCS[0], "seen": True}


async def test_a_later_match_stage_reads_let_under_or(front: Front) -> None:
    coll = await _coll(front)
    stages = [{"$set": {"seen": True}}, {"$match": {"$or": [BY_NAME]}}]
    found = await (await coll.aggregate(stages, let=LET)).to_list()
    assert found == [{**DOCS[0], "seen": True}]


async def test_find_projection_reads_let(front: Front) -> None:
    coll = await _coll(front)
    found = await coll.find(BY_NAME, {"greeting": "$$name"}, let=LET).to_list()
    assert found == [{"_id": 1, "greeting": "ada"}]


async def test_find_one_and_update_projection_reads_let(front: Front) -> None:
    coll = await _coll(front)
    found = await coll.find_one_and_update(
        BY_NAME, {"$set": {"seen": True}}, projection={"greeting": "$$name"}, let=LET
    )
    assert found == {"_id": 1, "greeting": "ada"}
