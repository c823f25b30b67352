"""An array equals a value when it, or one of its elements, does, whatever the form of the
equality (a plain value or `$eq`), and `$ne` is exactly its negation, as on a server."""

from __future__ import annotations

from typing import Any

from tests.engine.fronts import Front


async def _ids(front: Front, filter: dict[str, Any]) -> list[int]:
    return [doc["_id"] for doc in await front.collection("arrays").find(filter).to_list()]


async def test_eq_and_ne_of_an_array_look_at_its_elements_too(front: Front) -> None:
    await front.collection("arrays").insert_many(
        [{"_id": 1, "a": [[1, 2], 3]}, {"_id": 2, "a": [1, 2]}, {"_id": 3, "a": 1}, {"_id": 4}]
    )
    assert await _ids(front, {"a": [1, 2]}) == [1, 2]
    assert await _ids(front, {"a": {"$eq": [1, 2]}}) == [1, 2]
    assert await _ids(front, {"a": {"$ne": [1, 2]}}) == [3, 4]
