"""While the database works on a command, the event loop keeps serving: `/healthz` and
requests that need no command are answered while a command is in flight (issue 14, item 3).
The embedded engine runs each command on a worker thread of its own; a real server is another
process.

The engine is kept busy (its lock held by another thread, as a heavy command holds it while it
runs), a command is sent and counted waiting for the engine, and then every request must be
answered while that command is still in flight. A loop held by the command would answer none
of them until the engine let it go. How long the answers take is the bench's to measure.
"""

from __future__ import annotations

import asyncio

import pytest

from tests.support import Api
from tests.support.engine_lock import WatchedLock, busy_engine
from tests.support.examined import engine_of

REQUESTS = 10
SENT_POLLS = 2_000  # turns of the loop given to the command to reach the engine


async def _answered_while_a_command_waits(
    api: Api, monkeypatch: pytest.MonkeyPatch, path: str, json: object = None
) -> int:
    """How many of REQUESTS requests to `path` were answered while a command was in flight."""
    found = engine_of(api.database)
    if found is None:
        pytest.skip("a real MongoDB runs commands in a process of its own: no engine to hold")
    heavy = api.collection("heavy")
    await heavy.insert_many([{"_id": i} for i in range(3)])
    with busy_engine(found[0], monkeypatch) as lock:
        command = asyncio.create_task(heavy.count_documents({}))
        await _until_waiting(lock, command)
        answered = 0
        for _ in range(REQUESTS):
            if json is None:
                response = await api.client.get(path)
            else:
                response = await api.client.post(path, json=json)
            assert response.status_code == 200
            answered += not command.done()
    assert await command == 3
    return answered


async def _until_waiting(lock: WatchedLock, command: asyncio.Task[int]) -> None:
    for _ in range(SENT_POLLS):
        if lock.waited or command.done():
            break
        await asyncio.sleep(0.005)
    assert lock.waited == 1, "the command never reached the busy engine"
    assert not command.done()


async def test_event_loop_answers_healthz_while_a_command_is_in_flight(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert await _answered_while_a_command_waits(api, monkeypatch, "/healthz") == REQUESTS


async def test_event_loop_answers_a_query_without_commands_while_a_command_is_in_flight(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    query = {"query": "{ __typename }"}
    answered = await _answered_while_a_command_waits(api, monkeypatch, "/graphql", query)
    assert answered == REQUESTS
