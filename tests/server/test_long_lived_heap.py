"""What survives a full collection is frozen at the event loop's next turn
(web/server/long_lived.py), so that the next full collection scans only what has grown since; and
what is frozen is never garbage that only the collector could free: requests of every kind, new
documents, errors and documents the cache lets go leave none behind."""

from __future__ import annotations

import asyncio
import gc
import os
import sys

import pytest

import schema.schema as built
from schema.schema import CACHED_DOCUMENT_CHARS
from settings import Settings
from tests.support import ApiFactory

KINDS = (
    '{ user(userId: "u") { orders(first: 5) { edges { cursor node { orderId } } } } }',
    '{ users(userIds: ["u", "v"]) { userId orderCount } }',
    "{ sensors(first: 3) { edges { node { id } } totalCount } }",
    '{ series(measurement: "nope", from: "2024-01-01T00:00:00Z", '
    'to: "2024-01-02T00:00:00Z", granularity: HOUR, fields: ["x"]) { start } }',
    '{ user(userId: "u") { orders(first: -1) { totalCount } } }',
    "{ nothere }",
    "{ user(",
    'mutation { upsertOrders(userId: "u", orders: [{id: "2", '
    'createTime: "2024-01-02T00:00:00Z"}]) { orderCount } }',
    'mutation { createChatSession(title: "t") { id } }',
    "{ sensors(first: 1) { totalCount } } # " + "x" * (CACHED_DOCUMENT_CHARS + 1),  # uncached
)
ORDERS = """mutation { upsertOrders(userId: "u", orders: [
  {id: "1", createTime: "2024-01-01T00:00:00Z"}]) { orderCount } }"""


def _frozen_garbage() -> list[object]:
    """What was frozen and has since become garbage only the collector frees: what is not
    frozen is collected first, then the frozen is let go and collected, its garbage kept."""
    gc.collect()
    gc.disable()
    try:
        gc.unfreeze()
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        return list(gc.garbage)
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def _settled() -> None:
    """A full collection, and the loop's next turn, where the freeze waits."""
    gc.collect()
    await asyncio.sleep(0)
    await asyncio.sleep(0)


async def test_what_survives_a_full_collection_is_frozen(make_api: ApiFactory) -> None:
    async with make_api(Settings()) as api:
        await api.data(ORDERS)
        kept: list[object] = []  # tracked, and alive past the collection
        await _settled()
        assert not any(tracked is kept for tracked in gc.get_objects())
        assert gc.get_freeze_count() > 0


# Set in the process the test starts for itself.
ALONE = "ARRAYGRAPH_TEST_HEAP_ALONE"


async def test_what_is_frozen_never_becomes_garbage(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not os.environ.get(ALONE):
        # A server's own heap is the point: in a test run, what earlier tests left alive (their
        # schemas, held by library caches until later builds push them out) is frozen here and
        # freed later, which says nothing of a server. So the scenario runs in a process alone.
        await _run_alone(f"{__file__}::test_what_is_frozen_never_becomes_garbage")
        return
    monkeypatch.setattr(built, "DOCUMENT_CACHE_SIZE", 3)  # documents come and go
    gc.unfreeze()
    gc.collect()  # what earlier tests left
    async with make_api(Settings()) as api:
        await api.data(ORDERS)
        for round_ in range(3):
            for number, query in enumerate(KINDS):
                distinct = f"{query} # {round_} {number}"
                body = await api.post(distinct)
                assert "data" in body or "errors" in body
                await _settled()
        for query in KINDS:  # the cache lets the last ones go
            await api.post(f"{query} # again")
        garbage = _frozen_garbage()
        assert garbage == []


async def _run_alone(test: str) -> None:
    started = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", test),
        env={**os.environ, ALONE: "1"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    output, _ = await started.communicate()
    assert started.returncode == 0, output.decode(errors="replace")[-4000:]
    assert b"1 passed" in output
