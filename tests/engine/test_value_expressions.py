"""The compiled `$getField`, `$toString`, `$mergeObjects`, `$max`, `$min`, `$reduce`,
`$concatArrays` and `$in` give a server's answers, in process and over the wire, including the
cases they hand back to mongomock-ng."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from bson import Int64, ObjectId
from pymongo.errors import OperationFailure

from embedded.expressions.value_expressions import extreme
from embedded.mongomock_internals import NOTHING
from tests.engine.fronts import Front

OID = ObjectId("0123456789abcdef01234567")
WHEN = datetime(2024, 1, 1, tzinfo=UTC)
DOC = {
    "_id": OID,
    "n": 5,
    "s": "b",
    "t": True,
    "none": None,
    "when": WHEN,
    "list": [10, 20, 30],
    "sub": {"a": 1, "b": 2},
    "names": {"0123456789abcdef01234567": {"hits": 3}},
}
ADDED = {"$add": ["$$value", "$$this"]}


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"$getField": {"field": "a", "input": "$sub"}}, 1),
        ({"$getField": {"field": {"$toString": "$_id"}, "input": "$names"}}, {"hits": 3}),
        ({"$getField": "n"}, 5),
        ({"$getField": {"field": "n"}}, 5),
        ({"$getField": {"field": "a", "input": "$none"}}, None),
        ({"$getField": {"field": "a", "input": "$missing"}}, None),
        ({"$toString": "$_id"}, "0123456789abcdef01234567"),
        ({"$toString": "$n"}, "5"),
        ({"$toString": "$t"}, "true"),
        ({"$toString": "$s"}, "b"),
        ({"$toString": "$none"}, None),
        ({"$toString": 2.5}, "2.5"),
        ({"$toString": "$when"}, "2024-01-01T00:00:00.000Z"),
        ({"$mergeObjects": ["$sub", {"b": 3, "c": "$n"}]}, {"a": 1, "b": 3, "c": 5}),
        ({"$mergeObjects": ["$sub", "$none", "$missing"]}, {"a": 1, "b": 2}),
        ({"$mergeObjects": "$sub"}, {"a": 1, "b": 2}),
        ({"$max": [1, "$n", None]}, 5),
        ({"$min": ["$when", datetime(2025, 1, 1, tzinfo=UTC)]}, WHEN),
        ({"$max": "$list"}, 30),
        ({"$min": ["$none", "$missing"]}, None),
        ({"$max": [1, "a"]}, "a"),  # mixed types: BSON order, strings after numbers
        ({"$min": [1, "a", True]}, 1),
        ({"$max": ["$list"]}, 30),  # one operand in a list is that operand
        ({"$max": [float("nan"), 2.0]}, 2.0),  # NaN is the least number
        ({"$min": [1, 2.5]}, 1),
        ({"$max": [1, 2.5]}, 2.5),
        (
            {
                "$reduce": {
                    "input": "$list",
                    "initialValue": 1,
                    "in": {"$add": ["$$value", "$$this"]},
                }
            },
            61,
        ),
        ({"$reduce": {"input": "$missing", "initialValue": 0, "in": 1}}, None),
        ({"$concatArrays": ["$list", [1], []]}, [10, 20, 30, 1]),
        ({"$concatArrays": ["$list", "$none"]}, None),
        ({"$concatArrays": ["$list", "$missing"]}, None),
        ({"$in": [20, "$list"]}, True),
        ({"$in": [20.0, "$list"]}, True),
        ({"$in": [21, "$list"]}, False),
        ({"$in": [1, [True]]}, False),  # never true against 1, as Python has it
        ({"$in": [True, [1, True]]}, True),
        ({"$in": ["$when", [WHEN]]}, True),
        ({"$concatArrays": [["$missing", 1]]}, [None, 1]),  # a missing element is null
    ],
)
async def test_value_expression_gives_a_servers_answer(
    front: Front, expression: Any, expected: Any
) -> None:
    coll = front.collection("values")
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"_id": 0, "value": expression}}])
    [doc] = await cursor.to_list()
    assert doc.get("value") == expected


async def test_get_field_of_a_missing_field_is_missing(front: Front) -> None:
    coll = front.collection("values")
    await coll.insert_one(DOC)
    cursor = await coll.aggregate(
        [{"$project": {"v": {"$getField": {"field": "zz", "input": "$sub"}}}}]
    )
    assert "v" not in (await cursor.to_list())[0]


async def test_min_of_nan_is_nan(front: Front) -> None:
    coll = front.collection("values")
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"v": {"$min": [2.0, float("nan")]}}}])
    value = (await cursor.to_list())[0]["v"]
    assert value != value


@pytest.mark.parametrize(
    ("expression", "code"),
    [
        ({"$getField": {"field": "$n", "input": "$sub"}}, 3041704),
        ({"$getField": {"field": "a", "input": "$n"}}, 3041705),
        ({"$mergeObjects": ["$sub", 1]}, 40400),
        ({"$concatArrays": ["$list", "$s"]}, 28664),
        ({"$in": [1, "$s"]}, 40081),
    ],
)
async def test_value_expression_refuses_what_a_server_refuses(
    front: Front, expression: Any, code: int
) -> None:
    coll = front.collection("values")
    await coll.insert_one(DOC)
    with pytest.raises(OperationFailure) as raised:
        await coll.aggregate([{"$project": {"v": expression}}])
    assert raised.value.code == code


async def test_reduce_refuses_an_input_that_is_no_array(front: Front) -> None:
    coll = front.collection("values")
    await coll.insert_one(DOC)
    with pytest.raises(OperationFailure) as raised:
        reduce = {"input": "$s", "initialValue": 0, "in": 1}
        await coll.aggregate([{"$project": {"v": {"$reduce": reduce}}}])
    assert raised.value.code == 40080


# Two operands of one type take a shortcut in `extreme`: it answers as the general path does
# (the same value, of the same type, the first of equals) for every pair of these values.
PICKED = [
    0, 1, -1, 0.0, -0.0, 1.0, 2.5, float("nan"), float("inf"), Int64(1), True, False, "", "a",
    "b", "é", datetime(2024, 1, 1), datetime(2024, 1, 2), None, NOTHING, [], [1], {}, {"a": 1},
]  # fmt: skip


@pytest.mark.parametrize("pick", [min, max])
def test_extreme_of_two_values_answers_as_over_a_longer_list(pick: Any) -> None:
    def answer(values: list[Any]) -> tuple[type, str]:
        found = extreme(values, pick)
        return type(found), repr(found)

    mismatches = [
        (a, b)
        for a in PICKED
        for b in PICKED
        if answer([a, b]) != answer([a, b, None])  # a null is left out: the general path
    ]
    assert mismatches == []
