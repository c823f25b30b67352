"""No `$`-prefixed field name inside `_id`, at any depth, as MongoDB 8.0 refuses it: an insert
(one, many, in a bulk) with the insert path's message, an upsert with the update path's, both
DollarPrefixedFieldName (52), and nothing stored. A DBRef's `$ref` and `$id` are stored."""

from __future__ import annotations

import bson
import pytest
from pymongo import InsertOne
from pymongo.errors import BulkWriteError, WriteError

from tests.engine.fronts import Front

INSERT_MESSAGE = "_id fields may not contain '$'-prefixed fields: $a is not valid for storage."

DOLLAR_PREFIXED_FIELD_NAME = 52  # the server's code (error_codes.yml)


async def test_insert_one_refuses_a_dollar_prefixed_name_in_the_id(front: Front) -> None:
    coll = front.collection("ids")
    with pytest.raises(WriteError) as raised:
        await coll.insert_one({"_id": {"$a": 1}})
    assert (raised.value.code, (raised.value.details or {})["errmsg"]) == (
        DOLLAR_PREFIXED_FIELD_NAME,
        INSERT_MESSAGE,
    )
    assert await coll.find({}).to_list() == []


async def test_a_dollar_prefixed_name_deep_in_the_id_is_refused(front: Front) -> None:
    coll = front.collection("ids")
    with pytest.raises(WriteError) as raised:
        await coll.insert_one({"_id": {"a": [{"$b": 1}]}})
    assert raised.value.code == DOLLAR_PREFIXED_FIELD_NAME
    assert await coll.find({}).to_list() == []


async def test_insert_many_and_bulk_inserts_report_it_as_a_write_error(front: Front) -> None:
    coll = front.collection("ids")
    with pytest.raises(BulkWriteError) as raised:
        await coll.insert_many([{"_id": 1}, {"_id": {"$a": 1}}, {"_id": 3}], ordered=False)
    [error] = (raised.value.details or {})["writeErrors"]
    assert (error["index"], error["code"], error["errmsg"]) == (
        1,
        DOLLAR_PREFIXED_FIELD_NAME,
        INSERT_MESSAGE,
    )
    with pytest.raises(BulkWriteError):
        await coll.bulk_write([InsertOne({"_id": {"x": {"$a": 1}}})])
    assert [doc["_id"] for doc in await coll.find({}).to_list()] == [1, 3]


async def test_an_upsert_refuses_it_with_the_update_paths_message(front: Front) -> None:
    coll = front.collection("ids")
    with pytest.raises(WriteError) as raised:
        await coll.update_one(
            {"k": 1}, [{"$set": {"_id": {"$literal": {"a": {"$b": 1}}}}}], upsert=True
        )
    assert (raised.value.code, (raised.value.details or {})["errmsg"]) == (
        DOLLAR_PREFIXED_FIELD_NAME,
        "The dollar ($) prefixed field '$b' in '_id.a.$b' is not allowed in the context of an "
        "update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
    )
    assert await coll.find({}).to_list() == []


async def test_a_dbref_in_the_id_is_stored(front: Front) -> None:
    coll = front.collection("ids")
    dbref = {"$ref": "users", "$id": 7}
    await coll.insert_one({"_id": dbref, "n": 1})
    [found] = await coll.find({}).to_list()
    # PyMongo decodes the stored subdocument as a `DBRef`: compared as BSON.
    assert bson.encode(found) == bson.encode({"_id": dbref, "n": 1})
