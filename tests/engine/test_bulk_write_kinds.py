"""bulk_write takes each of PyMongo's six write models, and counts as a server's replies do."""

from __future__ import annotations

from pymongo import DeleteMany, DeleteOne, InsertOne, ReplaceOne, UpdateMany, UpdateOne

from tests.engine.fronts import Front


async def test_every_write_model_in_one_bulk(front: Front) -> None:
    coll = front.collection("things")
    result = await coll.bulk_write(
        [
            InsertOne({"_id": 1, "n": 1}),
            InsertOne({"_id": 2, "n": 2}),
            InsertOne({"_id": 3, "n": 3}),
            UpdateMany({"n": {"$gte": 2}}, {"$inc": {"n": 10}}),
            UpdateOne({"_id": 1}, {"$set": {"one": True}}),
            ReplaceOne({"_id": 2}, {"replaced": True}),
            ReplaceOne({"_id": 7}, {"upserted": True}, upsert=True),
            DeleteOne({"_id": 1}),
            DeleteMany({"n": 13}),
        ]
    )
    assert (result.inserted_count, result.matched_count, result.modified_count) == (3, 4, 4)
    assert (result.upserted_ids, result.deleted_count) == ({6: 7}, 2)
    found = await coll.find({}, sort=[("_id", 1)]).to_list()
    assert found == [{"_id": 2, "replaced": True}, {"_id": 7, "upserted": True}]
