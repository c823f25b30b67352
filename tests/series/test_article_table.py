"""The article's table, asked the article's questions."""

from __future__ import annotations

from tests.series.support import SERIES, TOTAL, article_observations, record, sums, tags
from tests.support import Api

DAY = {"from": "2015-08-18T00:00:00Z", "to": "2015-08-19T00:00:00Z"}


async def test_record_observations_stores_the_article_table(api: Api) -> None:
    assert await record(api, *article_observations()) == 8


async def test_langstroth_at_location_1_on_the_day(api: Api) -> None:
    await record(api, *article_observations())
    variables = {"m": "insects", "tags": tags(location="1", scientist="langstroth"), **DAY}
    data = await api.data(SERIES, {**variables, "g": "DAY"})
    [day] = data["series"]
    assert day["start"] == "2015-08-18T00:00:00.000Z"
    assert sums(day["values"]) == {"butterflies": 23, "honeybees": 51}


async def test_langstroth_at_location_1_in_its_first_hour_and_sixth_minute(api: Api) -> None:
    await record(api, *article_observations())
    who = {"m": "insects", "tags": tags(location="1", scientist="langstroth")}
    hour = await api.data(
        TOTAL, {**who, "from": "2015-08-18T00:00:00Z", "to": "2015-08-18T01:00:00Z"}
    )
    minute = await api.data(
        TOTAL, {**who, "from": "2015-08-18T00:06:00Z", "to": "2015-08-18T00:07:00Z"}
    )
    assert sums(hour["seriesTotal"]) == {"butterflies": 23, "honeybees": 51}
    assert sums(minute["seriesTotal"]) == {"butterflies": 11, "honeybees": 28}


async def test_location_2_over_the_whole_day_adds_both_scientists(api: Api) -> None:
    await record(api, *article_observations())
    data = await api.data(TOTAL, {"m": "insects", "tags": tags(location="2"), **DAY})
    assert data["seriesTotal"] == [
        {"name": "butterflies", "sum": 18, "count": 4, "min": 1, "max": 8, "mean": 4.5},
        {"name": "honeybees", "sum": 66, "count": 4, "min": 10, "max": 23, "mean": 16.5},
    ]
