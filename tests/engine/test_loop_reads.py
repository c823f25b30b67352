"""A read that examines one document at most (by `_id` or a unique key) runs on the event loop;
every other command runs on the engine's worker thread, and so does a small read while another
command holds the engine (`EmbeddedEngine.run`)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from pymongo import ASCENDING, IndexModel

from embedded import EmbeddedEngine
from embedded.adapter.collection import EmbeddedCollection

Read = Callable[[EmbeddedCollection], Awaitable[Any]]


class Threads:
    """The thread each command started on."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def started(self, name: str) -> None:
        self.seen.append(threading.current_thread().name)

    def replied(self, result: object) -> None:
        return None


async def _users(threads: Threads) -> EmbeddedCollection:
    users = EmbeddedEngine(threads)["test"]["users"]
    await users.create_indexes([IndexModel([("userId", ASCENDING)], unique=True)])
    await users.insert_many([{"_id": n, "userId": f"u{n}", "n": n} for n in range(5)])
    threads.seen.clear()
    return users


async def _aggregate(users: EmbeddedCollection, pipeline: list[dict[str, Any]]) -> list[Any]:
    return await (await users.aggregate(pipeline)).to_list()


BY_KEY: dict[str, Read] = {
    "find_one by _id": lambda users: users.find_one({"_id": 3}),
    "find by unique key": lambda users: users.find({"userId": "u2"}).to_list(),
    "aggregate by unique key": lambda users: _aggregate(
        users, [{"$match": {"userId": "u1"}}, {"$project": {"n": 1}}]
    ),
}
NOT_BY_KEY: dict[str, Read] = {
    "find of a range": lambda users: users.find({"n": {"$gte": 1}}).to_list(),
    "aggregate without a leading match": lambda users: _aggregate(users, [{"$sort": {"n": 1}}]),
    "aggregate by key, then a lookup": lambda users: _aggregate(
        users,
        [
            {"$match": {"_id": 1}},
            {"$lookup": {"from": "users", "localField": "n", "foreignField": "n", "as": "s"}},
        ],
    ),
    "aggregate by key, then a facet": lambda users: _aggregate(
        users,
        [
            {"$match": {"_id": 1}},
            {"$facet": {"all": [{"$lookup": {"from": "users", "pipeline": [], "as": "s"}}]}},
        ],
    ),
    "update by key": lambda users: users.update_one({"_id": 1}, {"$set": {"m": 1}}),
}


@pytest.mark.parametrize("read", BY_KEY.values(), ids=BY_KEY.keys())
async def test_loop_reads_a_read_by_key_runs_on_the_event_loop(read: Read) -> None:
    threads = Threads()
    users = await _users(threads)
    assert await read(users)
    assert threads.seen == [threading.current_thread().name]


@pytest.mark.parametrize("command", NOT_BY_KEY.values(), ids=NOT_BY_KEY.keys())
async def test_loop_reads_any_other_command_runs_on_the_worker(command: Read) -> None:
    threads = Threads()
    users = await _users(threads)
    await command(users)
    assert len(threads.seen) == 1
    assert threads.seen[0].startswith("embedded-engine")


async def test_loop_reads_a_read_by_key_waits_for_a_command_that_holds_the_engine() -> None:
    threads = Threads()
    users = await _users(threads)
    engine = users._engine
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        held.set()
        release.wait(5)

    holding = asyncio.ensure_future(engine.run("hold", hold))
    await asyncio.to_thread(held.wait, 5)
    reading = asyncio.ensure_future(users.find_one({"_id": 2}))
    await asyncio.sleep(0.05)
    assert not reading.done()  # neither answered nor blocking the loop: queued on the worker
    release.set()
    await holding
    assert (await reading)["n"] == 2
    assert [name.startswith("embedded-engine") for name in threads.seen] == [True, True]


async def test_loop_reads_a_key_of_a_partial_unique_index_is_not_one_document() -> None:
    threads = Threads()
    users = EmbeddedEngine(threads)["test"]["users"]
    partial = {"partialFilterExpression": {"active": True}}
    await users.create_indexes([IndexModel([("userId", ASCENDING)], unique=True, **partial)])
    await users.insert_many([{"_id": n, "userId": "same", "active": False} for n in range(3)])
    threads.seen.clear()
    assert len(await users.find({"userId": "same"}).to_list()) == 3
    assert threads.seen[0].startswith("embedded-engine")
