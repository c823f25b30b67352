"""`$addToSet` adds a value unless the array holds one BSON deems equal: 1.0 is not added beside
1 (numbers equal across types), `true` is (booleans are not numbers), and `{b, a}` is added
beside `{a, b}` (a subdocument's fields compare in order); with `$each`, on a nested path,
through an array's element and through the positional `$` alike."""

from __future__ import annotations

from typing import Any

from tests.engine.fronts import Front


async def _updated(front: Front, doc: dict[str, Any], update: Any, filter: Any = None) -> Any:
    things = front.collection("things")
    await things.insert_one(doc)
    await things.update_one(filter or {"_id": doc["_id"]}, update)
    return await things.find_one({"_id": doc["_id"]}, {"_id": 0})


async def test_an_equal_number_of_another_type_is_not_added(front: Front) -> None:
    assert await _updated(front, {"_id": 1, "a": [1]}, {"$addToSet": {"a": 1.0}}) == {"a": [1]}


async def test_a_subdocument_with_its_fields_in_another_order_is_added(front: Front) -> None:
    update = {"$addToSet": {"a": {"y": 2, "x": 1}}}
    updated = await _updated(front, {"_id": 1, "a": [{"x": 1, "y": 2}]}, update)
    assert [list(item) for item in updated["a"]] == [["x", "y"], ["y", "x"]]


async def test_each_value_is_compared_as_bson(front: Front) -> None:
    update = {"$addToSet": {"a": {"$each": [1.0, True, {"y": 2, "x": 1}]}}}
    updated = await _updated(front, {"_id": 1, "a": [1, {"x": 1, "y": 2}]}, update)
    assert updated == {"a": [1, {"x": 1, "y": 2}, True, {"y": 2, "x": 1}]}


async def test_a_nested_path_compares_as_bson(front: Front) -> None:
    update = {"$addToSet": {"x.a": {"$each": [1.0, True]}}}
    updated = await _updated(front, {"_id": 1, "x": {"a": [1]}}, update)
    assert updated == {"x": {"a": [1, True]}}


async def test_a_path_through_an_element_compares_as_bson(front: Front) -> None:
    update = {"$addToSet": {"x.0.a": {"$each": [1.0, True]}}}
    updated = await _updated(front, {"_id": 1, "x": [{"a": [1]}]}, update)
    assert updated == {"x": [{"a": [1, True]}]}


async def test_a_positional_path_compares_as_bson(front: Front) -> None:
    doc = {"_id": 1, "x": [{"k": 0, "a": []}, {"k": 1, "a": [1]}]}
    update = {"$addToSet": {"x.$.a": {"$each": [1.0, True]}}}
    updated = await _updated(front, doc, update, {"x.k": 1})
    assert updated == {"x": [{"k": 0, "a": []}, {"k": 1, "a": [1, True]}]}
