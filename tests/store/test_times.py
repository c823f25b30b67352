"""Stored times read back as aware UTC datetimes, whatever zone the driver gave them, and the
same instant; a UTC zone they already carry is kept (store/times.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from bson.tz_util import utc as bson_utc

from store.times import as_utc, hour_start, stored_time

MOMENT = datetime(2024, 5, 1, 12, 30, 15, 123000, tzinfo=UTC)


@pytest.mark.parametrize(
    "given",
    [
        MOMENT,
        MOMENT.replace(tzinfo=bson_utc),
        MOMENT.replace(tzinfo=None),
        MOMENT.astimezone(timezone(timedelta(hours=-5))),
    ],
    ids=["UTC", "PyMongo's UTC", "naive", "offset"],
)
def test_as_utc_gives_the_same_instant_in_utc(given: datetime) -> None:
    found = as_utc(given)
    assert found == MOMENT
    assert found.utcoffset() == timedelta(0)
    assert found.isoformat() == "2024-05-01T12:30:15.123000+00:00"


@pytest.mark.parametrize("zone", [UTC, bson_utc], ids=["UTC", "PyMongo's UTC"])
def test_as_utc_keeps_a_utc_datetime_as_it_is(zone: object) -> None:
    given = MOMENT.replace(tzinfo=zone)  # type: ignore[arg-type]
    assert as_utc(given) is given


@pytest.mark.parametrize("zone", [UTC, bson_utc, None], ids=["UTC", "PyMongo's UTC", "naive"])
def test_hour_start_is_the_start_of_the_utc_hour(zone: object) -> None:
    given = MOMENT.replace(tzinfo=zone)  # type: ignore[arg-type]
    assert hour_start(given) == datetime(2024, 5, 1, 12, tzinfo=UTC)
    assert hour_start(given).utcoffset() == timedelta(0)


@pytest.mark.parametrize("microsecond", [0, 1, 999, 1000, 123456, 999999])
def test_stored_time_drops_what_is_below_the_millisecond(microsecond: int) -> None:
    given = MOMENT.replace(microsecond=microsecond)
    found = stored_time(given)
    assert found == given.replace(microsecond=microsecond - microsecond % 1000)
    assert found.tzinfo is UTC
