"""While the database works on one heavy command, the event loop keeps serving: `/healthz`
and requests that need no command answer within 100 ms (issue 14, item 3). The embedded
engine runs each command on a worker thread of its own; a real server is another process.

Measured: about 2 ms each. On a loaded machine the scheduler can hold the thread that has the
interpreter lock now and then, so the bound is asserted for 9 requests in 10, and every one
within a second: a loop held by the command would answer none until the command ended.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import time

import pytest

from store.protocols import AsyncCollection
from tests.support import Api

# A self-join that matches nothing: every document is compared with every other (quadratic in
# the embedded engine: about 2.5 s on a 2-core machine), and little is allocated and kept, so
# that no full garbage collection (which pauses every thread) falls inside the measure.
DOCUMENTS = 900
JOIN = [
    {"$lookup": {"from": "heavy", "localField": "k", "foreignField": "none", "as": "same"}},
    {"$project": {"n": {"$size": "$same"}}},
]
HEAVY_SECONDS = 1.0  # the command must run at least this long for the test to mean anything
ANSWER_SECONDS = 0.1
OUTLIER_SECONDS = 1.0


async def _latencies_during_heavy_command(api: Api, path: str, json: object = None) -> list[float]:
    """How long each request to `path` took while the heavy command ran."""
    heavy = api.collection("heavy")
    await heavy.insert_many([{"_id": i, "k": i % 10, "none": -1} for i in range(DOCUMENTS)])
    # What earlier tests left is collected now and frozen, so that a collection during the
    # measure (which pauses every thread) scans this test's objects only.
    gc.collect()
    gc.freeze()
    try:
        return await _measure(api, heavy, path, json)
    finally:
        gc.unfreeze()


async def _measure(api: Api, heavy: AsyncCollection, path: str, json: object) -> list[float]:
    api.commands.reset()

    async def join() -> float:
        start = time.monotonic()
        found = await (await heavy.aggregate(JOIN)).to_list()
        assert len(found) == DOCUMENTS
        return time.monotonic() - start

    task = asyncio.create_task(join())
    for _ in range(1_000):  # until the command is sent
        if api.commands.count:
            break
        await asyncio.sleep(0.005)
    latencies = []
    while not task.done():
        start = time.monotonic()
        if json is None:
            response = await api.client.get(path)
        else:
            response = await api.client.post(path, json=json)
        latencies.append(time.monotonic() - start)
        assert response.status_code == 200
        await asyncio.sleep(0.02)
    assert await task >= HEAVY_SECONDS
    return latencies[:-1]  # the last may have started as the command ended


@pytest.fixture(autouse=True)
def _no_broken_log_handlers(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without handlers an earlier test left on the root logger writing to a stream that is now
    closed (a `cli.main` run under capsys): each record would print a "Logging error" traceback,
    write by write, each write waiting for the interpreter lock the engine's thread holds."""
    root = logging.getLogger()
    kept = [
        handler
        for handler in root.handlers
        if not (
            isinstance(handler, logging.StreamHandler) and getattr(handler.stream, "closed", False)
        )
    ]
    monkeypatch.setattr(root, "handlers", kept)


def _assert_answered_at_once(latencies: list[float]) -> None:
    assert len(latencies) >= 10, latencies
    ordered = sorted(latencies)
    assert ordered[len(ordered) * 9 // 10 - 1] < ANSWER_SECONDS, ordered
    assert ordered[-1] < OUTLIER_SECONDS, ordered


async def test_event_loop_answers_healthz_while_a_heavy_command_runs(api: Api) -> None:
    _assert_answered_at_once(await _latencies_during_heavy_command(api, "/healthz"))


async def test_event_loop_answers_a_query_without_commands_while_a_heavy_command_runs(
    api: Api,
) -> None:
    query = {"query": "{ __typename }"}
    _assert_answered_at_once(await _latencies_during_heavy_command(api, "/graphql", query))
