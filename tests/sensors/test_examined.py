"""Sensors examined per request (the engine's counters, as a server's explain counts
`totalDocsExamined`): a sensor by id is one, a page its own size, whatever the collection's size.

Sensors are written straight into the collection, titled in id order (`s00000`, `s00001`...);
the active ones (an event at 12:00, inside the window at the test clock's 13:00) come last.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId

from tests.sensors.queries import RECORD_COUNTS_ONLY, SENSOR
from tests.support import Api

SIZES = [10, 1_000]
PAGE_SIZES = [200, 10_000]  # each larger than two pages
ACTIVE = 10
AT = datetime(2022, 9, 12, 12, 0, tzinfo=UTC)
PAGE = """
query($first: Int, $after: String, $order: SensorOrder) {
  sensors(first: $first, after: $after, orderBy: $order) {
    edges { node { title count24h stats24h { mean } hourly { count } } }
    pageInfo { hasNextPage endCursor }
  }
}
"""
PAGE_WITH_TOTAL = """
query($order: SensorOrder) {
  sensors(first: 20, orderBy: $order) { totalCount edges { node { title count24h } } }
}
"""


def _sensor(number: int, active: bool) -> dict[str, Any]:
    doc: dict[str, Any] = {"_id": ObjectId(), "title": f"s{number:05}", "totals": []}
    if active:
        bucket = {"timestamp": AT, "count": number, "sum": 1.0, "min": 1.0, "max": 1.0}
        doc |= {"lastEventAt": AT, "totals": [{**bucket, "valueCount": 1}]}
    return doc


async def _sensors(api: Api, size: int, *, active: int = 0) -> list[str]:
    docs = [_sensor(number, number >= size - active) for number in range(size)]
    await api.collection("sensors").insert_many(docs)
    return [str(doc["_id"]) for doc in docs]


async def _end_cursor(api: Api, **variables: Any) -> str:
    data = await api.data(PAGE, {"first": 20, **variables})
    cursor: str = data["sensors"]["pageInfo"]["endCursor"]
    return cursor


@pytest.mark.parametrize("size", SIZES)
async def test_sensor_by_id_examines_one_sensor(api: Api, size: int) -> None:
    ids = await _sensors(api, size)
    assert await api.examines(SENSOR, {"id": ids[size // 2]}) == {"sensors": 1}


@pytest.mark.parametrize("size", PAGE_SIZES)
async def test_sensors_page_by_title_examines_the_page_and_one_more(api: Api, size: int) -> None:
    # The title index gives the page in order: 20 sensors, and the 21st that says hasNextPage.
    await _sensors(api, size)
    assert await api.examines(PAGE, {"first": 20}) == {"sensors": 21}


@pytest.mark.parametrize("size", PAGE_SIZES)
async def test_sensors_page_by_title_after_a_cursor_examines_the_page_and_one_more(
    api: Api, size: int
) -> None:
    await _sensors(api, size)
    after = await _end_cursor(api)
    assert await api.examines(PAGE, {"first": 20, "after": after}) == {"sensors": 21}


@pytest.mark.parametrize("size", PAGE_SIZES)
async def test_sensors_page_by_title_after_a_cursor_skips_the_sensors_sharing_its_title(
    api: Api, size: int
) -> None:
    # Every sensor titled alike: the keyset `$or` (a later title, or the cursor's title and a
    # later id) starts the walk of the title index right after the cursor, not at its title.
    docs = [{"_id": ObjectId(), "title": "same", "totals": []} for _ in range(size)]
    await api.collection("sensors").insert_many(docs)
    data = await api.data(PAGE, {"first": 100})
    after = data["sensors"]["pageInfo"]["endCursor"]  # the 100 sensors before it share it
    assert await api.examines(PAGE, {"first": 20, "after": after}) == {"sensors": 21}


@pytest.mark.parametrize("size", PAGE_SIZES)
async def test_sensors_page_by_count_examines_the_active_sensors_and_a_page_of_the_rest(
    api: Api, size: int
) -> None:
    # The 10 active sensors, found on the last_event_at index, are windowed; the inactive ones
    # (count 0) are read by id, 20 + 1 of them.
    await _sensors(api, size, active=ACTIVE)
    variables = {"first": 20, "order": "COUNT_24H_DESC"}
    assert await api.examines(PAGE, variables) == {"sensors": ACTIVE + 21}


@pytest.mark.parametrize("size", PAGE_SIZES)
async def test_sensors_page_by_count_after_a_count_of_0_reads_on_by_id(api: Api, size: int) -> None:
    await _sensors(api, size, active=ACTIVE)
    after = await _end_cursor(api, order="COUNT_24H_DESC")  # past the active sensors
    variables = {"first": 20, "after": after, "order": "COUNT_24H_DESC"}
    assert await api.examines(PAGE, variables) == {"sensors": ACTIVE + 21}


@pytest.mark.parametrize("size", PAGE_SIZES)
@pytest.mark.parametrize("order", ["TITLE", "COUNT_24H_DESC"])
async def test_sensors_total_count_is_counted_on_an_index_without_examining_sensors(
    api: Api, size: int, order: str
) -> None:
    await _sensors(api, size, active=ACTIVE)
    page = 21 if order == "TITLE" else ACTIVE + 21
    assert await api.examines(PAGE_WITH_TOTAL, {"order": order}) == {"sensors": page}


@pytest.mark.parametrize("size", SIZES)
async def test_record_sensor_events_of_one_event_examines_one_sensor(api: Api, size: int) -> None:
    ids = await _sensors(api, size)
    events = [{"sensorId": ids[size // 2], "at": "2022-09-12T12:30:00Z", "value": 1.5}]
    assert await api.examines(RECORD_COUNTS_ONLY, {"events": events}) == {"sensors": 1}
