"""Tries of one call with one key that overlap: concurrent over the app, and interleavings
forced by holding the first try inside its write (the engine runs a call's commands too fast
for a second try to meet a pending first one by chance)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from datetime import timedelta
from typing import Any

import pytest
from pymongo.errors import AutoReconnect

from store import idempotency, trades
from store.idempotency import Claim, Refusal, Refused
from store.sensors import sensors
from store.series import series
from tests.ingestion.support import MUTATIONS, RECORD_EVENTS, events_call, ingestion, key_records
from tests.sensors.queries import create_sensor
from tests.support import Api, error_codes

WRITES = {
    "recordSensorEvents": (sensors, "record_sensor_events"),
    "recordObservations": (series, "record_observations"),
    "recordTrades": (trades, "record_trades"),
}


class Gate:
    """Holds the first call of a store write until opened; later calls pass."""

    def __init__(self, write: Callable[..., Awaitable[Any]]) -> None:
        self.write = write
        self.entered = asyncio.Event()
        self.opened = asyncio.Event()
        self.calls = 0

    async def __call__(self, *args: Any, **kwargs: Any) -> Any:
        self.calls += 1
        if self.calls == 1:
            self.entered.set()
            await self.opened.wait()
        return await self.write(*args, **kwargs)


@pytest.fixture(params=MUTATIONS)
def mutation(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    return name


@pytest.fixture
def gate(mutation: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    module, name = WRITES[mutation]
    held = Gate(getattr(module, name))
    monkeypatch.setattr(module, name, held)
    yield held
    held.opened.set()


async def test_ingestion_tries_racing_with_one_key_store_once(api: Api, mutation: str) -> None:
    call = await ingestion(api, mutation)
    answers = await asyncio.gather(
        *(api.data(call.document, call.variables("k-1", 3)) for _ in range(8))
    )
    assert all(answer == answers[0] for answer in answers)
    await api.data(call.document, call.variables(None, 3))  # once more, without a key
    twice = await call.stored()
    await api.data(call.document, call.variables("k-1", 3))
    assert await call.stored() == twice
    assert [record["state"] for record in await key_records(api)] == ["done"]


async def test_ingestion_retry_while_the_first_try_runs_is_conflict(
    api: Api, mutation: str, gate: Gate
) -> None:
    call = await ingestion(api, mutation)
    first = asyncio.create_task(api.data(call.document, call.variables("k-1", 3)))
    await gate.entered.wait()
    body = await api.post(call.document, call.variables("k-1", 3))
    assert error_codes(body) == ["CONFLICT"]
    assert body["errors"][0]["extensions"]["argument"] == "idempotencyKey"
    assert "still running" in body["errors"][0]["message"]
    assert gate.calls == 1  # the retry wrote nothing
    gate.opened.set()
    answer = await first
    assert await api.data(call.document, call.variables("k-1", 3)) == answer
    assert gate.calls == 1


async def test_ingestion_retry_waits_for_a_first_try_that_ends_soon(
    api: Api, mutation: str, gate: Gate
) -> None:
    call = await ingestion(api, mutation)
    first = asyncio.create_task(api.data(call.document, call.variables("k-1", 3)))
    await gate.entered.wait()
    retry = asyncio.create_task(api.data(call.document, call.variables("k-1", 3)))
    await asyncio.sleep(0.1)  # the retry is polling the first try's record
    gate.opened.set()
    answer = await first
    assert await retry == answer
    assert gate.calls == 1


async def test_ingestion_try_with_other_arguments_while_the_first_runs_is_bad_user_input(
    api: Api, mutation: str, gate: Gate
) -> None:
    call = await ingestion(api, mutation)
    first = asyncio.create_task(api.data(call.document, call.variables("k-1", 3)))
    await gate.entered.wait()
    body = await api.post(call.document, call.variables("k-1", 4))
    assert error_codes(body) == ["BAD_USER_INPUT"]
    gate.opened.set()
    await first
    assert gate.calls == 1


async def test_ingestion_first_try_past_its_lease_is_unknown(
    api: Api, mutation: str, gate: Gate
) -> None:
    call = await ingestion(api, mutation)
    first = asyncio.create_task(api.data(call.document, call.variables("k-1", 3)))
    await gate.entered.wait()
    api.clock.now += idempotency.PENDING_LEASE
    body = await api.post(call.document, call.variables("k-1", 3))
    assert error_codes(body) == ["CONFLICT"]
    assert "not known" in body["errors"][0]["message"]
    gate.opened.set()
    answer = await first  # it ends after all: its answer is stored, and retries get it
    assert await api.data(call.document, call.variables("k-1", 3)) == answer


async def test_ingestion_retry_after_a_database_error_during_the_write_is_unknown(
    api: Api, mutation: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    call = await ingestion(api, mutation)
    module, name = WRITES[mutation]
    write = getattr(module, name)

    async def written_then_lost(*args: Any, **kwargs: Any) -> Any:
        await write(*args, **kwargs)
        raise AutoReconnect("connection closed")  # the write applied; its reply was lost

    monkeypatch.setattr(module, name, written_then_lost)
    body = await api.post(call.document, call.variables("k-1", 3))
    assert error_codes(body) == ["SERVICE_UNAVAILABLE"]
    monkeypatch.setattr(module, name, write)
    stored = await call.stored()
    retry = await api.post(call.document, call.variables("k-1", 3))
    assert error_codes(retry) == ["CONFLICT"]
    assert "what it stored is not known" in retry["errors"][0]["message"]
    assert await call.stored() == stored


async def test_record_sensor_events_retry_after_the_payload_read_failed_gets_the_answer(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    find = sensors.find_sensors

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise AutoReconnect("connection closed")

    monkeypatch.setattr(sensors, "find_sensors", lost)
    body = await api.post(RECORD_EVENTS, events_call(sensor_id, "k-1", count=2))
    assert error_codes(body) == ["SERVICE_UNAVAILABLE"]  # after the write: it happened
    monkeypatch.setattr(sensors, "find_sensors", find)
    retry = await api.data(RECORD_EVENTS, events_call(sensor_id, "k-1", count=2))
    assert retry["recordSensorEvents"]["sensors"] == [{"sensorId": sensor_id, "count24h": 2}]


async def test_idempotency_claims_racing_for_an_expired_record_give_it_to_one(api: Api) -> None:
    coll = api.collection(idempotency.COLLECTION)
    now = api.clock()
    await idempotency.claim(coll, scope="s", key="k", request="old", now=now - timedelta(days=2))
    tries = [
        idempotency.claim(coll, scope="s", key="k", request="new", now=now, polls=())
        for _ in range(2)
    ]
    outcomes = await asyncio.gather(*tries)
    assert sorted(type(outcome).__name__ for outcome in outcomes) == ["Claim", "Refused"]
    [refused] = [outcome for outcome in outcomes if isinstance(outcome, Refused)]
    assert refused.reason is Refusal.RUNNING
    [claim] = [outcome for outcome in outcomes if isinstance(outcome, Claim)]
    [record] = await key_records(api)
    assert (record["token"], record["request"]) == (claim.token, "new")
