"""An update pipeline whose result has no `_id` keeps the document's, as MongoDB 8.0's pipeline
executor does (`$replaceRoot` of a subdocument, `$project` without `_id`), and an upsert's the
filter's; a result with another `_id` is refused (ImmutableField, 66), nothing stored."""

from __future__ import annotations

import pytest
from pymongo import UpdateOne
from pymongo.errors import BulkWriteError, WriteError

from embedded.rules import IMMUTABLE_FIELD
from tests.engine.fronts import Front


async def test_replace_root_keeps_the_id(front: Front) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one({"_id": 1, "t": {"u": 1}})
    pipeline = [{"$replaceRoot": {"newRoot": "$t"}}, {"$addFields": {"foo": 1}}]
    result = await coll.update_one({"_id": 1}, pipeline)
    assert result.modified_count == 1
    assert await coll.find({}).to_list() == [{"_id": 1, "u": 1, "foo": 1}]


async def test_a_bulk_update_and_a_projection_keep_it(front: Front) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one({"_id": 1, "a": 1, "b": 2})
    await coll.bulk_write([UpdateOne({"_id": 1}, [{"$project": {"_id": 0, "b": 1}}])])
    assert await coll.find({}).to_list() == [{"_id": 1, "b": 2}]


async def test_an_upsert_keeps_the_filters_id(front: Front) -> None:
    coll = front.collection("pipelines")
    pipeline = [{"$replaceWith": {"x": 1}}]
    result = await coll.update_one({"_id": 5}, pipeline, upsert=True)
    assert result.upserted_id == 5
    assert await coll.find({}).to_list() == [{"_id": 5, "x": 1}]


async def test_another_id_is_refused(front: Front) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one({"_id": 1, "t": {"_id": 2}})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, [{"$replaceRoot": {"newRoot": "$t"}}])
    assert (raised.value.code, (raised.value.details or {})["errmsg"]) == (
        IMMUTABLE_FIELD,
        "After applying the update, the (immutable) field '_id' was found to have been altered "
        "to _id: 2",
    )
    with pytest.raises(BulkWriteError):
        await coll.bulk_write([UpdateOne({"_id": 1}, [{"$replaceWith": "$t"}])])
    assert await coll.find({}).to_list() == [{"_id": 1, "t": {"_id": 2}}]
