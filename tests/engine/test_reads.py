"""Reads on the embedded engine: server results, replies that are copies, UTC datetimes."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from embedded import EmbeddedCollection, EmbeddedEngine
from embedded.stages import reads
from tests.engine.fronts import Front

WHEN = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)


@pytest.fixture
async def coll(engine: EmbeddedEngine) -> EmbeddedCollection:
    things = engine["test"]["things"]
    for i in range(5):
        await things.insert_one(
            {"_id": i, "n": i, "at": WHEN, "list": list(range(10)), "sub": {"a": i}}
        )
    return things


async def test_find_reply_is_a_copy(coll: EmbeddedCollection) -> None:
    [doc] = await coll.find({"_id": 1}).to_list()
    doc["list"].append("changed")
    doc["sub"]["a"] = "changed"
    assert await coll.find_one({"_id": 1}, {"list": 1, "sub": 1}) == {
        "_id": 1, "list": list(range(10)), "sub": {"a": 1}
    }  # fmt: skip


async def test_find_returns_utc_datetimes(coll: EmbeddedCollection) -> None:
    doc = await coll.find_one({"at": WHEN})
    assert doc["at"] == WHEN
    assert doc["at"].tzinfo is not None


async def test_find_applies_slice_projection(coll: EmbeddedCollection) -> None:
    assert (await coll.find_one({"_id": 2}, {"list": {"$slice": [3, 2]}}))["list"] == [3, 4]
    assert (await coll.find_one({"_id": 2}, {"list": {"$slice": -2}}))["list"] == [8, 9]
    assert await coll.find_one({"_id": 2}, {"n": 1, "_id": 0}) == {"n": 2}
    assert set(await coll.find_one({"_id": 2}, {"list": 0, "sub": 0})) == {"_id", "n", "at"}


async def test_find_sorts_skips_and_limits(coll: EmbeddedCollection) -> None:
    docs = await coll.find({}, {"n": 1}, sort=[("n", -1)], skip=1, limit=2).to_list()
    assert [d["n"] for d in docs] == [3, 2]


async def test_aggregate_never_changes_stored_documents(coll: EmbeddedCollection) -> None:
    pipeline = [
        {"$match": {"_id": {"$lte": 1}}},
        {"$set": {"sub.a": "changed", "n": -1}},
        {"$project": {"sub": 1, "n": 1, "head": {"$slice": ["$list", 2]}}},
    ]
    cursor = await coll.aggregate(pipeline)
    result = await cursor.to_list()
    assert result[0] == {"_id": 0, "sub": {"a": "changed"}, "n": -1, "head": [0, 1]}
    result[0]["head"].append(99)
    assert await coll.find_one({"_id": 0}, {"sub": 1, "n": 1, "list": 1}) == {
        "_id": 0, "sub": {"a": 0}, "n": 0, "list": list(range(10))
    }  # fmt: skip


async def test_aggregate_compares_utc_datetimes(coll: EmbeddedCollection) -> None:
    cursor = await coll.aggregate(
        [{"$match": {"at": {"$gte": WHEN}}}, {"$project": {"later": {"$gt": ["$at", WHEN]}}}]
    )
    assert [d["later"] for d in await cursor.to_list()] == [False] * 5


async def test_sort_array_sorts_by_several_fields(engine: EmbeddedEngine) -> None:
    things = engine["test"]["sorted"]
    items = [{"t": 1, "id": "a"}, {"t": 2, "id": "a"}, {"t": 1, "id": "b"}]
    await things.insert_one({"_id": 1, "items": items})
    cursor = await things.aggregate(
        [{"$project": {"s": {"$sortArray": {"input": "$items", "sortBy": {"t": -1, "id": -1}}}}}]
    )
    [doc] = await cursor.to_list()
    assert doc["s"] == [{"t": 2, "id": "a"}, {"t": 1, "id": "b"}, {"t": 1, "id": "a"}]


async def test_not_evaluates_its_argument_in_array_form(engine: EmbeddedEngine) -> None:
    things = engine["test"]["not"]
    await things.insert_one({"_id": 1, "ids": ["1", "2"]})
    cursor = await things.aggregate(
        [
            {
                "$project": {
                    "kept": {
                        "$filter": {"input": "$ids", "cond": {"$not": [{"$eq": ["$$this", "2"]}]}}
                    }
                }
            }
        ]
    )
    assert (await cursor.to_list())[0]["kept"] == ["1"]


async def test_in_keeps_bson_equality_on_the_fast_path(engine: EmbeddedEngine) -> None:
    things = engine["test"]["in"]
    await things.insert_one({"_id": 1, "values": [1, True, "1", 2.0]})
    cursor = await things.aggregate(
        [
            {
                "$project": {
                    "ints": {"$map": {"input": "$values", "in": {"$in": ["$$this", [1, 2]]}}},
                    "strs": {"$map": {"input": "$values", "in": {"$in": ["$$this", ["1"]]}}},
                }
            }
        ]
    )
    [doc] = await cursor.to_list()
    assert doc["ints"] == [True, False, False, True]
    assert doc["strs"] == [False, False, True, False]


async def test_a_first_match_sees_the_let_variables(coll: EmbeddedCollection) -> None:
    cursor = await coll.aggregate(
        [{"$match": {"$expr": {"$gt": ["$n", "$$least"]}}}, {"$project": {"n": 1}}],
        let={"least": {"$literal": 2}},
    )
    assert await cursor.to_list() == [{"_id": 3, "n": 3}, {"_id": 4, "n": 4}]


async def test_find_takes_aggregation_expressions_in_its_projection(
    coll: EmbeddedCollection,
) -> None:
    # MongoDB 4.4+ evaluates expressions in a find projection, as `$project` does.
    picked = {"$filter": {"input": "$list", "cond": {"$gte": ["$$this", 8]}}}
    found = await coll.find_one({"_id": 3}, projection={"_id": 0, "n": 1, "high": picked})
    assert found == {"n": 3, "high": [8, 9]}
    docs = await coll.find({"_id": {"$lt": 2}}, {"twice": {"$multiply": ["$n", 2]}}).to_list()
    assert docs == [{"_id": 0, "twice": 0}, {"_id": 1, "twice": 2}]


async def test_aggregate_runs_trailing_union_branches_each_on_its_collection(
    engine: EmbeddedEngine, coll: EmbeddedCollection
) -> None:
    other = engine["test"]["others"]
    await other.insert_many([{"_id": "a", "n": 10}, {"_id": "b", "n": 20}])
    pipeline = [
        {"$match": {"_id": {"$lte": 1}}},
        {"$project": {"n": 1}},
        {"$unionWith": {"coll": "others", "pipeline": [{"$sort": {"n": -1}}, {"$limit": 1}]}},
        {"$unionWith": "others"},
    ]
    found = await (await coll.aggregate(pipeline)).to_list()
    assert found == [
        {"_id": 0, "n": 0}, {"_id": 1, "n": 1}, {"_id": "b", "n": 20},
        {"_id": "a", "n": 10}, {"_id": "b", "n": 20},
    ]  # fmt: skip
    followed = [*pipeline, {"$count": "all"}]  # a stage after the unions: mongomock-ng's
    assert await (await coll.aggregate(followed)).to_list() == [{"all": 5}]


async def test_an_aggregation_sent_again_answers_the_same(front: Front) -> None:
    coll = front.collection("again")
    await coll.insert_many([{"_id": n} for n in range(2)])
    # a literal document set, then a dotted `$set` under it (a stage mongomock-ng runs)
    pipeline = [{"$set": {"o": {"$literal": {"n": 1}}}}, {"$set": {"o.n": {"$add": ["$o.n", 1]}}}]
    first = await (await coll.aggregate(pipeline)).to_list()
    again = await (await coll.aggregate(pipeline)).to_list()
    assert first == again == [{"_id": 0, "o": {"n": 2}}, {"_id": 1, "o": {"n": 2}}]
    assert pipeline[0] == {"$set": {"o": {"$literal": {"n": 1}}}}


def test_stored_stages_give_a_shared_stage_with_datetimes_one_stored_form() -> None:
    # The form's compiled expressions are kept by identity: a page built once an hour reuses them.
    bound: dict[str, Any] = {"$literal": WHEN}
    stage: dict[str, Any] = {"$match": {"$expr": {"$gte": ["$at", bound]}}}
    [first] = reads.stored_stages([stage])
    [again] = reads.stored_stages([stage])
    assert again is first and first is not stage
    assert first["$match"]["$expr"]["$gte"][1]["$literal"] == WHEN.replace(tzinfo=None)
    assert bound == {"$literal": WHEN}  # the store's own stage unchanged


async def test_aggregate_of_a_shared_stage_with_datetimes_answers_each_time(
    coll: EmbeddedCollection,
) -> None:
    kept = {"$filter": {"input": "$list", "cond": {"$lte": ["$at", {"$literal": WHEN}]}}}
    stage = {"$project": {"kept": {"$size": kept}}}
    for _ in range(3):  # the compiled stage, held by the engine, answers each time
        found = await (await coll.aggregate([stage])).to_list()
        assert found == [{"_id": i, "kept": 10} for i in range(5)]
