"""An unknown measurement is NOT_FOUND before any point of its series is computed: the
catalogue is read first, once for every alias, and pricing computes no point at all.

Five aliases of a 10,000-hour series in Africa/Monrovia (a local mean time of seconds until
1972) held the server for seconds computing points for a measurement that does not exist.
Such a range is now over the point limit: refused by arithmetic, before anything runs."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime

import pytest

import resolvers.series
from resolvers.series_time import Granularity, point_starts
from tests.support import Api, error_codes

# The attack's range (10,000 hours, over the point limit), and 1,000 of its hours.
ATTACK = (
    'series(measurement: "nope", from: "1900-01-01T00:00:00Z", to: "1901-02-21T00:00:00Z", '
    'granularity: HOUR, timeZone: "Africa/Monrovia", fields: ["x"]) { start }'
)
MONROVIA_HOURS = ATTACK.replace("1901-02-21T00:00:00Z", "1900-02-11T16:00:00Z")


@pytest.fixture
def points_computed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The points each call of the resolver's `point_starts` computed."""
    computed: list[int] = []
    original = point_starts

    def counted(
        start: datetime, end: datetime, granularity: Granularity, zone: object, *, limit: int
    ) -> list[datetime]:
        starts = original(start, end, granularity, zone, limit=limit)  # type: ignore[arg-type]
        computed.append(len(starts))
        return starts

    monkeypatch.setattr(resolvers.series, "point_starts", counted)
    yield computed


def _aliases(count: int, selection: str = MONROVIA_HOURS) -> str:
    return "{ " + " ".join(f"a{i}: {selection}" for i in range(count)) + " }"


async def test_the_attack_is_over_the_point_limit_and_nothing_runs(
    api: Api, points_computed: list[int]
) -> None:
    api.commands.reset()
    body = await api.post(_aliases(5, ATTACK))
    assert error_codes(body) == ["LIMIT_EXCEEDED"], body  # the first nulls the answer
    assert body["errors"][0]["extensions"]["argument"] == "granularity"
    assert points_computed == []
    assert api.commands.count == 0


async def test_aliased_series_of_an_unknown_measurement_compute_no_point(
    api: Api, points_computed: list[int]
) -> None:
    api.commands.reset()
    body = await api.post(_aliases(4))
    assert error_codes(body) == ["NOT_FOUND"], body  # the first nulls the answer
    assert points_computed == []
    assert dict(api.commands.by_name) == {"find": 1}  # the catalogue, once for every alias


async def test_five_aliases_cost_more_than_the_limit_and_nothing_runs(
    api: Api, points_computed: list[int]
) -> None:
    api.commands.reset()
    body = await api.post(_aliases(5))
    assert error_codes(body) == ["LIMIT_EXCEEDED"], body
    assert body["errors"][0]["extensions"]["cost"] > body["errors"][0]["extensions"]["maxCost"]
    assert points_computed == []
    assert api.commands.count == 0
