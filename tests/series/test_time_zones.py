"""Points aligned in zones whose offsets are not whole hours, or change by part of an hour."""

from __future__ import annotations

from typing import Any

import pytest

from tests.series.support import SERIES, observation, record
from tests.support import Api, assert_rejected


async def _starts(api: Api, zone: str, granularity: str, start: str, end: str) -> list[Any]:
    data = await api.data(
        SERIES, {"m": "m", "g": granularity, "tz": zone, "from": start, "to": end}
    )
    return [(p["start"], p["values"][0]["sum"]) for p in data["series"]]


async def test_hours_in_lord_howe_start_on_its_whole_hours_across_its_half_hour_change(
    api: Api,
) -> None:
    # 2024-10-06 02:00 local (+10:30, 15:30Z the day before) becomes 02:30 (+11:00): the
    # hour that starts at 01:00 local lasts 90 minutes, to 03:00 local.
    await record(
        api, observation("2024-10-05T15:00:00Z", v=1), observation("2024-10-05T15:30:00Z", v=2)
    )
    starts = await _starts(
        api, "Australia/Lord_Howe", "HOUR", "2024-10-05T14:30:00Z", "2024-10-05T17:00:00Z"
    )
    assert starts == [
        ("2024-10-05T14:30:00.000Z", 3),  # 01:00 local: 15:00Z (01:30) and 15:30Z (02:30)
        ("2024-10-05T16:00:00.000Z", 0),  # 03:00 local, +11:00
    ]


async def test_hours_in_kiritimati_start_on_whole_hours_after_its_forty_minute_change(
    api: Api,
) -> None:
    # 1979-10-01 00:00 local (-10:40, 10:40Z) became 00:40 (-10:00): the hour that starts at
    # 23:00 local lasts 80 minutes, to 01:00 local, and every later one starts on the hour.
    await record(api, observation("1979-10-01T11:10:00Z", v=1))
    starts = await _starts(
        api, "Pacific/Kiritimati", "HOUR", "1979-10-01T08:40:00Z", "1979-10-01T13:00:00Z"
    )
    assert starts == [
        ("1979-10-01T08:40:00.000Z", 0),  # 22:00 local, -10:40
        ("1979-10-01T09:40:00.000Z", 0),  # 23:00 local, for 80 minutes
        ("1979-10-01T11:00:00.000Z", 1),  # 01:00 local, -10:00: holds 01:10 local
        ("1979-10-01T12:00:00.000Z", 0),
    ]


async def test_hours_in_a_local_mean_time_of_seconds_stay_an_hour_apart(api: Api) -> None:
    # Africa/Monrovia kept -0:44:30 until 1972: no whole UTC minute is a whole local hour, so
    # the points are whole hours of elapsed time from the first (none of one minute).
    await record(api, observation("1960-06-01T10:00:00Z", v=1))
    starts = await _starts(
        api, "Africa/Monrovia", "HOUR", "1960-06-01T10:00:00Z", "1960-06-01T14:00:00Z"
    )
    assert [start for start, _ in starts] == [
        f"1960-06-01T{hour:02}:44:00.000Z" for hour in range(9, 14)
    ]
    assert sum(total for _, total in starts) == 1


async def test_a_day_whose_midnight_a_change_skips_starts_at_the_change(api: Api) -> None:
    # Toronto, 1919-03-30 23:30 EST (04:30Z) became 00:30 EDT on the 31st: that day began at
    # 04:30Z, and 00:45 EDT (04:45Z) is in it.
    await record(api, observation("1919-03-31T04:45:00Z", v=1))
    starts = await _starts(
        api, "America/Toronto", "DAY", "1919-03-30T05:00:00Z", "1919-04-01T04:00:00Z"
    )
    assert starts == [("1919-03-30T05:00:00.000Z", 0), ("1919-03-31T04:30:00.000Z", 1)]


@pytest.mark.parametrize(
    ("zone", "first_start"),
    [
        ("Asia/Kathmandu", "2024-02-29T18:15:00.000Z"),  # +05:45
        ("America/St_Johns", "2024-02-29T03:30:00.000Z"),  # -03:30: from is 20:30 local
        ("Pacific/Chatham", "2024-02-29T10:15:00.000Z"),  # +13:45 in summer
    ],
)
async def test_days_start_at_local_midnight_in_quarter_and_half_hour_zones(
    api: Api, zone: str, first_start: str
) -> None:
    await record(api, observation("2024-03-01T12:00:00Z", v=1))
    starts = await _starts(api, zone, "DAY", "2024-03-01T00:00:00Z", "2024-03-02T00:00:00Z")
    assert starts[0][0] == first_start
    assert sum(total for _, total in starts) == 1


@pytest.mark.parametrize("zone", ["Europe", "localtime", "Factory", "x" * 300, "UTC "])
async def test_a_name_that_is_not_an_iana_zone_is_bad_user_input(api: Api, zone: str) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    variables = {
        "m": "m", "g": "DAY", "tz": zone,
        "from": "2024-01-01T00:00:00Z", "to": "2024-01-02T00:00:00Z",
    }  # fmt: skip
    await assert_rejected(api, SERIES, variables, code="BAD_USER_INPUT", argument="timeZone")
