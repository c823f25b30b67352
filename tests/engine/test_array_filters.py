"""Array updates, `$[]` and `$[<identifier>]` with `arrayFilters`, at any depth, as MongoDB 8.0
applies them: each names the elements its filter matches in the document as it was; an array
on the way must exist (BadValue, 2); two names of one element conflict (40); the filters are
checked when the update is parsed, whether or not a document matches (an identifier without a
filter: BadValue; a filter not used: FailedToParse, 9)."""

from __future__ import annotations

import pytest
from pymongo import UpdateOne
from pymongo.errors import BulkWriteError, WriteError

from tests.engine.fronts import Front

BAD_VALUE, FAILED_TO_PARSE, CONFLICTING_UPDATE_OPERATORS = 2, 9, 40  # the server's codes
DOC = {"_id": 3, "y": [{"b": 5, "c": [{"d": 2}, {"d": 1}]}, {"b": 6, "c": [{"d": 1}]}]}


async def test_nested_array_filters_set_the_elements_both_match(front: Front) -> None:
    coll = front.collection("arrays")
    await coll.insert_one(DOC)
    update = {"$set": {"y.$[i].c.$[j].d": 0}}
    result = await coll.update_one({"_id": 3}, update, array_filters=[{"i.b": 5}, {"j.d": 1}])
    assert result.modified_count == 1
    assert (await coll.find_one({"_id": 3}))["y"] == [
        {"b": 5, "c": [{"d": 2}, {"d": 0}]},
        {"b": 6, "c": [{"d": 1}]},
    ]


async def test_no_element_matched_changes_nothing(front: Front) -> None:
    coll = front.collection("arrays")
    await coll.insert_one(DOC)
    update = {"$set": {"y.$[i].c.$[j].d": 0}}
    result = await coll.update_one({"_id": 3}, update, array_filters=[{"i.b": 5}, {"j.d": 3}])
    assert (result.matched_count, result.modified_count) == (1, 0)
    assert await coll.find_one({"_id": 3}) == DOC


async def test_all_elements_and_filters_of_array_elements(front: Front) -> None:
    coll = front.collection("arrays")
    await coll.insert_one({"_id": 1, "a": [[0], [1]], "n": [1, 2, 3]})
    await coll.update_one({"_id": 1}, {"$addToSet": {"a.$[i]": 2}}, array_filters=[{"i": 0}])
    await coll.update_one({"_id": 1}, {"$unset": {"n.$[]": ""}})
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": [[0, 2], [1]], "n": [None] * 3}


async def test_a_bulk_update_applies_them(front: Front) -> None:
    coll = front.collection("arrays")
    await coll.insert_one(DOC)
    request = UpdateOne({}, {"$inc": {"y.$[].c.$[k].d": 10}}, array_filters=[{"k.d": {"$gt": 1}}])
    await coll.bulk_write([request])
    assert [[c["d"] for c in y["c"]] for y in (await coll.find_one({}))["y"]] == [[12, 1], [1]]


async def test_an_array_on_the_way_must_exist(front: Front) -> None:
    coll = front.collection("arrays")
    await coll.insert_one({"_id": 1, "y": [{"b": 1}], "s": 5})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$set": {"y.$[].c.$[].d": 1}})
    assert (raised.value.code, (raised.value.details or {})["errmsg"]) == (
        BAD_VALUE,
        "The path 'y.0.c' must exist in the document in order to apply array updates.",
    )
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$set": {"s.$[]": 1}})
    assert (raised.value.details or {})["errmsg"] == (
        "Cannot apply array updates to non-array element s: 5"
    )
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "y": [{"b": 1}], "s": 5}


async def test_two_names_of_one_element_conflict(front: Front) -> None:
    coll = front.collection("arrays")
    await coll.insert_one({"_id": 1, "a": [{"x": 1}]})
    with pytest.raises(WriteError) as raised:
        await coll.update_one(
            {"_id": 1},
            {"$set": {"a.$[i].x": 2, "a.$[j].x": 3}},
            array_filters=[{"i.x": 1}, {"j.x": {"$gt": 0}}],
        )
    assert raised.value.code == CONFLICTING_UPDATE_OPERATORS
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": [{"x": 1}]}


async def test_filters_are_checked_when_nothing_matches(front: Front) -> None:
    coll = front.collection("arrays")
    with pytest.raises(WriteError) as raised:
        await coll.update_one(
            {"_id": 9}, {"$set": {"a.$[i]": 5}}, array_filters=[{"i": 0}, {"j": 0}]
        )
    assert (raised.value.code, (raised.value.details or {})["errmsg"]) == (
        FAILED_TO_PARSE,
        "The array filter for identifier 'j' was not used in the update { $set: { a.$[i]: 5 } }",
    )
    with pytest.raises(BulkWriteError) as bulk_raised:
        await coll.bulk_write([UpdateOne({"_id": 9}, {"$set": {"a.$[k]": 5}})])
    [error] = (bulk_raised.value.details or {})["writeErrors"]
    assert (error["code"], error["errmsg"]) == (
        BAD_VALUE,
        "No array filter found for identifier 'k' in path 'a.$[k]'",
    )


async def test_an_upsert_walks_the_array_its_filter_seeds(front: Front) -> None:
    coll = front.collection("arrays")
    await coll.update_one(
        {"_id": 1, "a": [1, 2, 3]},
        {"$set": {"a.$[big]": 0}},
        upsert=True,
        array_filters=[{"big": {"$gte": 2}}],
    )
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": [1, 0, 0]}
