"""`idempotencyKey` on the three ingestion mutations: a retry with the same key and the same
arguments within 24 hours writes nothing and answers what the first try answered."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from bson import ObjectId

from store import idempotency
from store.registry import COLLECTIONS
from tests.ingestion.support import (
    AT,
    MUTATIONS,
    RECORD_EVENTS,
    RECORD_EVENTS_COUNTS,
    RECORD_OBSERVATIONS,
    RECORD_TRADES,
    events_call,
    ingestion,
    key_records,
    observations_call,
    sensor_count,
    series_sum,
    trade_count,
    trades_call,
)
from tests.sensors.queries import create_sensor
from tests.support import Api, assert_rejected
from tests.support.backends import Backend


@pytest.mark.parametrize("mutation", MUTATIONS)
async def test_ingestion_retry_with_the_key_stores_once(api: Api, mutation: str) -> None:
    call = await ingestion(api, mutation)
    first = await api.data(call.document, call.variables("k-1", 3))
    stored = await call.stored()
    assert await api.data(call.document, call.variables("k-1", 3)) == first
    assert await call.stored() == stored


@pytest.mark.parametrize("mutation", MUTATIONS)
async def test_ingestion_without_a_key_stores_every_call(api: Api, mutation: str) -> None:
    call = await ingestion(api, mutation)
    await api.data(call.document, call.variables(None, 3))
    once = await call.stored()
    await api.data(call.document, call.variables(None, 3))
    assert await call.stored() == 2 * once
    assert await key_records(api) == []


@pytest.mark.parametrize("mutation", MUTATIONS)
async def test_ingestion_key_reused_for_other_arguments_is_bad_user_input(
    api: Api, mutation: str
) -> None:
    call = await ingestion(api, mutation)
    await api.data(call.document, call.variables("k-1", 3))
    body = await assert_rejected(
        api,
        call.document,
        call.variables("k-1", 4),
        code="BAD_USER_INPUT",
        argument="idempotencyKey",
    )
    assert "another request" in body["errors"][0]["message"]


@pytest.mark.parametrize("key", ["", "k" * 65, "two words", "caf\u00e9", "a:b", "line\n", "k/1"])
@pytest.mark.parametrize("mutation", MUTATIONS)
async def test_ingestion_key_of_another_shape_is_bad_user_input(
    api: Api, mutation: str, key: str
) -> None:
    call = await ingestion(api, mutation)
    await assert_rejected(
        api, call.document, call.variables(key, 1), code="BAD_USER_INPUT", argument="idempotencyKey"
    )


@pytest.mark.parametrize("key", ["k", "K" * 64, "a-Z_0-9", "-", "_"])
async def test_ingestion_key_of_1_to_64_of_the_alphabet_is_taken(api: Api, key: str) -> None:
    assert await api.data(RECORD_TRADES, trades_call(key)) == {
        "recordTrades": {"pageNumbers": [1, 1, 1]}
    }


async def test_ingestion_keys_are_per_mutation(api: Api) -> None:
    await api.data(RECORD_TRADES, trades_call("shared"))
    await api.data(RECORD_OBSERVATIONS, observations_call("shared", value=5.0))
    assert await trade_count(api) == 3
    assert await series_sum(api) == 5.0


async def test_record_sensor_events_retry_returns_the_first_rejections(api: Api) -> None:
    sensor_id, unknown = await create_sensor(api, "Boiler"), str(ObjectId())
    events = [{"sensorId": unknown, "at": AT}, {"sensorId": sensor_id, "at": AT, "count": 2}]
    variables = {"events": events, "key": "batch-1"}
    first = await api.data(RECORD_EVENTS, variables)
    again = await api.data(RECORD_EVENTS, variables)
    assert again == first
    assert first["recordSensorEvents"]["rejected"][0]["code"] == "NOT_FOUND"
    assert await sensor_count(api, sensor_id) == 2


async def test_record_sensor_events_retry_reads_the_sensors_afresh(api: Api) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    await api.data(RECORD_EVENTS, events_call(sensor_id, "batch-1", count=2))
    await api.data(RECORD_EVENTS, events_call(sensor_id, None, count=5))
    again = await api.data(RECORD_EVENTS, events_call(sensor_id, "batch-1", count=2))
    payload = again["recordSensorEvents"]
    assert payload["accepted"] == 1
    assert payload["sensors"] == [{"sensorId": sensor_id, "count24h": 7}]


async def test_record_sensor_events_retry_after_the_window_moved_returns_the_first_answer(
    api: Api,
) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    first = await api.data(RECORD_EVENTS_COUNTS, events_call(sensor_id, "batch-1"))
    api.clock.now += timedelta(hours=23, minutes=30)  # AT is now before the window
    assert await api.data(RECORD_EVENTS_COUNTS, events_call(sensor_id, "batch-1")) == first
    assert first == {"recordSensorEvents": {"accepted": 1, "rejected": []}}


async def test_ingestion_key_of_a_refused_call_is_given_up(api: Api) -> None:
    sensor_id = await create_sensor(api, "Boiler")
    late = {"events": [{"sensorId": sensor_id, "at": "2022-09-10T00:00:00Z"}], "key": "batch-1"}
    await assert_rejected(api, RECORD_EVENTS, late, code="BAD_USER_INPUT", argument="events[0].at")
    await assert_rejected(api, RECORD_EVENTS, late, code="BAD_USER_INPUT", argument="events[0].at")
    await api.data(RECORD_EVENTS, events_call(sensor_id, "batch-1"))
    assert await sensor_count(api, sensor_id) == 1


async def test_ingestion_key_expires_after_24_hours(api: Api) -> None:
    await api.data(RECORD_TRADES, trades_call("daily"))
    api.clock.now += timedelta(hours=23, minutes=59)
    await api.data(RECORD_TRADES, trades_call("daily"))
    assert await trade_count(api) == 3
    api.clock.now += timedelta(minutes=1)
    assert await api.data(RECORD_TRADES, trades_call("daily")) == {
        "recordTrades": {"pageNumbers": [1, 1, 1]}
    }
    assert await trade_count(api) == 6


async def test_ingestion_key_expired_may_name_other_arguments(api: Api) -> None:
    await api.data(RECORD_TRADES, trades_call("daily"))
    api.clock.now += timedelta(hours=24)
    await api.data(RECORD_TRADES, trades_call("daily", qtys=range(1, 6)))
    assert await trade_count(api) == 8


def test_ingestion_keys_declare_a_ttl_index_of_24_hours() -> None:
    [keys] = [c for c in COLLECTIONS if c.name == "idempotency_keys"]
    [ttl] = [index.document for index in keys.indexes]
    assert ttl["key"] == {"createdAt": 1}
    assert ttl["expireAfterSeconds"] == 24 * 60 * 60


async def test_ingestion_key_record_is_removed_by_the_ttl_index(api: Api, backend: Backend) -> None:
    if backend.name == "mongodb":
        pytest.skip("a server's TTL monitor removes expired records within about a minute")
    coll = api.collection("idempotency_keys")
    day_ago = datetime.now(UTC) - timedelta(hours=24, seconds=1)
    now = api.clock()
    await idempotency.claim(
        coll, scope="recordTrades", key="old", request="r", now=now, wall_clock=lambda: day_ago
    )
    await idempotency.claim(coll, scope="recordTrades", key="new", request="r", now=now)
    assert [record["_id"] for record in await key_records(api)] == ["recordTrades:new"]
