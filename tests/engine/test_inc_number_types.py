"""`$inc` and `$mul` keep a server's number types: an Int64 incremented by an int stays an Int64,
an int32 past 32 bits becomes an Int64, a double makes the result a double, a Decimal128 a
Decimal128; `$mul` of a missing field stores a zero of the multiplier's type."""

from __future__ import annotations

from typing import Any

from bson.decimal128 import Decimal128
from bson.int64 import Int64

from tests.engine.fronts import Front

INT32_MAX = 2**31 - 1


async def _counter(front: Front, **fields: Any) -> Any:
    counters = front.collection("counters")
    await counters.insert_one({"_id": 1, **fields})
    return counters


async def _types(counters: Any) -> dict[str, str]:
    """Each field's BSON type, as the server's `$type` names it."""
    doc = await counters.find_one({"_id": 1})
    found = {}
    for field in doc:
        for name in ("int", "long", "double", "decimal"):
            if await counters.count_documents({"_id": 1, field: {"$type": name}}):
                found[field] = name
    return found


async def test_an_int64_incremented_by_an_int_stays_an_int64(front: Front) -> None:
    counters = await _counter(front, n=Int64(5))
    await counters.update_one({"_id": 1}, {"$inc": {"n": 1}})
    assert await counters.find_one({"_id": 1}) == {"_id": 1, "n": 6}
    assert await _types(counters) == {"_id": "int", "n": "long"}


async def test_an_int32_past_32_bits_becomes_an_int64(front: Front) -> None:
    counters = await _counter(front, n=INT32_MAX)
    await counters.update_one({"_id": 1}, {"$inc": {"n": 1}})
    assert (await counters.find_one({"_id": 1}))["n"] == INT32_MAX + 1
    assert (await _types(counters))["n"] == "long"


async def test_an_increment_with_a_double_or_decimal_widens_the_result(front: Front) -> None:
    counters = await _counter(front, a=Int64(2), b=2, c=Int64(2))
    await counters.update_one({"_id": 1}, {"$inc": {"a": 0.5, "b": Decimal128("0.5"), "c": 1}})
    assert await counters.find_one({"_id": 1}) == {
        "_id": 1,
        "a": 2.5,
        "b": Decimal128("2.5"),
        "c": 3,
    }
    assert await _types(counters) == {"_id": "int", "a": "double", "b": "decimal", "c": "long"}


async def test_mul_keeps_types_and_starts_a_missing_field_at_a_typed_zero(front: Front) -> None:
    counters = await _counter(front, n=Int64(3))
    await counters.update_one({"_id": 1}, {"$mul": {"n": 2, "fresh": Int64(7)}})
    assert await counters.find_one({"_id": 1}) == {"_id": 1, "n": 6, "fresh": 0}
    assert await _types(counters) == {"_id": "int", "n": "long", "fresh": "long"}
