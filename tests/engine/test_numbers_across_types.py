"""Numbers compare by value across their types, as on a server: a `Decimal128("1")` equals the
int `1`, the double `1.0` and the long `Int64(1)` in an equality, an `$in`, a range, a sort, an
index and a unique index."""

from __future__ import annotations

from typing import Any

import pytest
from bson.decimal128 import Decimal128
from bson.int64 import Int64
from pymongo import IndexModel
from pymongo.errors import DuplicateKeyError

from tests.engine.fronts import Front


async def _filled(front: Front) -> Any:
    numbers = front.collection("numbers")
    await numbers.insert_many(
        [
            {"_id": "decimal", "n": Decimal128("1")},
            {"_id": "int", "n": 1},
            {"_id": "double", "n": 1.0},
            {"_id": "long", "n": Int64(1)},
            {"_id": "half", "n": Decimal128("0.5")},
            {"_id": "two", "n": 2},
        ]
    )
    return numbers


async def _ids(numbers: Any, filter: dict[str, Any], **options: Any) -> list[str]:
    return [doc["_id"] for doc in await numbers.find(filter, **options).to_list()]


async def test_a_decimal_equals_an_int_a_double_and_a_long(front: Front) -> None:
    numbers = await _filled(front)
    ones = ["decimal", "int", "double", "long"]
    assert await _ids(numbers, {"n": 1}) == ones
    assert await _ids(numbers, {"n": Decimal128("1.0")}) == ones
    assert await _ids(numbers, {"n": {"$in": [Int64(1)]}}) == ones


async def test_ranges_compare_decimals_with_other_numbers(front: Front) -> None:
    numbers = await _filled(front)
    assert await _ids(numbers, {"n": {"$lt": 1}}) == ["half"]
    assert await _ids(numbers, {"n": {"$gt": Decimal128("1.5")}}) == ["two"]


async def test_a_sort_orders_decimals_among_other_numbers(front: Front) -> None:
    numbers = await _filled(front)
    found = await _ids(numbers, {}, sort=[("n", -1), ("_id", 1)])
    assert found == ["two", "decimal", "double", "int", "long", "half"]


async def test_an_index_files_decimals_with_the_numbers_they_equal(front: Front) -> None:
    numbers = front.collection("numbers")
    await numbers.create_indexes([IndexModel([("n", 1)])])
    await _filled(front)
    await numbers.insert_many([{"_id": f"other{i}", "n": i + 10} for i in range(50)])
    assert await _ids(numbers, {"n": {"$lte": Decimal128("1")}}) == [
        "decimal",
        "int",
        "double",
        "long",
        "half",
    ]
    assert await numbers.count_documents({"n": 1}) == 4


async def test_a_unique_index_refuses_a_decimal_equal_to_a_stored_int(front: Front) -> None:
    numbers = front.collection("numbers")
    await numbers.create_indexes([IndexModel([("n", 1)], unique=True)])
    await numbers.insert_one({"_id": "int", "n": 1})
    with pytest.raises(DuplicateKeyError):
        await numbers.insert_one({"_id": "decimal", "n": Decimal128("1.00")})
