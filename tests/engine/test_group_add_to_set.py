"""`$group`'s `$addToSet` keeps each value once as BSON compares values: 1, 1.0 and
`Decimal128("1")` are one value, `true` and 1 two, `{a, b}` and `{b, a}` two documents; whatever
the group's key (a `Decimal128` key included) and whatever accumulators sit beside it."""

from __future__ import annotations

from typing import Any

from bson.decimal128 import Decimal128

from tests.engine.fronts import Front

_VALUES = [1, 1.0, Decimal128("1"), True, {"a": 1, "b": 2}, {"b": 2, "a": 1}, {"a": 1.0, "b": 2}]


async def _added(front: Front, group_id: Any) -> list[Any]:
    things = front.collection("things")
    await things.insert_many([{"v": value} for value in _VALUES])
    pipeline = [{"$group": {"_id": group_id, "s": {"$addToSet": "$v"}}}]
    [group] = await (await things.aggregate(pipeline)).to_list()
    return list(group["s"])


async def test_equal_values_of_any_type_are_added_once(front: Front) -> None:
    assert await _added(front, None) == [1, True, {"a": 1, "b": 2}, {"b": 2, "a": 1}]


async def test_a_decimal_key_groups_as_any_other(front: Front) -> None:
    assert await _added(front, Decimal128("1")) == [1, True, {"a": 1, "b": 2}, {"b": 2, "a": 1}]


async def test_beside_another_accumulator_it_compares_as_bson(front: Front) -> None:
    things = front.collection("things")
    await things.insert_many([{"v": value} for value in _VALUES])
    accumulators = {"s": {"$addToSet": "$v"}, "m": {"$mergeObjects": {"k": 1}}}
    pipeline = [{"$group": {"_id": None, **accumulators}}]
    [group] = await (await things.aggregate(pipeline)).to_list()
    assert group["s"] == [1, True, {"a": 1, "b": 2}, {"b": 2, "a": 1}]
