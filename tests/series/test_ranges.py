"""Any range, any granularity, any time zone: exact sums from the rollups."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from settings import MAX_SERIES_POINTS
from tests.series.support import RECORD, SERIES, TOTAL, observation, record, sums
from tests.support import Api, assert_rejected


def _at(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def test_sums_add_up_across_the_tag_sets_that_have_the_tags(api: Api) -> None:
    await record(
        api,
        observation("2024-01-01T10:00:00Z", tag_pairs={"site": "a", "kind": "x"}, v=1),
        observation("2024-01-01T10:00:00Z", tag_pairs={"site": "a", "kind": "y"}, v=2),
        observation("2024-01-01T10:00:00Z", tag_pairs={"site": "b", "kind": "x"}, v=4),
    )
    span = {"m": "m", "from": "2024-01-01T00:00:00Z", "to": "2024-01-02T00:00:00Z"}
    everything = await api.data(TOTAL, span)
    site_a = await api.data(TOTAL, {**span, "tags": [{"key": "site", "value": "a"}]})
    kind_x = await api.data(TOTAL, {**span, "tags": [{"key": "kind", "value": "x"}]})
    assert sums(everything["seriesTotal"]) == {"v": 7}
    assert sums(site_a["seriesTotal"]) == {"v": 3}
    assert sums(kind_x["seriesTotal"]) == {"v": 5}


async def test_a_range_is_half_open_and_unaligned_ranges_add_minutes_and_hours(api: Api) -> None:
    times = ["10:16", "10:17", "11:30", "12:00", "14:02", "14:03"]
    await record(api, *(observation(f"2024-01-01T{t}:00Z", v=10**i) for i, t in enumerate(times)))
    total = await api.data(
        TOTAL, {"m": "m", "from": "2024-01-01T10:17:00Z", "to": "2024-01-01T14:03:00Z"}
    )
    assert sums(total["seriesTotal"]) == {"v": 10 + 100 + 1_000 + 10_000}


async def test_a_series_is_dense_with_zeros_where_nothing_was_recorded(api: Api) -> None:
    await record(api, observation("2024-01-01T11:30:00Z", v=5))
    data = await api.data(
        SERIES,
        {"m": "m", "g": "HOUR", "from": "2024-01-01T10:00:00Z", "to": "2024-01-01T13:00:00Z"},
    )
    assert [(p["start"], p["values"]) for p in data["series"]] == [
        ("2024-01-01T10:00:00.000Z", [_zero("v")]),
        ("2024-01-01T11:00:00.000Z", [_stats("v", 5)]),
        ("2024-01-01T12:00:00.000Z", [_zero("v")]),
    ]


def _zero(name: str) -> dict[str, object]:
    return {"name": name, "sum": 0, "count": 0, "min": None, "max": None, "mean": None}


def _stats(name: str, value: float) -> dict[str, object]:
    return {"name": name, "sum": value, "count": 1, "min": value, "max": value, "mean": value}


async def test_a_day_in_berlin_across_the_october_change_has_25_hours(api: Api) -> None:
    # 2024-10-27 in Europe/Berlin: 00:00 is 22:00Z the day before, the next midnight 23:00Z.
    start = datetime(2024, 10, 26, 22, 0, tzinfo=UTC)
    await record(api, *(observation(_at(start + timedelta(hours=h)), v=1) for h in range(26)))
    data = await api.data(
        SERIES,
        {
            "m": "m", "g": "DAY", "tz": "Europe/Berlin",
            "from": "2024-10-26T22:00:00Z", "to": "2024-10-28T23:00:00Z",
        },
    )  # fmt: skip
    assert [(p["start"], p["values"][0]["count"]) for p in data["series"]] == [
        ("2024-10-26T22:00:00.000Z", 25),
        ("2024-10-27T23:00:00.000Z", 1),
    ]


async def test_a_day_in_kolkata_starts_at_half_past_six_utc(api: Api) -> None:
    await record(
        api,
        observation("2024-03-01T18:29:00Z", v=1),  # 23:59 in Kolkata (+05:30)
        observation("2024-03-01T18:30:00Z", v=2),  # the next local day
        observation("2024-03-02T18:29:00Z", v=4),  # its last minute
    )
    data = await api.data(
        SERIES,
        {
            "m": "m", "g": "DAY", "tz": "Asia/Kolkata",
            "from": "2024-03-01T00:00:00Z", "to": "2024-03-03T00:00:00Z",
        },
    )  # fmt: skip
    assert [(p["start"], p["values"][0]["sum"]) for p in data["series"]] == [
        ("2024-02-29T18:30:00.000Z", 1),
        ("2024-03-01T18:30:00.000Z", 6),
        ("2024-03-02T18:30:00.000Z", 0),
    ]


async def test_weeks_start_on_monday_and_months_on_the_first(api: Api) -> None:
    await record(
        api, observation("2024-01-07T12:00:00Z", v=1), observation("2024-01-08T00:00:00Z", v=2)
    )
    span = {"m": "m", "from": "2024-01-01T00:00:00Z", "to": "2024-03-01T00:00:00Z"}
    weeks = await api.data(SERIES, {**span, "g": "WEEK"})
    months = await api.data(SERIES, {**span, "g": "MONTH"})
    assert [p["start"][:10] for p in weeks["series"]][:3] == [
        "2024-01-01",
        "2024-01-08",
        "2024-01-15",
    ]
    assert [p["values"][0]["sum"] for p in weeks["series"]][:2] == [1, 2]
    assert [(p["start"][:10], p["values"][0]["sum"]) for p in months["series"]] == [
        ("2024-01-01", 3),
        ("2024-02-01", 0),
    ]


async def test_from_and_to_are_read_at_their_minute(api: Api) -> None:
    await record(api, observation("2024-01-01T10:17:00Z", v=1))
    total = await api.data(
        TOTAL, {"m": "m", "from": "2024-01-01T10:17:59Z", "to": "2024-01-01T10:18:30Z"}
    )
    assert sums(total["seriesTotal"]) == {"v": 1}


async def test_more_points_than_the_limit_is_limit_exceeded(api: Api) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    body = await assert_rejected(
        api,
        SERIES,
        {"m": "m", "g": "MINUTE", "from": "2024-01-01T00:00:00Z", "to": "2024-01-08T00:00:00Z"},
        code="LIMIT_EXCEEDED",
        argument="granularity",
    )
    assert "2500 points" in body["errors"][0]["message"]


async def test_the_most_points_of_one_field_are_one_answer(api: Api) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    data = await api.data(
        SERIES,
        {
            "m": "m", "g": "MINUTE", "fields": ["v"],
            "from": "2024-01-01T00:00:00Z", "to": "2024-01-02T17:40:00Z",
        },
    )  # fmt: skip
    assert len(data["series"]) == MAX_SERIES_POINTS
    assert data["series"][0]["values"][0]["sum"] == 1


@pytest.mark.parametrize(
    ("granularity", "end", "past_end"),
    [  # 2,500 points (MAX_SERIES_POINTS) from 1900-01-01 (a Monday), and one more
        ("DAY", "1906-11-06T00:00:00Z", "1906-11-07T00:00:00Z"),
        ("WEEK", "1947-12-01T00:00:00Z", "1947-12-08T00:00:00Z"),
        ("MONTH", "2108-05-01T00:00:00Z", "2108-06-01T00:00:00Z"),
    ],
)
async def test_the_most_points_of_any_calendar_granularity_are_one_answer(
    api: Api, granularity: str, end: str, past_end: str
) -> None:
    await record(api, observation("1900-01-01T00:00:00Z", v=1))
    span = {"m": "m", "g": granularity, "fields": ["v"], "from": "1900-01-01T00:00:00Z"}
    data = await api.data(SERIES, {**span, "to": end})
    assert len(data["series"]) == MAX_SERIES_POINTS
    await assert_rejected(
        api, SERIES, {**span, "to": past_end}, code="LIMIT_EXCEEDED", argument="granularity"
    )


async def test_the_last_minute_of_the_years_a_series_keeps_can_be_read(api: Api) -> None:
    await record(api, observation("2999-12-31T23:59:30Z", v=1))
    span = {"m": "m", "from": "2999-12-31T23:00:00Z", "to": "3000-01-01T00:00:00Z"}
    assert sums((await api.data(TOTAL, span))["seriesTotal"]) == {"v": 1}
    past = {**span, "to": "3000-01-01T00:01:00Z"}
    await assert_rejected(api, TOTAL, past, code="BAD_USER_INPUT", argument="to")
    at = observation("3000-01-01T00:00:00Z", v=1)  # a time to record: 2999 at the latest
    await assert_rejected(
        api, RECORD, {"o": [at]}, code="BAD_USER_INPUT", argument="observations[0].at"
    )


async def test_points_times_fields_over_the_values_limit_is_limit_exceeded(api: Api) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    # 1,104 hours, each of every field a measurement may have: 35,328 values.
    span = {"m": "m", "g": "HOUR", "from": "2024-01-01T00:00:00Z", "to": "2024-02-16T00:00:00Z"}
    await assert_rejected(api, SERIES, span, code="LIMIT_EXCEEDED", argument="fields")


async def test_a_range_that_ends_before_it_starts_is_bad_user_input(api: Api) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    span = {"m": "m", "from": "2024-01-01T00:00:00Z", "to": "2024-01-01T00:00:30Z"}
    await assert_rejected(api, TOTAL, span, code="BAD_USER_INPUT", argument="to")


async def test_an_unknown_time_zone_is_bad_user_input(api: Api) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    variables = {
        "m": "m", "g": "DAY", "tz": "Mars/Olympus",
        "from": "2024-01-01T00:00:00Z", "to": "2024-01-02T00:00:00Z",
    }  # fmt: skip
    await assert_rejected(api, SERIES, variables, code="BAD_USER_INPUT", argument="timeZone")


async def test_an_unknown_measurement_or_field_is_not_found(api: Api) -> None:
    await record(api, observation("2024-01-01T00:00:00Z", v=1))
    span = {"from": "2024-01-01T00:00:00Z", "to": "2024-01-02T00:00:00Z"}
    await assert_rejected(
        api, TOTAL, {"m": "nope", **span}, code="NOT_FOUND", argument="measurement"
    )
    await assert_rejected(
        api, TOTAL, {"m": "m", "fields": ["v", "w"], **span}, code="NOT_FOUND", argument="fields[1]"
    )
