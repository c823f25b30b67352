"""`$pullAll`, and `$pull` of a plain value, remove the elements BSON deems equal to a value:
1.0 removes 1, `true` does not (booleans are not numbers), a subdocument only one with its
fields in the same order, an array only an equal array; on a nested path, through an element or
the positional `$` alike; a regex removes the strings it matches. (A `$pull` condition, or
document, is a query on each element.)"""

from __future__ import annotations

import re
from typing import Any

from tests.engine.fronts import Front


async def _updated(front: Front, doc: dict[str, Any], update: Any, filter: Any = None) -> Any:
    things = front.collection("things")
    await things.insert_one(doc)
    await things.update_one(filter or {"_id": doc["_id"]}, update)
    return await things.find_one({"_id": doc["_id"]}, {"_id": 0})


async def test_pull_all_keeps_booleans_apart_from_numbers(front: Front) -> None:
    doc = {"_id": 1, "a": [1, True, 2.0, False, 0]}
    updated = await _updated(front, doc, {"$pullAll": {"a": [True, 2, 0.0]}})
    assert updated == {"a": [1, False]}


async def test_pull_all_compares_subdocuments_field_by_field_in_order(front: Front) -> None:
    doc = {"_id": 1, "a": [{"x": 1, "y": 2}, {"y": 2, "x": 1}, [1, 2], [2, 1]]}
    updated = await _updated(front, doc, {"$pullAll": {"a": [{"y": 2, "x": 1.0}, [1.0, 2]]}})
    assert updated == {"a": [{"x": 1, "y": 2}, [2, 1]]}


async def test_pull_of_a_value_keeps_booleans_apart_from_numbers(front: Front) -> None:
    doc = {"_id": 1, "a": [1, True, 1.0, 2]}
    assert await _updated(front, doc, {"$pull": {"a": True}}) == {"a": [1, 1.0, 2]}


async def test_pull_of_a_number_removes_it_in_every_type(front: Front) -> None:
    doc = {"_id": 1, "a": [1, True, 1.0, 2]}
    assert await _updated(front, doc, {"$pull": {"a": 1.0}}) == {"a": [True, 2]}


async def test_pull_of_a_value_on_a_nested_path_and_through_an_element(front: Front) -> None:
    doc = {"_id": 1, "x": {"a": [1, True]}, "y": [{"a": [1, True]}]}
    updated = await _updated(front, doc, {"$pull": {"x.a": True, "y.0.a": 1}})
    assert updated == {"x": {"a": [1]}, "y": [{"a": [True]}]}


async def test_pull_of_a_value_through_the_positional_operator(front: Front) -> None:
    doc = {"_id": 1, "x": [{"k": 1, "a": [1, True]}]}
    updated = await _updated(front, doc, {"$pull": {"x.$.a": True}}, {"x.k": 1})
    assert updated == {"x": [{"k": 1, "a": [1]}]}


async def test_pull_of_a_regex_removes_the_strings_it_matches(front: Front) -> None:
    doc = {"_id": 1, "a": ["apple", "banana", "avocado", 1]}
    updated = await _updated(front, doc, {"$pull": {"a": re.compile("^a")}})
    assert updated == {"a": ["banana", 1]}
