"""Update pipelines of `$set`, `$addFields` and `$unset` stages, and an update's `let`
variables, give a server's documents, in process and over the wire."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from pymongo import UpdateOne
from pymongo.errors import WriteError

from embedded.expressions import variables
from embedded.rules import OVERFLOW
from tests.engine.fronts import Front

DOC = {"_id": 1, "a": 1, "b": {"c": 2}, "list": [1, 2]}


async def _updated(front: Front, pipeline: list[dict[str, Any]], **options: Any) -> Any:
    coll = front.collection("pipelines")
    await coll.insert_one(DOC)
    await coll.update_one({"_id": 1}, pipeline, **options)
    return await coll.find_one({"_id": 1})


async def test_set_stage_reads_the_document_as_it_was_before_the_stage(front: Front) -> None:
    found = await _updated(front, [{"$set": {"a": 10, "copy": "$a"}}])
    assert found == {**DOC, "a": 10, "copy": 1}


async def test_set_stage_keeps_field_order_and_adds_new_fields_last(front: Front) -> None:
    found = await _updated(front, [{"$set": {"new": 0, "a": 2}}])
    assert list(found) == ["_id", "a", "b", "list", "new"]


async def test_set_stage_removes_a_field_whose_value_is_missing(front: Front) -> None:
    found = await _updated(front, [{"$set": {"a": "$$REMOVE", "list": "$nothing"}}])
    assert found == {"_id": 1, "b": {"c": 2}}


async def test_unset_stage_removes_fields(front: Front) -> None:
    found = await _updated(front, [{"$unset": ["a", "list"]}, {"$set": {"d": "$a"}}])
    assert found == {"_id": 1, "b": {"c": 2}}


async def test_update_pipeline_reads_the_let_variables(front: Front) -> None:
    pipeline = [{"$set": {"a": {"$add": ["$a", "$$step"]}, "text": "$$text"}}]
    let = {"step": {"$literal": 5}, "text": {"$literal": "$a"}}
    found = await _updated(front, pipeline, let=let)
    assert (found["a"], found["text"]) == (6, "$a")


async def test_bulk_write_let_is_every_statements(front: Front) -> None:
    coll = front.collection("pipelines")
    await coll.insert_many([{"_id": n, "a": n} for n in range(3)])
    step = {"$getField": {"field": {"$toString": "$_id"}, "input": "$$steps"}}
    pipeline = [{"$set": {"a": {"$add": ["$a", step]}}}]
    requests = [UpdateOne({"_id": n}, pipeline) for n in range(3)]
    let = {"steps": {"$literal": {"0": 10, "1": 20, "2": 30}}}
    result = await coll.bulk_write(requests, ordered=False, let=let)
    assert result.modified_count == 3
    found = await coll.find({}, sort=[("_id", 1)]).to_list()
    assert [doc["a"] for doc in found] == [10, 21, 32]


async def test_update_pipeline_reads_a_naive_let_date_as_utc(front: Front) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one({"_id": 1, "at": datetime(2024, 1, 1, tzinfo=UTC)})
    pipeline = [{"$set": {"same": {"$eq": ["$at", "$$when"]}}}]
    let = {"when": {"$literal": datetime(2024, 1, 1)}}  # naive: UTC, as a server reads it
    await coll.update_one({"_id": 1}, pipeline, let=let)
    assert (await coll.find_one({"_id": 1}))["same"] is True


async def test_update_pipeline_that_removes_the_id_keeps_it(front: Front) -> None:
    # A server's pipeline executor keeps the `_id` of a result that has none.
    coll = front.collection("pipelines")
    await coll.insert_one(DOC)
    result = await coll.update_one({"_id": 1}, [{"$set": {"_id": "$$REMOVE"}}])
    assert (result.matched_count, result.modified_count) == (1, 0)
    assert await coll.find_one({"_id": 1}) == DOC


async def test_update_pipeline_whose_expression_fails_is_a_write_error(front: Front) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one(DOC)
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, [{"$set": {"sum": {"$add": [1, "two"]}}}])
    details = raised.value.details or {}
    assert (raised.value.code, details.get("errmsg")) == (
        14,
        "$add only supports numeric or date types, not string",
    )
    assert await coll.find_one({"_id": 1}) == DOC


async def test_update_to_an_equal_value_of_another_type_is_stored(front: Front) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one(DOC)
    result = await coll.update_one({"_id": 1}, [{"$set": {"a": True}}])
    assert result.modified_count == 1
    assert (await coll.find_one({"_id": 1}))["a"] is True


async def test_bulk_write_let_is_evaluated_once_per_command(
    front: Front, monkeypatch: pytest.MonkeyPatch
) -> None:
    coll = front.collection("pipelines")
    await coll.insert_many([{"_id": n, "a": n} for n in range(3)])
    evaluated: list[object] = []
    original = variables.evaluate_once

    def counting(expression: object) -> object:
        evaluated.append(expression)
        return original(expression)

    monkeypatch.setattr(variables, "evaluate_once", counting)
    pipeline = [{"$set": {"a": {"$add": ["$a", "$$step"]}}}]
    requests = [UpdateOne({"_id": n}, pipeline) for n in range(3)]
    await coll.bulk_write(requests, let={"step": {"$literal": 1}})
    assert len(evaluated) == 1


@pytest.mark.parametrize(
    "pipeline",
    [
        # a stage mongomock-ng runs (a dotted name) writing into a literal the first stage set
        [{"$set": {"o": {"$literal": {"n": 1}}}}, {"$set": {"o.n": {"$add": ["$o.n", 1]}}}],
        # plain stages only, the literal a document
        [{"$set": {"o": {"$literal": {"n": 1}}}}, {"$set": {"p": {"$add": ["$o.n", 1]}}}],
    ],
    ids=["mongomock-ng stage", "plain stages"],
)
async def test_the_same_pipeline_sent_again_gives_each_document_the_same_update(
    front: Front, pipeline: list[dict[str, Any]]
) -> None:
    coll = front.collection("again")
    await coll.insert_many([{"_id": n} for n in range(3)])
    for n in range(3):
        await coll.update_one({"_id": n}, pipeline)
        await coll.find_one_and_update({"_id": n}, pipeline, projection={"o.n": 0, "_id": 0})
    found = [doc["o"] for doc in await coll.find({}, sort=[("_id", 1)]).to_list()]
    assert found == [found[0]] * 3


def _nested(levels: int) -> dict[str, Any]:
    """A subdocument `levels` deep."""
    nested: dict[str, Any] = {}
    for _ in range(levels - 1):
        nested = {"n": nested}
    return nested


async def test_update_pipeline_that_nests_a_kept_element_past_100_levels_is_refused(
    front: Front,
) -> None:
    coll = front.collection("pipelines")
    # 100 levels: the document, its array, and each element 98 deep.
    await coll.insert_one({"_id": 1, "items": [_nested(98), {"x": 1}]})
    wrapped = {
        "$map": {
            "input": "$items",
            "in": {"$cond": [{"$eq": ["$$this.x", 1]}, "$$this", {"w": "$$this"}]},
        }
    }
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, [{"$set": {"items": wrapped}}])
    assert raised.value.code == OVERFLOW
    assert (await coll.find_one({"_id": 1}))["items"][1] == {"x": 1}


async def test_update_pipeline_that_moves_a_deep_array_to_a_deeper_field_is_refused(
    front: Front,
) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one({"_id": 1, "items": [_nested(98)], "other": []})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, [{"$set": {"other": {"w": "$items"}}}])
    assert raised.value.code == OVERFLOW


async def test_update_pipeline_keeps_each_kept_element_its_own_after_later_updates(
    front: Front,
) -> None:
    coll = front.collection("pipelines")
    await coll.insert_one({"_id": 1, "items": [{"n": 1}, {"n": 2}]})
    await coll.update_one(
        {"_id": 1}, [{"$set": {"items": {"$concatArrays": ["$items", "$items"]}}}]
    )
    await coll.update_one({"_id": 1}, {"$inc": {"items.0.n": 10}})
    await coll.update_one(
        {"_id": 1},
        [{"$set": {"items": {"$concatArrays": [{"$slice": ["$items", 3]}, [{"n": 5}]]}}}],
    )
    found = await coll.find_one({"_id": 1})
    assert found["items"] == [{"n": 11}, {"n": 2}, {"n": 1}, {"n": 5}]
