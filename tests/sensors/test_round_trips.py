"""Round trips to MongoDB per request, counted by the engine adapter."""

from __future__ import annotations

from bson import ObjectId

from tests.sensors.queries import CREATE, RECORD, RECORD_COUNTS_ONLY, SENSOR, create_sensor
from tests.support import Api

AT = "2022-09-12T12:00:00Z"
FULL_PAGE = """
{ sensors(first: 50) { totalCount edges { node {
    id title count24h stats24h { count mean } hourly { hour count } } } } }
"""
PAGE = """
query($first: Int, $after: String, $order: SensorOrder, $filter: SensorFilter) {
  sensors(first: $first, after: $after, orderBy: $order, filter: $filter) {
    totalCount edges { node { title count24h } } pageInfo { endCursor }
  }
}
"""
PAGE_WITHOUT_TOTAL = """
query($first: Int, $after: String, $order: SensorOrder, $filter: SensorFilter) {
  sensors(first: $first, after: $after, orderBy: $order, filter: $filter) {
    edges { node { title count24h } } pageInfo { endCursor }
  }
}
"""
RENAME = 'mutation($id: ID!) { renameSensor(id: $id, title: "New") { id title count24h } }'
DELETE = "mutation($id: ID!) { deleteSensor(id: $id) }"


async def _sensors(api: Api, n: int) -> list[str]:
    return [await create_sensor(api, f"s{i:03}") for i in range(n)]


async def test_record_sensor_events_of_any_size_takes_one_round_trip(api: Api) -> None:
    ids = await _sensors(api, 20)
    events = [{"sensorId": ids[i % 20], "at": AT, "value": float(i)} for i in range(1000)]
    assert await api.round_trips(RECORD_COUNTS_ONLY, {"events": events}) == 1


async def test_record_sensor_events_with_the_payload_sensors_takes_two(api: Api) -> None:
    ids = await _sensors(api, 3)
    events = [{"sensorId": i, "at": AT} for i in ids]
    assert await api.round_trips(RECORD, {"events": events}) == 2


async def test_record_sensor_events_with_unknown_sensors_reads_once_for_both(api: Api) -> None:
    ids = await _sensors(api, 2)
    events = [{"sensorId": i, "at": AT} for i in [*ids, str(ObjectId())]]
    assert await api.round_trips(RECORD, {"events": events}) == 2


async def test_sensors_page_of_50_with_window_fields_takes_one_round_trip(api: Api) -> None:
    ids = await _sensors(api, 60)
    await api.data(RECORD, {"events": [{"sensorId": i, "at": AT} for i in ids]})
    assert await api.round_trips(FULL_PAGE) == 1


async def test_sensor_by_id_takes_one_round_trip(api: Api) -> None:
    [sensor_id] = await _sensors(api, 1)
    assert await api.round_trips(SENSOR, {"id": sensor_id}) == 1


async def test_aliased_sensors_by_id_share_one_round_trip(api: Api) -> None:
    a, b, c = await _sensors(api, 3)
    fields = [
        f'{name}: sensor(id: "{i}") {{ title }}' for name, i in zip("abc", (a, b, c), strict=True)
    ]
    query = "{ " + " ".join(fields) + " }"
    assert await api.round_trips(query) == 1


async def test_record_sensor_events_for_150_sensors_reads_them_back_in_two_batches(
    api: Api,
) -> None:
    # A server answers 101 documents in a find's first batch: the payload's 150 sensors cost
    # the find and one getMore, in every mode.
    ids = await _sensors(api, 150)
    events = [{"sensorId": i, "at": AT} for i in ids]
    api.commands.reset()
    data = await api.data(RECORD, {"events": events})
    assert len(data["recordSensorEvents"]["sensors"]) == 150
    assert dict(api.commands.by_name) == {"update": 1, "find": 1, "getMore": 1}


async def test_create_rename_and_delete_sensor_take_one_round_trip_each(api: Api) -> None:
    assert await api.round_trips(CREATE, {"t": "Boiler"}) == 1
    assert api.commands.by_name == {"insert": 1}
    [sensor_id] = await _sensors(api, 1)
    assert await api.round_trips(RENAME, {"id": sensor_id}) == 1
    assert api.commands.by_name == {"findAndModify": 1}
    assert await api.round_trips(DELETE, {"id": sensor_id}) == 1
    assert api.commands.by_name == {"delete": 1}


async def test_every_sensors_page_takes_one_round_trip(api: Api) -> None:
    ids = await _sensors(api, 30)
    await api.data(RECORD, {"events": [{"sensorId": i, "at": AT} for i in ids[::3]]})
    for order in ("TITLE", "COUNT_24H_DESC"):
        for sensor_filter in (None, {"minCount24h": 1}, {"minCount24h": 0}, {"titlePrefix": "s0"}):
            for query in (PAGE, PAGE_WITHOUT_TOTAL):
                page = {"first": 4, "order": order, "filter": sensor_filter}
                assert await api.round_trips(query, page) == 1
                assert api.commands.by_name == {"aggregate": 1}
                after = (await api.data(query, page))["sensors"]["pageInfo"]["endCursor"]
                assert await api.round_trips(query, {**page, "after": after}) == 1
