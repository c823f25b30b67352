"""`$group` hashes each document's key (`embedded/stages/group_stage.py`) as a server compares keys:
numbers by value, types apart, a document's fields in their order; its accumulators give what
mongomock-ng's gave, and a key it does not hash goes to mongomock-ng."""

from __future__ import annotations

import math
from typing import Any

import pytest
from bson import Decimal128, Int64
from pymongo.errors import OperationFailure

from tests.engine.fronts import Front

Pipeline = list[dict[str, Any]]


async def _grouped(front: Front, docs: list[dict[str, Any]], group: dict[str, Any]) -> Any:
    things = front.collection("things")
    await things.insert_many([{"_id": n, **doc} for n, doc in enumerate(docs)])
    pipeline: Pipeline = [{"$group": group}]
    return await (await things.aggregate(pipeline)).to_list()


async def test_group_stage_puts_equal_numbers_together_and_types_apart(front: Front) -> None:
    docs: list[dict[str, Any]] = [{"k": 1}, {"k": 1.0}, {"k": True}, {"k": "1"}, {"k": None}, {}]
    found = await _grouped(front, docs, {"_id": "$k", "n": {"$sum": 1}})
    assert {(repr(row["_id"]), row["n"]) for row in found} == {
        ("1", 2), ("True", 1), ("'1'", 1), ("None", 2),
    }  # fmt: skip


async def test_group_stage_keeps_documents_of_other_field_orders_apart(front: Front) -> None:
    docs = [{"k": {"a": 1, "b": 2}}, {"k": {"b": 2, "a": 1}}, {"k": {"a": 1, "b": 2}}]
    found = await _grouped(front, docs, {"_id": "$k", "n": {"$sum": 1}})
    assert sorted((list(row["_id"]), row["n"]) for row in found) == [
        (["a", "b"], 2),
        (["b", "a"], 1),
    ]


async def test_group_stage_puts_every_nan_together(front: Front) -> None:
    docs = [{"k": math.nan}, {"k": float("nan")}, {"k": 0.0}]
    found = await _grouped(front, docs, {"_id": "$k", "n": {"$sum": 1}})
    assert sorted(row["n"] for row in found) == [1, 2]


async def test_group_stage_accumulates_each_group(front: Front) -> None:
    docs: list[dict[str, Any]] = [
        {"k": "a", "v": 3},
        {"k": "b", "v": 1},
        {"k": "a", "v": 5},
        {"k": "a"},
        {"k": "a", "v": 3},
    ]
    group: dict[str, Any] = {
        "_id": {"key": "$k"},
        "sum": {"$sum": "$v"}, "avg": {"$avg": "$v"}, "min": {"$min": "$v"}, "max": {"$max": "$v"},
        "first": {"$first": "$v"}, "last": {"$last": "$v"}, "all": {"$push": "$v"},
        "set": {"$addToSet": "$v"}, "count": {"$count": {}},
    }  # fmt: skip
    found = await _grouped(front, docs, group)
    assert found == [
        {"_id": {"key": "a"}, "sum": 11, "avg": 11 / 3, "min": 3, "max": 5, "first": 3,
         "last": 3, "all": [3, 5, 3], "set": [3, 5], "count": 4},
        {"_id": {"key": "b"}, "sum": 1, "avg": 1.0, "min": 1, "max": 1, "first": 1, "last": 1,
         "all": [1], "set": [1], "count": 1},
    ]  # fmt: skip


async def test_group_stage_of_a_key_it_does_not_hash_is_still_answered(front: Front) -> None:
    docs: list[dict[str, Any]] = [
        {"k": Decimal128("1.5"), "v": 1},
        {"k": Decimal128("1.5"), "v": 2},
    ]
    found = await _grouped(front, docs, {"_id": "$k", "total": {"$sum": "$v"}})
    assert found == [{"_id": Decimal128("1.5"), "total": 3}]


async def test_group_stage_adds_doubles_whatever_their_order(front: Front) -> None:
    # A server adds doubles compensated: 0.3 + 0.2 + 0.1 is 0.6 in either order.
    docs: list[dict[str, Any]] = [{"k": 1, "v": v} for v in (0.3, 0.2, 0.1)]
    docs += [{"k": 2, "v": v} for v in (0.1, 0.2, 0.3)]
    found = await _grouped(front, docs, {"_id": "$k", "total": {"$sum": "$v"}})
    assert [row["total"] for row in found] == [0.6, 0.6]


async def test_group_stage_sums_numbers_only(front: Front) -> None:
    docs: list[dict[str, Any]] = [{"v": 2}, {"v": True}, {"v": [3]}, {"v": "4"}, {"v": 2**62}]
    found = await _grouped(
        front, [{"k": 1, **doc} for doc in docs], {"_id": "$k", "n": {"$sum": "$v"}}
    )
    assert found == [{"_id": 1, "n": 2 + 2**62}]


async def test_group_stage_sums_past_a_double_to_infinity_and_opposite_infinities_to_nan(
    front: Front,
) -> None:
    docs: list[dict[str, Any]] = [{"k": 1, "v": 1e308}, {"k": 1, "v": 1e308}]
    docs += [{"k": 2, "v": math.inf}, {"k": 2, "v": -math.inf}]
    found = await _grouped(front, docs, {"_id": "$k", "total": {"$sum": "$v"}})
    assert found[0]["total"] == math.inf
    assert math.isnan(found[1]["total"])


async def test_group_stage_accumulators_compare_as_a_server_does(front: Front) -> None:
    docs: list[dict[str, Any]] = [
        {"k": 1},  # no v: $first is null
        {"k": 1, "v": 1},
        {"k": 1, "v": True},
        {"k": 1, "v": 1.0},
        {"k": 1, "v": "s"},
        {"k": 1, "v": {"a": 1, "b": 2}},
        {"k": 1, "v": {"b": 2, "a": 1}},
    ]
    group: dict[str, Any] = {
        "_id": "$k",
        "first": {"$first": "$v"},
        "avg": {"$avg": "$v"},
        "min": {"$min": "$v"},
        "max": {"$max": "$v"},
        "set": {"$addToSet": "$v"},
    }
    [found] = await _grouped(front, docs, group)
    assert found["first"] is None
    assert found["avg"] == 1.0  # of 1 and 1.0; true is no number
    assert (found["min"], found["max"]) == (1, True)  # BSON: numbers < strings < ... < booleans
    assert [repr(v) for v in found["set"]] == [
        "1", "True", "'s'", "{'a': 1, 'b': 2}", "{'b': 2, 'a': 1}",
    ]  # fmt: skip


async def test_group_stage_of_a_null_key_is_one_group_and_none_of_nothing(front: Front) -> None:
    docs: list[dict[str, Any]] = [{"v": Int64(2)}, {"v": Int64(3)}]
    found = await _grouped(front, docs, {"_id": None, "n": {"$sum": "$v"}})
    assert found == [{"_id": None, "n": 5}]
    assert type(found[0]["n"]) is Int64  # a long stays a long
    things = front.collection("things")
    empty: list[dict[str, Any]] = [
        {"$match": {"v": 0}},
        {"$group": {"_id": None, "n": {"$sum": 1}}},
    ]
    assert await (await things.aggregate(empty)).to_list() == []


async def test_group_stage_without_an_id_is_refused_as_a_server_refuses_it(front: Front) -> None:
    with pytest.raises(OperationFailure) as raised:
        await _grouped(front, [{"v": 1}], {"n": {"$sum": 1}})
    assert raised.value.code == 15955
