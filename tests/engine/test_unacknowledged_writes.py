"""A write under `w: 0` is done and answers nothing: its result is unacknowledged (its counts
raise `InvalidOperation`, as PyMongo's do) and its failure is not seen."""

from __future__ import annotations

import pytest
from pymongo import InsertOne, UpdateOne
from pymongo.errors import InvalidOperation
from pymongo.write_concern import WriteConcern

from tests.engine.fronts import Front

UNACKNOWLEDGED = WriteConcern(w=0)


async def _stored(front: Front) -> list[object]:
    return list(await front.collection("things").find({}, sort=[("_id", 1)]).to_list())


async def test_writes_answer_unacknowledged_results(front: Front) -> None:
    coll = front.collection("things").with_options(write_concern=UNACKNOWLEDGED)
    inserted = await coll.insert_one({"_id": 1, "n": 1})
    assert inserted.acknowledged is False
    updated = await coll.update_one({"_id": 1}, {"$set": {"n": 2}})
    assert updated.acknowledged is False
    with pytest.raises(InvalidOperation):
        updated.matched_count  # noqa: B018 (the property raises)
    deleted = await coll.delete_many({"_id": 5})
    assert deleted.acknowledged is False
    with pytest.raises(InvalidOperation):
        deleted.deleted_count  # noqa: B018
    bulk = await coll.bulk_write([InsertOne({"_id": 2}), UpdateOne({"_id": 2}, {"$set": {"n": 3}})])
    assert bulk.acknowledged is False
    assert await _stored(front) == [{"_id": 1, "n": 2}, {"_id": 2, "n": 3}]


async def test_a_failed_unacknowledged_write_is_not_seen(front: Front) -> None:
    await front.collection("things").insert_one({"_id": 1})
    coll = front.collection("things").with_options(write_concern=UNACKNOWLEDGED)
    duplicate = await coll.insert_one({"_id": 1, "again": True})
    assert duplicate.acknowledged is False
    assert await _stored(front) == [{"_id": 1}]


async def test_the_default_write_concern_acknowledges(front: Front) -> None:
    coll = front.collection("things").with_options(write_concern=WriteConcern(w=1))
    assert (await coll.insert_one({"_id": 1})).acknowledged is True
    assert (await coll.update_many({}, {"$set": {"n": 1}})).modified_count == 1
