"""Creating, renaming and deleting sensors."""

from __future__ import annotations

from bson import ObjectId

from tests.sensors.queries import SENSOR, create_sensor
from tests.support import Api, error_codes

RENAME = "mutation($id: ID!, $t: String!) { renameSensor(id: $id, title: $t) { sensorId title } }"
DELETE = "mutation($id: ID!) { deleteSensor(id: $id) }"


async def test_create_sensor_starts_with_no_events(api: Api) -> None:
    sensor_id = await create_sensor(api, "Fresh")
    sensor = (await api.data(SENSOR, {"id": sensor_id}))["sensor"]
    assert sensor["title"] == "Fresh"
    assert sensor["count24h"] == 0
    assert sensor["lastEventAt"] is None


async def test_rename_sensor_changes_only_the_title(api: Api) -> None:
    sensor_id = await create_sensor(api, "Old")
    renamed = (await api.data(RENAME, {"id": sensor_id, "t": "New"}))["renameSensor"]
    assert renamed == {"sensorId": sensor_id, "title": "New"}


async def test_rename_sensor_of_an_unknown_id_is_not_found(api: Api) -> None:
    body = await api.post(RENAME, {"id": str(ObjectId()), "t": "New"})
    assert error_codes(body) == ["NOT_FOUND"]


async def test_delete_sensor_removes_it_once(api: Api) -> None:
    sensor_id = await create_sensor(api, "Doomed")
    assert (await api.data(DELETE, {"id": sensor_id}))["deleteSensor"] is True
    assert (await api.data(SENSOR, {"id": sensor_id}))["sensor"] is None
    assert (await api.data(DELETE, {"id": sensor_id}))["deleteSensor"] is False
