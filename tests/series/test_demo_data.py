"""The demo data: the article's table, and weather to try long ranges with."""

from __future__ import annotations

from datetime import timedelta

from settings import Settings
from tests.series.support import SERIES, TOTAL, sums, tags
from tests.support import ApiFactory


async def test_demo_data_answers_the_articles_question_and_long_ranges(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(), demo=True) as api:
        catalogue = await api.data("{ measurements { name fields tagKeys } }")
        article = await api.data(
            TOTAL,
            {
                "m": "insects", "tags": tags(location="1", scientist="perpetua"),
                "from": "2015-01-01T00:00:00Z", "to": "2016-01-01T00:00:00Z",
                "fields": ["butterflies"],
            },
        )  # fmt: skip
        now = api.clock.now  # on the hour
        day = await api.data(
            SERIES,
            {
                "m": "weather", "g": "HOUR", "tags": tags(station="north"),
                "from": (now - timedelta(days=1)).isoformat(), "to": now.isoformat(),
                "fields": ["temperature"],
            },
        )  # fmt: skip
        year = await api.data(
            SERIES,
            {
                "m": "weather", "g": "MONTH", "tags": tags(station="south"),
                "from": (now - timedelta(days=366)).isoformat(), "to": now.isoformat(),
                "fields": ["temperature"],
            },
        )  # fmt: skip
    assert [m["name"] for m in catalogue["measurements"]] == ["insects", "weather"]
    assert sums(article["seriesTotal"]) == {"butterflies": 4}  # perpetua counted 1 and 3
    # The last day by the minute; a year once a day, at noon, before that.
    assert [p["values"][0]["count"] for p in day["series"]] == [60] * 24
    assert len(year["series"]) == 13
    assert sum(p["values"][0]["count"] for p in year["series"]) == 365 + 24 * 60
