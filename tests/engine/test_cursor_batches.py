"""Reads cost the round trips they cost on a server: a first batch of 101 documents (or
16 MiB), then one `getMore` per further batch of up to 16 MiB."""

from __future__ import annotations

import asyncio

import pytest

from embedded import CommandCounts, EmbeddedCollection, EmbeddedEngine
from embedded.adapter.batches import split

MIB = 1024 * 1024


@pytest.fixture
def counts() -> CommandCounts:
    return CommandCounts()


@pytest.fixture
async def coll(counts: CommandCounts) -> EmbeddedCollection:
    things = EmbeddedEngine(counts)["test"]["things"]
    await things.insert_many([{"_id": i} for i in range(150)])
    counts.reset()
    return things


async def test_a_find_of_150_documents_is_a_find_and_one_get_more(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    docs = await coll.find({}).to_list()
    assert [d["_id"] for d in docs] == list(range(150))
    assert dict(counts.by_name) == {"find": 1, "getMore": 1}


async def test_a_find_of_101_documents_is_one_round_trip(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    assert len(await coll.find({"_id": {"$lt": 101}}).to_list()) == 101
    assert dict(counts.by_name) == {"find": 1}


async def test_an_aggregate_past_101_documents_needs_a_get_more(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    cursor = await coll.aggregate([{"$sort": {"_id": -1}}])
    assert len(await cursor.to_list()) == 150
    assert dict(counts.by_name) == {"aggregate": 1, "getMore": 1}


async def test_find_one_is_one_round_trip_whatever_matches(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    assert (await coll.find_one({}, sort=[("_id", -1)]))["_id"] == 149
    assert dict(counts.by_name) == {"find": 1}


async def test_to_list_of_a_length_fetches_only_the_batches_it_needs(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    cursor = coll.find({})
    assert len(await cursor.to_list(100)) == 100
    assert dict(counts.by_name) == {"find": 1}
    assert [d["_id"] for d in await cursor.to_list()] == list(range(100, 150))
    assert dict(counts.by_name) == {"find": 1, "getMore": 1}


async def test_a_batch_size_makes_smaller_batches(
    coll: EmbeddedCollection, counts: CommandCounts
) -> None:
    assert len(await coll.find({}, batch_size=50).to_list()) == 150
    assert dict(counts.by_name) == {"find": 1, "getMore": 2}


async def test_batches_stop_before_16_mib(counts: CommandCounts) -> None:
    blobs = EmbeddedEngine(counts)["test"]["blobs"]
    for i in range(3):
        await blobs.insert_one({"_id": i, "blob": "x" * (6 * MIB)})
    counts.reset()
    assert len(await blobs.find({}).to_list()) == 3
    assert dict(counts.by_name) == {"find": 1, "getMore": 1}  # 12 MiB, then 6 MiB


def test_a_get_more_batch_holds_up_to_16_mib_of_any_number_of_documents() -> None:
    docs = [{"_id": i, "s": "x" * 1000} for i in range(20_000)]  # about 20 MB
    sizes = [len(batch) for batch in split(docs)]
    assert sizes[0] == 101
    assert len(sizes) == 3 and sum(sizes) == 20_000


async def test_the_observer_sees_each_batch_as_a_reply() -> None:
    seen: list[object] = []

    class Observer:
        def started(self, name: str) -> None:
            seen.append(name)

        def replied(self, result: object) -> None:
            seen.append(len(result) if isinstance(result, list) else result)

    things = EmbeddedEngine(Observer())["test"]["things"]
    await things.insert_many([{"_id": i} for i in range(150)])
    seen.clear()
    await things.find({}).to_list()
    assert seen == ["find", 101, "getMore", 49]


async def test_each_get_more_yields_to_the_event_loop() -> None:
    seen: list[str] = []

    class Observer:
        def started(self, name: str) -> None:
            seen.append(name)

        def replied(self, result: object) -> None:
            return None

    things = EmbeddedEngine(Observer())["test"]["things"]
    await things.insert_many([{"_id": i} for i in range(150)])

    async def ticker() -> None:
        while True:
            seen.append("tick")
            await asyncio.sleep(0)

    task = asyncio.create_task(ticker())
    await asyncio.sleep(0)
    seen.clear()
    await things.find({}).to_list()
    task.cancel()
    between = seen[seen.index("find") + 1 : seen.index("getMore")]
    assert "tick" in between
