"""Round trips of calls with an `idempotencyKey`: the claim (an insert) and the answer (an
update) around the write, two commands more; a retry is the refused insert and one read. Calls
without a key keep their budgets (tests/sensors, tests/series, tests/trades)."""

from __future__ import annotations

from tests.ingestion.support import (
    RECORD_EVENTS,
    RECORD_EVENTS_COUNTS,
    RECORD_OBSERVATIONS,
    RECORD_TRADES,
    events_call,
    observations_call,
    trades_call,
)
from tests.sensors.queries import create_sensor
from tests.support import Api


async def test_record_sensor_events_with_a_key_takes_three(api: Api) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    assert await api.round_trips(RECORD_EVENTS_COUNTS, events_call(sensor_id, "k-1")) == 3
    assert dict(api.commands.by_name) == {"insert": 1, "update": 2}


async def test_record_sensor_events_retried_with_its_key_takes_two(api: Api) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    await api.data(RECORD_EVENTS_COUNTS, events_call(sensor_id, "k-1"))
    assert await api.round_trips(RECORD_EVENTS_COUNTS, events_call(sensor_id, "k-1")) == 2
    assert dict(api.commands.by_name) == {"insert": 1, "find": 1}


async def test_record_sensor_events_with_a_key_and_the_payload_sensors_takes_four(
    api: Api,
) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    assert await api.round_trips(RECORD_EVENTS, events_call(sensor_id, "k-1")) == 4
    assert await api.round_trips(RECORD_EVENTS, events_call(sensor_id, "k-1")) == 3


async def test_record_observations_with_a_key_takes_three(api: Api) -> None:
    await api.data(RECORD_OBSERVATIONS, observations_call(None))  # names known
    assert await api.round_trips(RECORD_OBSERVATIONS, observations_call("k-1")) == 3
    assert dict(api.commands.by_name) == {"insert": 1, "update": 2}


async def test_record_observations_retried_with_its_key_takes_two(api: Api) -> None:
    await api.data(RECORD_OBSERVATIONS, observations_call("k-1"))
    assert await api.round_trips(RECORD_OBSERVATIONS, observations_call("k-1")) == 2
    assert dict(api.commands.by_name) == {"insert": 1, "find": 1}


async def test_record_trades_into_an_open_bucket_with_a_key_takes_three(api: Api) -> None:
    await api.data(RECORD_TRADES, trades_call(None))
    assert await api.round_trips(RECORD_TRADES, trades_call("k-1")) == 3
    assert dict(api.commands.by_name) == {"insert": 1, "findAndModify": 1, "update": 1}


async def test_record_trades_retried_with_its_key_takes_two(api: Api) -> None:
    await api.data(RECORD_TRADES, trades_call("k-1"))
    assert await api.round_trips(RECORD_TRADES, trades_call("k-1")) == 2
    assert dict(api.commands.by_name) == {"insert": 1, "find": 1}
