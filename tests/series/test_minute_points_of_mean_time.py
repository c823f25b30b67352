"""MINUTE points are the UTC minutes of the range in every zone: in one whose offset has
seconds (Pacific/Kiritimati's local mean time, -10:29:20, until 1901), no extra point starts
before `from`."""

from __future__ import annotations

from tests.series.support import SERIES, observation, record
from tests.support import Api


async def test_minutes_in_a_zone_of_seconds_start_at_from(api: Api) -> None:
    await record(api, observation("1900-01-01T00:00:00Z", v=1))
    variables = {
        "m": "m", "g": "MINUTE", "tz": "Pacific/Kiritimati", "fields": ["v"],
        "from": "1900-01-01T00:00:00Z", "to": "1900-01-01T04:13:00Z",
    }  # fmt: skip
    points = (await api.data(SERIES, variables))["series"]
    assert len(points) == 253
    assert points[0]["start"] == "1900-01-01T00:00:00.000Z"
    assert points[0]["values"][0]["sum"] == 1
    assert points[-1]["start"] == "1900-01-01T04:12:00.000Z"
