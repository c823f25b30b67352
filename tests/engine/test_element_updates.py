"""Operators on an array's element by its offset (`a.0`, `a.1.tags`) apply as on a plain field,
as MongoDB 8.0 applies them: `$min`, `$max`, `$currentDate`, `$pull`, `$addToSet`, `$push`,
`$pop` and `$inc` reach the element or a field inside it; `$unset` of the element sets it to
null."""

from __future__ import annotations

from datetime import datetime

from tests.engine.fronts import Front


async def test_min_max_and_current_date_reach_the_element(front: Front) -> None:
    coll = front.collection("elements")
    await coll.insert_one({"_id": 1, "a": [5, 5, 5]})
    await coll.update_one(
        {"_id": 1}, {"$min": {"a.0": 1}, "$max": {"a.1": 9}, "$currentDate": {"a.2": True}}
    )
    found = (await coll.find_one({"_id": 1}))["a"]
    assert found[:2] == [1, 9] and isinstance(found[2], datetime)


async def test_array_operators_reach_an_array_inside_the_element(front: Front) -> None:
    coll = front.collection("elements")
    await coll.insert_one({"_id": 1, "a": [{"l": [1, 2]}, [0], {"m": [1, 2]}, {"p": [1, 2]}]})
    await coll.update_one(
        {"_id": 1},
        {
            "$pull": {"a.0.l": 1},
            "$addToSet": {"a.1": 2},
            "$push": {"a.2.m": 3},
            "$pop": {"a.3.p": -1},
        },
    )
    assert (await coll.find_one({"_id": 1}))["a"] == [
        {"l": [2]},
        [0, 2],
        {"m": [1, 2, 3]},
        {"p": [2]},
    ]


async def test_unset_of_an_element_sets_it_to_null(front: Front) -> None:
    coll = front.collection("elements")
    await coll.insert_one({"_id": 1, "a": [1, {"b": 2, "c": 3}]})
    await coll.update_one({"_id": 1}, {"$unset": {"a.0": "", "a.1.b": ""}, "$inc": {"a.1.c": 1}})
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": [None, {"c": 4}]}
