"""A variable nothing defines fails the command as on a server (17276, "Use of undefined
variable: <name>"), in a find filter, an aggregation and an update; never read as missing.
The system variables read as a server reads them: `$$REMOVE` missing, `$$NOW` the time."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pymongo.errors import OperationFailure, WriteError

from tests.engine.fronts import Front

UNDEFINED_VARIABLE = 17276
MESSAGE = "Use of undefined variable: nope"


async def _coll(front: Front) -> Any:
    coll = front.collection("things")
    await coll.insert_many([{"_id": 1, "a": 1}, {"_id": 2}])
    return coll


def _is_undefined(exc: OperationFailure) -> bool:
    return exc.code == UNDEFINED_VARIABLE and MESSAGE in str(exc)


async def test_find_filter_fails_on_an_undefined_variable(front: Front) -> None:
    coll = await _coll(front)
    with pytest.raises(OperationFailure) as raised:
        await coll.find({"$expr": {"$eq": ["$a", "$$nope"]}}).to_list()
    assert _is_undefined(raised.value)


async def test_aggregation_fails_on_an_undefined_variable(front: Front) -> None:
    coll = await _coll(front)
    with pytest.raises(OperationFailure) as raised:
        await (await coll.aggregate([{"$project": {"x": "$$nope.field"}}])).to_list()
    assert _is_undefined(raised.value)


async def test_a_variable_given_alone_to_an_operator_is_checked_too(front: Front) -> None:
    coll = await _coll(front)
    with pytest.raises(OperationFailure) as raised:
        await (await coll.aggregate([{"$project": {"x": {"$toUpper": "$$nope"}}}])).to_list()
    assert _is_undefined(raised.value)


async def test_update_pipeline_fails_on_an_undefined_variable(front: Front) -> None:
    coll = await _coll(front)
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, [{"$set": {"b": "$$nope"}}])
    assert _is_undefined(raised.value)
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": 1}


async def test_remove_is_missing_and_now_is_the_time(front: Front) -> None:
    coll = await _coll(front)
    stages = [{"$match": {"_id": 1}}, {"$project": {"gone": "$$REMOVE", "now": "$$NOW"}}]
    [found] = await (await coll.aggregate(stages)).to_list()
    assert set(found) == {"_id", "now"}
    assert abs(found["now"] - datetime.now(UTC)) < timedelta(minutes=1)


async def test_a_filter_fails_before_any_document_is_read(front: Front) -> None:
    coll = front.collection("empty")
    filter = {"$or": [{"_id": 1}, {"$expr": {"$eq": ["$a", "$$nope"]}}]}
    with pytest.raises(OperationFailure) as raised:
        await coll.find(filter).to_list()
    assert _is_undefined(raised.value)
    with pytest.raises(OperationFailure) as raised:
        await coll.delete_many(filter)
    assert _is_undefined(raised.value)


async def test_variables_an_expression_defines_are_defined(front: Front) -> None:
    coll = await _coll(front)
    scoped = {
        "$let": {
            "vars": {"two": 2},
            "in": {
                "$in": [
                    "$$two",
                    {"$map": {"input": [1, 2], "as": "n", "in": {"$add": ["$$n", "$$one"]}}},
                ]
            },
        }
    }
    reduced = {"$reduce": {"input": [1], "initialValue": 0, "in": {"$add": ["$$this", "$$value"]}}}
    filter = {"$expr": {"$and": [scoped, {"$eq": [reduced, 1]}, {"$eq": ["$_id", "$$ROOT._id"]}]}}
    found = await coll.find(filter, let={"one": 1}).to_list()
    assert [doc["_id"] for doc in found] == [1, 2]
