"""`$`-prefixed and dotted field names outside `_id` are stored and read back as MongoDB 8.0 (5.0
and later) stores them: on insert (one, many, in a bulk), kept through later updates; a
replacement of a matched document may not have one at its top level (DollarPrefixedFieldName,
52, the update path's message), an upsert's replacement may."""

from __future__ import annotations

import pytest
from pymongo import InsertOne
from pymongo.errors import WriteError

from tests.engine.fronts import Front
from tests.engine.wire_support import Client

DOLLAR_PREFIXED_FIELD_NAME = 52  # the server's code (error_codes.yml)


async def test_a_top_level_dollar_prefixed_field_is_stored(front: Front) -> None:
    coll = front.collection("names")
    await coll.insert_one({"_id": 1, "$a": 1})
    await coll.insert_many([{"_id": 2, "$b": {"c": 2}}])
    await coll.bulk_write([InsertOne({"_id": 3, "x": 1, "$c": [3]})])
    assert await coll.find({}, sort=[("_id", 1)]).to_list() == [
        {"_id": 1, "$a": 1},
        {"_id": 2, "$b": {"c": 2}},
        {"_id": 3, "x": 1, "$c": [3]},
    ]


async def test_dotted_and_nested_dollar_names_are_stored(front: Front) -> None:
    coll = front.collection("names")
    await coll.insert_one({"_id": 1, "a.b": 1, "c": {"$d": 2, "e.f": 3}})
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a.b": 1, "c": {"$d": 2, "e.f": 3}}


async def test_updates_keep_the_dollar_prefixed_fields_in_place(front: Front) -> None:
    coll = front.collection("names")
    await coll.insert_one({"_id": 1, "$a": 1, "tags": ["x"], "n": 1})
    await coll.update_one({"_id": 1}, {"$push": {"tags": "y"}, "$unset": {"n": ""}})
    await coll.update_one({"_id": 1}, {"$set": {"m": 2}})
    await coll.update_one({"_id": 1}, [{"$set": {"k": "$m"}}])
    assert await coll.find_one({"_id": 1}) == {
        "_id": 1,
        "$a": 1,
        "tags": ["x", "y"],
        "m": 2,
        "k": 2,
    }


async def test_a_replacement_may_not_have_one_at_its_top_level(client: Client) -> None:
    coll = client["test"]["names"]
    await coll.insert_one({"_id": 1, "a": 1})
    with pytest.raises(WriteError) as raised:
        await coll.replace_one({"_id": 1}, {"_id": 1, "$a": 2})
    assert (raised.value.code, (raised.value.details or {})["errmsg"]) == (
        DOLLAR_PREFIXED_FIELD_NAME,
        "The dollar ($) prefixed field '$a' in '$a' is not allowed in the context of an "
        "update's replacement document. Consider using an aggregation pipeline with $replaceWith.",
    )
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": 1}


async def test_an_upserted_replacement_may(client: Client) -> None:
    coll = client["test"]["names"]
    result = await coll.replace_one({"_id": 1}, {"x": 1, "$a": 2}, upsert=True)
    assert result.upserted_id == 1
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "x": 1, "$a": 2}


async def test_an_update_operator_may_not_write_one(front: Front) -> None:
    coll = front.collection("names")
    await coll.insert_one({"_id": 1, "a": 1})
    for update in ({"$inc": {"$a": 1}}, {"$set": {"$b.c": 1}}, {"$rename": {"a": "$d"}}):
        with pytest.raises(WriteError) as raised:
            await coll.update_one({"_id": 1}, update)
        assert raised.value.code == DOLLAR_PREFIXED_FIELD_NAME
    # No document to apply it to: no error, as on a server.
    result = await coll.update_one({"_id": 2}, {"$inc": {"$a": 1}})
    assert result.matched_count == 0
    assert await coll.find({}).to_list() == [{"_id": 1, "a": 1}]


async def test_unset_removes_one(front: Front) -> None:
    coll = front.collection("names")
    await coll.insert_one({"_id": 1, "$a": 1, "$b": 2, "n": [1]})
    await coll.update_one({"_id": 1}, {"$unset": {"$a": ""}, "$push": {"n": 2}})
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "$b": 2, "n": [1, 2]}


async def test_a_rename_from_one_is_refused_clearly(front: Front) -> None:
    coll = front.collection("names")
    await coll.insert_one({"_id": 1, "$a": 1})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$rename": {"$a": "b"}})
    assert raised.value.code == 238  # NotImplemented: never a rename that leaves `$a` in place
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "$a": 1}
