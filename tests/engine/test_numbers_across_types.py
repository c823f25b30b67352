"""Numbers compare by value across their types, as on a server: a `Decimal128("1")` equals the
int `1`, the double `1.0` and the long `Int64(1)` in an equality, an `$in`, a range and a sort."""

from __future__ import annotations

from typing import Any

from bson.decimal128 import Decimal128
from bson.int64 import Int64

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
