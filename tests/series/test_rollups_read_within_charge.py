"""A series reads at most `ROLLUPS_PER_UNIT` rollup documents per unit it is charged: past
that, LIMIT_EXCEEDED naming `from`, with no more documents examined than that bound and one,
whatever tags it asks for (the index holds the measurement and the period, not the tags).

Each tag set here has an observation at 00:40, 01:10 and 02:05, so a total from 00:30 to
02:15 reads three rollups of each: the minutes of hours 0 and 2, and hour 1 of its day."""

from __future__ import annotations

from datetime import UTC, datetime

from resolvers.series_reads import ROLLUPS_PER_UNIT, total_read_units
from store.series import series
from store.series.series import Observation
from tests.series.support import TOTAL, observation, record, tags
from tests.support import Api, error_codes

START, END = datetime(2026, 1, 1, 0, 30, tzinfo=UTC), datetime(2026, 1, 1, 2, 15, tzinfo=UTC)
SPAN = {"m": "m", "from": "2026-01-01T00:30:00Z", "to": "2026-01-01T02:15:00Z"}
MINUTES = ((0, 40), (1, 10), (2, 5))
MOST = ROLLUPS_PER_UNIT * (1 + total_read_units(START, END))  # a total is one point


async def _tag_sets(api: Api, count: int) -> None:
    await record(api, observation("2026-01-01T00:40:00Z", tag_pairs={"site": "s0"}, v=1))
    observations = [
        Observation(
            "m", datetime(2026, 1, 1, hour, minute, tzinfo=UTC), (("site", f"s{n}"),), (("v", 1.0),)
        )
        for n in range(1, count)
        for hour, minute in MINUTES
    ]
    await series.record_observations(api.collection(series.COLLECTION), observations=observations)


async def test_a_total_within_its_rollups_answers_every_tag_set(api: Api) -> None:
    count = MOST // len(MINUTES)
    await _tag_sets(api, count)
    # The first tag set has its 00:40 alone: its hour 0 and its day are read.
    assert await api.examines(TOTAL, SPAN) == {"series": 3 * count - 1, "measurements": 1}
    [total] = (await api.data(TOTAL, SPAN))["seriesTotal"]
    assert total["count"] == 3 * count - 2


async def test_a_total_past_its_rollups_is_limit_exceeded_and_examines_no_more(
    api: Api,
) -> None:
    await _tag_sets(api, MOST // len(MINUTES) + 1)
    for variables in (SPAN, {**SPAN, "tags": tags(site="s7")}):
        counters = api.examined
        assert counters is not None
        counters.reset()
        body = await api.post(TOTAL, variables)
        assert error_codes(body) == ["LIMIT_EXCEEDED"], body
        assert body["errors"][0]["extensions"]["argument"] == "from"
        assert f"more than {MOST} rollups" in body["errors"][0]["message"]
        assert counters.by_collection == {"series": MOST + 1, "measurements": 1}
