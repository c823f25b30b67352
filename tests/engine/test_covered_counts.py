"""An aggregation's `$match` + `$count` is counted on an index when one condition on the index's
first field decides the filter (an equality, `$in`, or bounds of plain values): no document is
examined but the index's exceptions (arrays, NaN, booleans...), as a server's covered count
examines none. The count is always the scan's."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pymongo import IndexModel

from embedded import mongomock_internals as mongomock
from tests.engine.fronts import Front
from tests.engine.test_index_answers import _condition, seeded_things


async def _counted(front: Front, filter: dict[str, Any]) -> int:
    pipeline = [{"$match": filter}, {"$count": "n"}]
    found = await (await front.collection("things").aggregate(pipeline)).to_list()
    return int(found[0]["n"]) if found else 0


def _scanned(docs: list[dict[str, Any]], filter: dict[str, Any]) -> int:
    stored = mongomock.to_stored_datetimes(filter)
    return sum(mongomock.filter_applies(stored, mongomock.to_stored_datetimes(d)) for d in docs)


@pytest.mark.parametrize("seed", range(4))
async def test_covered_counts_are_the_scans(front: Front, seed: int) -> None:
    rng = random.Random(seed)
    _, docs = await seeded_things(front, rng)
    for _ in range(150):
        field = rng.choice(["a", "b", "u", "s.t", "_id"])
        filter = {field: _condition(rng, field)}
        assert await _counted(front, filter) == _scanned(docs, filter), filter


async def test_covered_counts_examine_no_document(front: Front) -> None:
    coll = front.collection("things")
    await coll.create_indexes([IndexModel([("a", 1), ("b", 1)], name="a_b")])
    await coll.insert_many([{"_id": n, "a": n % 100, "b": n} for n in range(2_000)])
    front.examined.reset()
    assert await _counted(front, {"a": {"$gte": 10, "$lt": 20}}) == 200
    assert await _counted(front, {"a": {"$in": [1, 2.0, 300]}}) == 40
    assert await _counted(front, {"_id": {"$gt": 1_500}}) == 499
    assert front.examined.total == 0


async def test_covered_counts_examine_the_index_exceptions(front: Front) -> None:
    coll = front.collection("things")
    await coll.create_indexes([IndexModel([("a", 1)], name="a")])
    odd = [[5], True, float("nan"), {"x": 5}]
    await coll.insert_many([{"_id": n, "a": n} for n in range(100)])
    await coll.insert_many([{"_id": 100 + n, "a": value} for n, value in enumerate(odd)])
    front.examined.reset()
    assert await _counted(front, {"a": 5}) == 2  # 5 and [5]
    assert front.examined.total == len(odd)


async def test_covered_counts_examine_every_document_the_index_cannot_decide(
    front: Front,
) -> None:
    coll = front.collection("things")
    await coll.create_indexes([IndexModel([("a", 1)], name="a")])
    await coll.insert_many([{"_id": n, "a": n, "b": n % 2} for n in range(100)])
    front.examined.reset()
    assert await _counted(front, {"a": {"$gte": 50}, "b": 1}) == 25  # the index finds 50
    assert await _counted(front, {"a": {"$ne": 3}}) == 99  # a scan
    assert front.examined.total == 50 + 100
