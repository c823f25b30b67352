"""A stage, an expression operator or a query operator no server knows fails with the server's
code and message, in process as over the wire: an unknown stage 40324, a stage of two fields
40323, an unknown expression in `$project` 31325 (in the stage's context) and in a `find`
projection (without it), elsewhere 168
(InvalidPipelineOperator), an unknown query operator 2 (BadValue); a stage a server knows and
the engine does not run is refused with 238. In an update or a delete, the failure is the
statement's: a `WriteError`."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo.errors import OperationFailure, WriteError

from tests.engine.fronts import Front


async def _aggregate_fails(front: Front, pipeline: list[Any]) -> OperationFailure:
    things = front.collection("things")
    await things.replace_one({"_id": 1}, {"x": 1}, upsert=True)
    with pytest.raises(OperationFailure) as raised:
        await (await things.aggregate(pipeline)).to_list()
    return raised.value


def _said(exc: OperationFailure) -> tuple[int | None, str]:
    return exc.code, str((exc.details or {}).get("errmsg", exc))


async def test_an_unknown_stage_is_unrecognized(front: Front) -> None:
    failure = await _aggregate_fails(front, [{"$match": {}}, {"$noSuchStage": {}}])
    assert _said(failure) == (40324, "Unrecognized pipeline stage name: '$noSuchStage'")


async def test_a_stage_of_two_fields_is_refused(front: Front) -> None:
    failure = await _aggregate_fails(front, [{"$match": {}, "$project": {"x": 1}}])
    message = "A pipeline stage specification object must contain exactly one field."
    assert _said(failure) == (40323, message)


async def test_a_stage_the_engine_does_not_run_is_refused(front: Front) -> None:
    failure = await _aggregate_fails(front, [{"$planCacheStats": {}}])
    assert failure.code == 238


async def test_an_unknown_expression_in_project_is_unknown(front: Front) -> None:
    failure = await _aggregate_fails(front, [{"$project": {"y": {"$foo": 1}}}])
    message = "Invalid $project :: caused by :: Unknown expression $foo"
    assert _said(failure) == (31325, message)


async def test_an_unknown_expression_in_a_find_projection_is_unknown(front: Front) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "x": 1})
    with pytest.raises(OperationFailure) as raised:
        await things.find({}, {"y": {"$foo": 1}}).to_list()
    assert _said(raised.value) == (31325, "Unknown expression $foo")


async def test_an_unknown_expression_elsewhere_is_unrecognized(front: Front) -> None:
    failure = await _aggregate_fails(front, [{"$addFields": {"y": {"$foo": 1}}}])
    assert _said(failure) == (168, "Unrecognized expression '$foo'")
    failure = await _aggregate_fails(front, [{"$group": {"_id": {"$foo": "$x"}}}])
    assert _said(failure) == (168, "Unrecognized expression '$foo'")
    with pytest.raises(OperationFailure) as raised:
        await front.collection("things").find({"$expr": {"$foo": 1}}).to_list()
    assert _said(raised.value) == (168, "Unrecognized expression '$foo'")


async def test_an_unknown_query_operator_is_a_bad_value(front: Front) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "x": 1})
    with pytest.raises(OperationFailure) as raised:
        await things.find({"x": {"$foo": 1}}).to_list()
    assert _said(raised.value) == (2, "unknown operator: $foo")
    with pytest.raises(OperationFailure) as raised:
        await things.count_documents({"x": {"$foo": 1}})
    assert _said(raised.value) == (2, "unknown operator: $foo")


async def test_an_unknown_query_operator_fails_an_update_as_a_write_error(front: Front) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "x": 1})
    with pytest.raises(WriteError) as raised:
        await things.update_one({"x": {"$foo": 1}}, {"$set": {"y": 1}})
    assert _said(raised.value) == (2, "unknown operator: $foo")
    with pytest.raises(WriteError) as raised:
        await things.delete_many({"x": {"$foo": 1}})
    assert raised.value.code == 2
