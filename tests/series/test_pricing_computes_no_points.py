"""Pricing a series computes none of its points: the cost of the largest series the limits
allow, in any granularity and in a zone of local mean time, is found by arithmetic alone."""

from __future__ import annotations

from typing import NoReturn

import pytest

import resolvers.series_time
from settings import Settings
from tests.limits.support import cost_of
from tests.support import ApiFactory

RANGES = {
    "MINUTE": ("1900-01-01T00:00:00Z", "1900-01-07T22:40:00Z"),
    "HOUR": ("1900-01-01T00:00:00Z", "1901-02-21T00:00:00Z"),
    "DAY": ("1900-01-01T00:00:00Z", "1927-05-19T00:00:00Z"),
    "WEEK": ("1900-01-01T00:00:00Z", "2090-01-01T00:00:00Z"),
    "MONTH": ("1900-01-01T00:00:00Z", "2999-01-01T00:00:00Z"),
}


def _computed(*args: object, **kwargs: object) -> NoReturn:
    raise AssertionError("pricing computed points")


@pytest.mark.parametrize("granularity", list(RANGES))
@pytest.mark.parametrize("zone", ["Africa/Monrovia", "Pacific/Kiritimati", "Asia/Kathmandu"])
async def test_pricing_a_series_at_the_limits_computes_no_point(
    make_api: ApiFactory,
    settings: Settings,
    monkeypatch: pytest.MonkeyPatch,
    granularity: str,
    zone: str,
) -> None:
    for name in ("point_starts", "_minute_starts", "_hour_starts", "_calendar_starts"):
        monkeypatch.setattr(resolvers.series_time, name, _computed, raising=False)
    start, end = RANGES[granularity]
    query = f"""{{ series(measurement: "m", from: "{start}", to: "{end}",
      granularity: {granularity}, timeZone: "{zone}", fields: ["a"]) {{ start }} }}"""
    assert await cost_of(make_api, settings, query) > 0
