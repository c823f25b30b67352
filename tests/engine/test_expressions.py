"""Aggregation expressions on the embedded engine give a server's answers.

The engine compiles expressions into closures (`embedded/expressions/compiler.py`); these cases pin
the answers of each compiled operator, including the cases it hands back to mongomock-ng.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from bson.decimal128 import Decimal128
from pymongo.errors import OperationFailure

from embedded import EmbeddedEngine
from tests.engine.fronts import Front

WHEN = datetime(2024, 1, 1, tzinfo=UTC)
DOC = {
    "_id": 1,
    "n": 5,
    "f": 2.5,
    "s": "b",
    "t": True,
    "none": None,
    "when": WHEN,
    "list": [10, 20, 30],
    "subs": [{"x": 1}, {"x": 2}, {"y": 3}],
    "sub": {"a": {"b": 7}},
}


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"$cond": [{"$gt": ["$n", 3]}, "big", "small"]}, "big"),
        ({"$cond": {"if": {"$lt": ["$n", 3]}, "then": "big", "else": "small"}}, "small"),
        ({"$cond": [0, "yes", "no"]}, "no"),
        ({"$cond": ["$missing", "yes", "no"]}, "no"),
        ({"$and": [True, {"$eq": ["$s", "b"]}]}, True),
        ({"$or": [False, "$none"]}, False),
        ({"$not": [{"$eq": ["$n", 5]}]}, False),
        ({"$not": {"$eq": ["$n", 4]}}, True),
        ({"$eq": ["$missing", None]}, True),
        ({"$ne": ["$n", 5.0]}, False),
        ({"$lt": ["$n", "a"]}, True),  # numbers sort before strings
        ({"$gt": ["$t", 100]}, True),  # booleans after numbers and strings
        ({"$lte": ["$when", WHEN + timedelta(seconds=1)]}, True),
        ({"$gte": ["$missing", 0]}, False),
        ({"$lt": ["$none", 0]}, True),  # null sorts first
        ({"$arrayElemAt": ["$list", -1]}, 30),
        ({"$arrayElemAt": ["$list", 1]}, 20),
        ({"$add": ["$n", "$f"]}, 7.5),
        ({"$add": ["$n", "$none"]}, None),
        ({"$add": ["$when", 1000]}, WHEN + timedelta(seconds=1)),
        ({"$add": [1, 2, 3]}, 6),
        ({"$subtract": ["$n", 7]}, -2),
        ({"$divide": ["$n", 2]}, 2.5),
        ({"$floor": {"$divide": ["$n", 2]}}, 2),
        ({"$floor": "$none"}, None),
        ({"$let": {"vars": {"a": "$n", "b": 2}, "in": {"$add": ["$$a", "$$b"]}}}, 7),
        ({"$let": {"vars": {"n": 1}, "in": {"$let": {"vars": {"m": "$$n"}, "in": "$$m"}}}}, 1),
        ({"$let": {"vars": {"o": "$sub"}, "in": "$$o.a.b"}}, 7),
        ("$$ROOT.sub.a.b", 7),
        ("$subs.x", [1, 2]),
        ({"k": "$n", "gone": "$missing"}, {"k": 5}),
        ({"$literal": "$n"}, "$n"),
        ({"$slice": ["$list", 2]}, [10, 20]),
        ({"$slice": ["$list", -2]}, [20, 30]),
        ({"$slice": ["$list", 1, 5]}, [20, 30]),
        ({"$slice": ["$list", -5, 2]}, [10, 20]),
        ({"$slice": ["$list", 5, 2]}, []),
    ],
)
async def test_expression_gives_a_servers_answer(
    engine: EmbeddedEngine, expression: Any, expected: Any
) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"_id": 0, "value": expression}}])
    [doc] = await cursor.to_list()
    assert doc.get("value") == expected


async def test_array_elem_at_past_the_end_is_missing(engine: EmbeddedEngine) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"v": {"$arrayElemAt": ["$list", 9]}}}])
    assert "v" not in (await cursor.to_list())[0]


async def test_let_variables_of_the_aggregation_are_in_scope(engine: EmbeddedEngine) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    cursor = await coll.aggregate(
        [{"$project": {"v": {"$add": ["$n", "$$extra"]}, "w": "$$text"}}],
        let={"extra": {"$literal": 10}, "text": {"$literal": "$n"}},
    )
    [doc] = await cursor.to_list()
    assert (doc["v"], doc["w"]) == (15, "$n")


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"$divide": ["$n", 1]}, 5.0),  # a double even when it divides exactly
        ({"$divide": [4, 2]}, 2.0),
        ({"$divide": ["$f", 2]}, 1.25),
        ({"$floor": {"$divide": ["$n", 2]}}, 2.0),  # $floor of a double is a double
        ({"$floor": "$f"}, 2.0),
        ({"$floor": "$n"}, 5),  # of an int, the int
        ({"$floor": ["$n"]}, 5),
        ({"$ceil": "$f"}, 3.0),
        ({"$trunc": -2.5}, -2.0),
        ({"$add": [{"$floor": 2.5}, 1]}, 3.0),
        ({"$mod": [-5, 3]}, -2),  # of two ints an int, with the dividend's sign
        ({"$mod": ["$f", 2]}, 0.5),
    ],
)
async def test_numbers_have_a_servers_type(
    engine: EmbeddedEngine, expression: Any, expected: Any
) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"_id": 0, "value": expression}}])
    [doc] = await cursor.to_list()
    assert (doc["value"], type(doc["value"])) == (expected, type(expected))


async def test_an_integral_double_is_an_index(engine: EmbeddedEngine) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    half = {"$floor": {"$divide": [{"$size": "$list"}, 2]}}  # 1.0
    cursor = await coll.aggregate(
        [
            {
                "$project": {
                    "at": {"$arrayElemAt": ["$list", half]},
                    "tail": {"$slice": ["$list", half, 2.0]},
                }
            }
        ]
    )
    [doc] = await cursor.to_list()
    assert (doc["at"], doc["tail"]) == (20, [20, 30])


async def test_a_fractional_index_is_refused_as_a_server_refuses_it(
    engine: EmbeddedEngine,
) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    with pytest.raises(OperationFailure) as raised:
        await coll.aggregate([{"$project": {"at": {"$arrayElemAt": ["$list", 1.5]}}}])
    assert raised.value.code == 28691


async def test_dividing_by_zero_is_refused(engine: EmbeddedEngine) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    with pytest.raises(OperationFailure, match="can't \\$divide by zero"):
        await coll.aggregate([{"$project": {"v": {"$divide": ["$n", 0]}}}])


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"$filter": {"input": "$list", "cond": {"$gt": ["$$this", 15]}}}, [20, 30]),
        ({"$filter": {"input": "$subs", "as": "s", "cond": "$$s.x"}}, [{"x": 1}, {"x": 2}]),
        ({"$filter": {"input": "$missing", "cond": True}}, None),
        ({"$filter": {"input": "$none", "cond": True}}, None),
        # A server's truth: only false, null, missing and 0 are false.
        ({"$filter": {"input": ["", [], 0, None, False, "a"], "cond": "$$this"}}, ["", [], "a"]),
        ({"$map": {"input": "$list", "in": {"$add": ["$$this", 1]}}}, [11, 21, 31]),
        ({"$map": {"input": "$subs", "as": "s", "in": "$$s.x"}}, [1, 2, None]),
        ({"$map": {"input": "$missing", "in": 1}}, None),
        (
            {
                "$map": {
                    "input": [1, 2],
                    "as": "a",
                    "in": {"$map": {"input": [10], "as": "b", "in": {"$add": ["$$a", "$$b"]}}},
                }
            },
            [[11], [12]],
        ),
        (
            {"$map": {"input": "$list", "in": {"$filter": {"input": [1], "cond": "$$this"}}}},
            [[1], [1], [1]],
        ),
        ({"$sum": "$list"}, 60),
        ({"$sum": "$subs.x"}, 3),
        ({"$sum": "$n"}, 5),
        ({"$sum": "$s"}, 0),
        ({"$sum": "$missing"}, 0),
        ({"$sum": ["$n", "$f", "$list", "$s", "$t", "$none"]}, 7.5),  # an array is no number
        ({"$sum": []}, 0),
        ({"$sum": [Decimal128("1.5"), 1]}, Decimal128("2.5")),
        ({"$size": "$list"}, 3),
        ({"$size": ["$subs"]}, 3),
        ({"$size": {"$literal": []}}, 0),
        ({"$ifNull": ["$missing", "$none", "d"]}, "d"),
        ({"$ifNull": ["$n", 1]}, 5),
        ({"$ifNull": ["$none", "$list"]}, [10, 20, 30]),
        ("$subs.x", [1, 2]),
        ("$subs.y", [3]),
        ("$sub.a.b", 7),
        ("$list.x", []),
    ],
)
async def test_array_expression_gives_a_servers_answer(
    front: Front, expression: Any, expected: Any
) -> None:
    coll = front.collection("expressions")
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"_id": 0, "value": expression}}])
    [doc] = await cursor.to_list()
    assert doc.get("value") == expected


@pytest.mark.parametrize(
    ("operator", "code"),
    [("$filter", 28651), ("$map", 16883)],
)
async def test_array_expression_refuses_an_input_that_is_no_array(
    front: Front, operator: str, code: int
) -> None:
    coll = front.collection("expressions")
    await coll.insert_one(DOC)
    argument = {"input": "$s", ("cond" if operator == "$filter" else "in"): True}
    with pytest.raises(OperationFailure) as raised:
        await coll.aggregate([{"$project": {"v": {operator: argument}}}])
    assert raised.value.code == code


@pytest.mark.parametrize(
    ("argument", "kind"),
    [("$s", "string"), ("$none", "null"), ("$missing", "missing")],
)
async def test_size_refuses_what_is_no_array(front: Front, argument: str, kind: str) -> None:
    coll = front.collection("expressions")
    await coll.insert_one(DOC)
    with pytest.raises(OperationFailure) as raised:
        await coll.aggregate([{"$project": {"v": {"$size": argument}}}])
    assert raised.value.code == 17124
    assert f"Type of argument is: {kind}" in str(raised.value)
