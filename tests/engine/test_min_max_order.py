"""`$min` and `$max` compare in BSON's order, as on a server: against a stored null (which sorts
below every number), across types (numbers below strings), and with NaN below every number."""

from __future__ import annotations

import math
from typing import Any

from tests.engine.fronts import Front


async def _stored(front: Front, **fields: Any) -> Any:
    values = front.collection("values")
    await values.insert_one({"_id": 1, **fields})
    return values


async def test_min_keeps_a_stored_null_and_max_replaces_it(front: Front) -> None:
    values = await _stored(front, low=None, high=None)
    await values.update_one({"_id": 1}, {"$min": {"low": 5}, "$max": {"high": 5}})
    assert await values.find_one({"_id": 1}) == {"_id": 1, "low": None, "high": 5}


async def test_min_and_max_compare_across_types(front: Front) -> None:
    values = await _stored(front, low="text", high="text")
    await values.update_one({"_id": 1}, {"$min": {"low": 5}, "$max": {"high": 5}})
    assert await values.find_one({"_id": 1}) == {"_id": 1, "low": 5, "high": "text"}


async def test_nan_is_below_every_number(front: Front) -> None:
    values = await _stored(front, low=1.0, high=float("nan"))
    await values.update_one({"_id": 1}, {"$min": {"low": float("nan")}, "$max": {"high": -5}})
    stored = await values.find_one({"_id": 1})
    assert math.isnan(stored["low"])
    assert stored["high"] == -5
