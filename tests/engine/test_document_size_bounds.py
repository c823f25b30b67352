"""An update pipeline's new document is checked against the 16 MiB limit from a bound of its
size (`embedded.writes.document_limits`): the bound is never below the size, a document past the
limit is refused however it got there, and one within it is never refused for its bound."""

from __future__ import annotations

import random
from typing import Any

import bson
import pytest
from pymongo.errors import WriteError

from embedded import mongomock_internals as mongomock
from embedded.planner.indexes import table_of
from embedded.rules import UPDATE_TOO_LARGE
from tests.engine.fronts import Front

MIB = 1024 * 1024
KIB = 1024


def _bound_and_size(front: Front, document_id: Any) -> tuple[int | None, int]:
    table = table_of(front.engine["test"]["things"].mongomock_collection)
    key = mongomock.store_key(document_id)
    stored = table.filed_under(key)
    assert stored is not None
    return table.size_bound(key, stored), len(bson.encode(stored))


async def test_update_pipeline_repeating_kept_elements_past_16_mib_is_rejected(
    front: Front,
) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "parts": ["x" * MIB for _ in range(9)]})
    await things.update_one({"_id": 1}, [{"$set": {"n": 1}}])  # a bound is held from here
    doubled = [{"$set": {"parts": {"$concatArrays": ["$parts", "$parts"]}}}]
    with pytest.raises(WriteError) as raised:
        await things.update_one({"_id": 1}, doubled)
    assert raised.value.code == UPDATE_TOO_LARGE
    stored = await things.find_one({"_id": 1})
    assert len(stored["parts"]) == 9 and stored["n"] == 1


async def test_update_pipeline_copying_a_kept_array_past_16_mib_is_rejected(front: Front) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "parts": ["x" * MIB for _ in range(9)]})
    await things.update_one({"_id": 1}, [{"$set": {"n": 1}}])
    with pytest.raises(WriteError) as raised:
        await things.update_one({"_id": 1}, [{"$set": {"copy": "$parts"}}])
    assert raised.value.code == UPDATE_TOO_LARGE
    assert "copy" not in await things.find_one({"_id": 1})


async def test_update_pipeline_within_16_mib_is_stored_however_far_its_bound_drifted(
    front: Front,
) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "blob": "x" * (15 * MIB + 512 * KIB), "note": ""})
    for round_ in range(12):  # each adds 200 KiB to the bound, none to the size
        note = f"{round_:02d}" * (100 * KIB)
        await things.update_one({"_id": 1}, [{"$set": {"note": {"$literal": note}}}])
    stored = await things.find_one({"_id": 1})
    assert stored["note"] == "11" * (100 * KIB)
    bound, size = _bound_and_size(front, 1)
    assert bound is not None and size <= bound <= 16 * MIB


async def test_update_pipeline_bound_counts_the_longer_index_keys_of_moved_elements(
    front: Front,
) -> None:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "items": [{"i": n} for n in range(1000)]})
    await things.update_one({"_id": 1}, [{"$set": {"n": 1}}])  # an exact bound from here
    # The kept elements move from indexes of 1 to 3 digits to indexes of 4.
    prepended = {"$concatArrays": [{"$literal": [0] * 9000}, "$items"]}
    await things.update_one({"_id": 1}, [{"$set": {"items": prepended}}])
    bound, size = _bound_and_size(front, 1)
    assert bound is not None and bound >= size


def _random_value(rng: random.Random) -> Any:
    return rng.choice(
        [
            rng.randint(-(2**40), 2**40),
            "s" * rng.randint(0, 40),
            {"k": rng.random(), "t": "v" * rng.randint(0, 9)},
            [rng.randint(0, 9) for _ in range(rng.randint(0, 3))],
        ]
    )


def _random_pipeline(rng: random.Random) -> list[dict[str, Any]]:
    fresh = [_random_value(rng) for _ in range(rng.randint(0, 120))]
    stages: list[dict[str, Any]] = [
        {"$set": {"items": {"$concatArrays": ["$items", {"$literal": fresh}]}}},
        {"$set": {"items": {"$concatArrays": [{"$literal": fresh}, "$items"]}}},
        {"$set": {"items": {"$slice": ["$items", rng.randint(0, 30)]}}},
        {"$set": {"items": {"$filter": {"input": "$items", "cond": {"$isNumber": "$$this"}}}}},
        {"$set": {"items": {"$concatArrays": ["$items", "$items"]}}},
        {"$set": {"other": "$items"}},
        {"$set": {"note": {"$literal": _random_value(rng)}}},
        {"$unset": rng.choice(["note", "other"])},
    ]
    return [rng.choice(stages) for _ in range(rng.randint(1, 3))]


async def test_update_pipeline_bound_is_never_below_the_document_size(front: Front) -> None:
    rng = random.Random(20261124)
    things = front.collection("things")
    await things.insert_one({"_id": 1, "items": [1, 2, 3], "note": "n"})
    held = 0
    for _ in range(300):
        await things.update_one({"_id": 1}, [{"$set": {"items": {"$slice": ["$items", 400]}}}])
        await things.update_one({"_id": 1}, _random_pipeline(rng))
        bound, size = _bound_and_size(front, 1)
        if bound is not None:
            held += 1
            assert bound >= size
    assert held > 250
