"""`avg`, the former name of a sensor's mean, still answers the mean, and is marked deprecated
(`mean` is what series call the same number)."""

from __future__ import annotations

from tests.sensors.queries import create_sensor, record
from tests.support import Api

BOTH = """
query($id: ID!) {
  sensor(id: $id) { stats24h { mean avg } hourly { mean avg } }
}
"""
DEPRECATED = """
{
  stats: __type(name: "SensorStats") { ...Avg }
  hourly: __type(name: "HourlyTotal") { ...Avg }
}
fragment Avg on __Type {
  fields(includeDeprecated: true) { name isDeprecated deprecationReason }
}
"""


async def test_avg_answers_the_mean_and_is_deprecated_for_it(api: Api) -> None:
    api.clock.set("2022-09-12T13:20:00Z")
    sensor_id = await create_sensor(api, "Both")
    await record(
        api,
        {"sensorId": sensor_id, "at": "2022-09-12T12:00:00Z", "value": 2.0},
        {"sensorId": sensor_id, "at": "2022-09-12T12:10:00Z", "value": 6.0, "count": 3},
        {"sensorId": sensor_id, "at": "2022-09-12T13:00:00Z"},
    )
    sensor = (await api.data(BOTH, {"id": sensor_id}))["sensor"]
    assert sensor["stats24h"] == {"mean": 5.0, "avg": 5.0}
    assert [(h["mean"], h["avg"]) for h in sensor["hourly"][-2:]] == [(5.0, 5.0), (None, None)]
    types = await api.data(DEPRECATED)
    for found in types.values():
        fields = {field["name"]: field for field in found["fields"]}
        assert fields["mean"]["isDeprecated"] is False
        assert fields["avg"]["isDeprecated"] is True
        assert "`mean`" in fields["avg"]["deprecationReason"]
