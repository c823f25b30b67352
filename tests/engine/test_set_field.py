"""`$setField` and `$unsetField` add, replace or remove one field named literally (a dotted or
`$`-prefixed name is one top-level field), as MongoDB 8.0 does, in aggregations and in update
pipelines, whose documents are stored so."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo.errors import OperationFailure, WriteError

from tests.engine.fronts import Front

DOC = {"_id": 1, "a": {"b": 1}, "n": None, "s": 5}


async def _coll(front: Front) -> Any:
    coll = front.collection("fields")
    await coll.insert_one(DOC)
    return coll


async def _projected(coll: Any, expression: Any) -> Any:
    stages = [{"$project": {"_id": 0, "out": expression}}]
    [found] = await (await coll.aggregate(stages)).to_list()
    return found.get("out", "missing")


def _set(field: Any, value: Any, input: Any = "$$ROOT") -> dict[str, Any]:
    return {"$setField": {"field": field, "value": value, "input": input}}


async def test_a_dotted_name_is_one_field_added_last(front: Front) -> None:
    coll = await _coll(front)
    assert await _projected(coll, _set("a.b", 2)) == {**DOC, "a.b": 2}


async def test_a_literal_dollar_name_is_one_field(front: Front) -> None:
    coll = await _coll(front)
    assert await _projected(coll, _set({"$literal": "$x"}, 2, "$a")) == {"b": 1, "$x": 2}


async def test_an_existing_field_keeps_its_place(front: Front) -> None:
    coll = await _coll(front)
    found = await _projected(coll, _set("a", 0))
    assert list(found.items()) == [("_id", 1), ("a", 0), ("n", None), ("s", 5)]


async def test_remove_and_unset_field_take_the_field_out(front: Front) -> None:
    coll = await _coll(front)
    without = {"_id": 1, "n": None, "s": 5}
    assert await _projected(coll, _set("a", "$$REMOVE")) == without
    assert await _projected(coll, {"$unsetField": {"field": "a", "input": "$$ROOT"}}) == without


async def test_a_null_or_missing_input_gives_null(front: Front) -> None:
    coll = await _coll(front)
    assert await _projected(coll, _set("x", 1, "$n")) is None
    assert await _projected(coll, _set("x", 1, "$nothing")) is None


@pytest.mark.parametrize(
    ("expression", "code"),
    [
        (_set("$x", 1), 4161108),  # a field path, not a name: the server hints at $literal
        (_set(1, 1), 4161107),
        (_set({"$concat": ["$s", "x"]}, 1), 4161106),  # not a constant
        (_set("x", 1, "$s"), 4161105),  # not an object
        ({"$setField": {"field": "x", "input": "$$ROOT"}}, 4161103),
    ],
    ids=["field path", "number", "computed", "input a number", "no value"],
)
async def test_the_server_errors(front: Front, expression: Any, code: int) -> None:
    coll = await _coll(front)
    with pytest.raises(OperationFailure) as raised:
        await _projected(coll, expression)
    assert raised.value.code == code


async def test_an_update_pipeline_stores_a_dollar_prefixed_top_level_field(front: Front) -> None:
    coll = await _coll(front)
    replace = {"$replaceWith": _set({"$literal": "$price"}, 3)}
    result = await coll.update_one({"_id": 1}, [replace])
    assert result.modified_count == 1
    assert await coll.find_one({"_id": 1}) == {**DOC, "$price": 3}


async def test_an_update_pipeline_stores_a_dotted_top_level_field(front: Front) -> None:
    coll = await _coll(front)
    await coll.update_one({"_id": 1}, [{"$replaceWith": _set({"$literal": "a.b"}, 3)}])
    found = await coll.find_one({"_id": 1})
    assert found == {**DOC, "a.b": 3}
    assert found["a"] == {"b": 1}


async def test_a_failing_set_field_is_a_write_error(front: Front) -> None:
    coll = await _coll(front)
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, [{"$replaceWith": _set("$x", 1)}])
    assert raised.value.code == 4161108
