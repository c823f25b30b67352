"""Bad input rejects the whole call with BAD_USER_INPUT, naming the argument, and writes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest
from bson import ObjectId

from settings import MAX_BATCH_SIZE
from tests.sensors.queries import CREATE, RECORD, SENSOR, create_sensor
from tests.support import Api, error_codes

GOOD_AT = "2022-09-12T12:30:00Z"


async def _sensor_with_one_event(api: Api) -> str:
    sensor_id = await create_sensor(api, "Target")
    await api.data(RECORD, {"events": [{"sensorId": sensor_id, "at": GOOD_AT}]})
    return sensor_id


async def _stored(api: Api) -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = await api.collection("sensors").find({}).to_list()
    return docs


@pytest.mark.parametrize(
    ("bad_event", "argument"),
    [
        ({"count": 0}, "events[1].count"),
        ({"count": -5}, "events[1].count"),
        ({"at": "2022-09-11T13:59:59Z"}, "events[1].at"),
        ({"at": "2022-09-12T13:05:01Z"}, "events[1].at"),
        ({"sensorId": "not-an-object-id"}, "events[1].sensorId"),
        ({"value": 1e308, "count": 10}, "events[1].value"),
    ],
)
async def test_record_sensor_events_rejects_a_bad_event(
    api: Api, bad_event: dict[str, Any], argument: str
) -> None:
    sensor_id = await _sensor_with_one_event(api)
    before = await _stored(api)
    good = {"sensorId": sensor_id, "at": GOOD_AT}
    body = await api.post(RECORD, {"events": [good, {**good, **bad_event}]})
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == argument
    assert argument in body["errors"][0]["message"]
    assert await _stored(api) == before


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
async def test_record_sensor_events_rejects_a_non_finite_value(api: Api, value: str) -> None:
    sensor_id = await _sensor_with_one_event(api)
    before = await _stored(api)
    # JSON has no NaN; Python's and JavaScript's encoders still send these literals.
    event = f'{{"sensorId": "{sensor_id}", "at": "{GOOD_AT}", "value": {value}}}'
    raw = f'{{"query": {json.dumps(RECORD)}, "variables": {{"events": [{event}]}}}}'
    response = await api.client.post(
        "/graphql", content=raw, headers={"content-type": "application/json"}
    )
    body = response.json()
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert "value" in body["errors"][0]["message"]
    assert await _stored(api) == before


async def test_record_sensor_events_rejects_more_events_than_the_batch_limit(api: Api) -> None:
    sensor_id = await _sensor_with_one_event(api)
    before = await _stored(api)
    events = [{"sensorId": sensor_id, "at": GOOD_AT}] * (MAX_BATCH_SIZE + 1)
    body = await api.post(RECORD, {"events": events})
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert f"events[{MAX_BATCH_SIZE}]" in body["errors"][0]["message"]
    assert await _stored(api) == before


async def test_record_sensor_events_rejects_a_time_without_offset(api: Api) -> None:
    sensor_id = await _sensor_with_one_event(api)
    before = await _stored(api)
    body = await api.post(
        RECORD, {"events": [{"sensorId": sensor_id, "at": "2022-09-12T12:30:00"}]}
    )
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert "offset" in body["errors"][0]["message"]
    assert await _stored(api) == before


async def test_record_sensor_events_reports_unknown_sensors_and_applies_the_rest(api: Api) -> None:
    sensor_id = await create_sensor(api, "Known")
    unknown = str(ObjectId())
    body = await api.data(
        RECORD,
        {
            "events": [
                {"sensorId": unknown, "at": GOOD_AT},
                {"sensorId": sensor_id, "at": GOOD_AT, "count": 3},
            ]
        },
    )
    payload = body["recordSensorEvents"]
    assert payload["accepted"] == 1
    assert payload["rejected"] == [
        {
            "index": 0,
            "sensorId": unknown,
            "code": "NOT_FOUND",
            "message": payload["rejected"][0]["message"],
        }
    ]
    assert unknown in payload["rejected"][0]["message"]
    assert payload["sensors"] == [{"sensorId": sensor_id, "title": "Known", "count24h": 3}]
    assert await api.collection("sensors").count_documents({"_id": ObjectId(unknown)}) == 0


async def test_record_sensor_events_with_unknown_sensors_answers_sensors_in_event_order(
    api: Api,
) -> None:
    # The stored order (by id) differs from the events': the payload follows the events, as
    # it does when no sensor is unknown (and as a retry under a key reads it).
    first, second = await create_sensor(api, "A"), await create_sensor(api, "B")
    events = [
        {"sensorId": second, "at": GOOD_AT},
        {"sensorId": str(ObjectId()), "at": GOOD_AT},
        {"sensorId": first, "at": GOOD_AT},
    ]
    body = await api.data(RECORD, {"events": events})
    titles = [sensor["title"] for sensor in body["recordSensorEvents"]["sensors"]]
    assert titles == ["B", "A"]


@pytest.mark.parametrize("title", ["", "   ", "x" * 201, "bell\x07", "line\nbreak"])
async def test_create_sensor_rejects_a_bad_title(api: Api, title: str) -> None:
    body = await api.post(CREATE, {"t": title})
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == "title"
    assert await api.collection("sensors").count_documents({}) == 0


async def test_sensor_rejects_a_malformed_id(api: Api) -> None:
    body = await api.post(SENSOR, {"id": "12345"})
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == "id"
