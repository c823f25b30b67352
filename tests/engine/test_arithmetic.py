"""Arithmetic on the embedded engine as MongoDB 8.0 computes it: operand types refused with the
server's codes, null operands, and dates in whole milliseconds
(`embedded/expressions/number_types.py`)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from bson.decimal128 import Decimal128
from pymongo.errors import OperationFailure

from embedded import EmbeddedEngine

WHEN = datetime(2024, 1, 1, tzinfo=UTC)
DOC = {"_id": 1, "n": 5, "s": "b", "t": True, "none": None, "when": WHEN, "list": [10, 20, 30],
       "sub": {"a": {"b": 7}}}  # fmt: skip


@pytest.mark.parametrize(
    ("expression", "code", "message"),
    [
        ({"$add": ["$n", "$s"]}, 14, "$add only supports numeric or date types, not string"),
        ({"$add": ["$when", "$s"]}, 14, "$add only supports numeric or date types, not string"),
        ({"$add": ["$n", "$t"]}, 14, "$add only supports numeric or date types, not bool"),
        ({"$multiply": ["$s", 2]}, 14, "$multiply only supports numeric types, not string"),
        ({"$multiply": ["$list", 2]}, 14, "$multiply only supports numeric types, not array"),
        ({"$subtract": ["$s", 1]}, 14, "can't $subtract int from string"),
        ({"$divide": ["$n", "$s"]}, 14, "$divide only supports numeric types, not int and string"),
        ({"$abs": "$s"}, 28765, "$abs only supports numeric types, not string"),
        ({"$sqrt": ["$sub"]}, 28765, "$sqrt only supports numeric types, not object"),
        ({"$trunc": "$s"}, 51081, "$trunc only supports numeric types, not string"),
        ({"$mod": ["$s", 2]}, 16611, "$mod only supports numeric types, not string and int"),
        ({"$mod": ["$n", 0]}, 16610, "can't $mod by zero"),
        ({"$subtract": ["$when", "$s"]}, 14, "can't $subtract string from Date"),
        ({"$add": ["$when", 1, "$when"]}, 16612, "only one date allowed in an $add expression"),
        ({"$add": ["$when", float("nan")]}, 15, "date overflow"),
        ({"$subtract": ["$when", float("inf")]}, 15, "date overflow"),
        ({"$subtract": ["$s", Decimal128("1")]}, 14, "can't $subtract decimal from string"),
        ({"$divide": [1, Decimal128("0")]}, 2, "can't $divide by zero"),
        ({"$pow": ["$t", 2]}, 28762, "$pow's base must be numeric, not bool"),
        ({"$log": [100, "$s"]}, 28757, "$log's base must be numeric, not string"),
    ],
)
async def test_arithmetic_of_a_value_that_is_no_number_is_refused_with_a_servers_code(
    engine: EmbeddedEngine, expression: Any, code: int, message: str
) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    with pytest.raises(OperationFailure) as raised:
        await coll.aggregate([{"$project": {"v": expression}}])
    details = raised.value.details or {}
    assert (raised.value.code, details.get("errmsg")) == (code, message)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ({"$add": [1000, "$when"]}, WHEN + timedelta(seconds=1)),  # the date need not be first
        ({"$add": ["$when", 1.5]}, WHEN + timedelta(milliseconds=2)),  # half away from zero
        ({"$add": ["$when", -0.5]}, WHEN - timedelta(milliseconds=1)),
        ({"$add": [0.5, 0.5, "$when"]}, WHEN + timedelta(milliseconds=1)),  # the sum rounded
        ({"$add": ["$when", 0.5, 0.5]}, WHEN + timedelta(milliseconds=2)),  # each rounded
        ({"$subtract": ["$when", 1.5]}, WHEN - timedelta(milliseconds=2)),
        ({"$add": ["$when", 0.49999999999999994]}, WHEN),  # llround, not int(x + 0.5)
        ({"$subtract": ["$when", Decimal128("2.5")]}, WHEN - timedelta(milliseconds=2)),
        ({"$subtract": ["$when", {"$literal": WHEN - timedelta(seconds=2)}]}, 2000),
    ],
)
async def test_date_arithmetic_is_in_whole_milliseconds(
    engine: EmbeddedEngine, expression: Any, expected: Any
) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"_id": 0, "value": expression}}])
    assert await cursor.to_list() == [{"value": expected}]


@pytest.mark.parametrize(
    "expression",
    [
        {"$add": ["$none", "$s"]},  # a server stops at the first null operand
        {"$multiply": ["$missing", "$s"]},
        {"$subtract": ["$s", "$none"]},
        {"$abs": "$missing"},
    ],
)
async def test_arithmetic_with_a_null_operand_first_is_null(
    engine: EmbeddedEngine, expression: Any
) -> None:
    coll = engine["test"]["expressions"]
    await coll.insert_one(DOC)
    cursor = await coll.aggregate([{"$project": {"_id": 0, "v": expression}}])
    assert await cursor.to_list() == [{"v": None}]
