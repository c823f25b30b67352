"""Writers of one period never lose an increment: over real HTTP, and in a forced race."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any, cast

from pymongo import UpdateOne
from pymongo.errors import BulkWriteError

from store.database import Database
from store.protocols import AsyncCollection
from store.series import series
from tests.series.support import RECORD, TOTAL, observation, record, sums
from tests.support import Api

AT = "2024-01-01T10:06:00Z"
MOMENT = datetime(2024, 1, 1, 10, 6, tzinfo=UTC)


async def test_100_concurrent_calls_into_one_period_add_up_exactly(live_api: Api) -> None:
    await record(live_api, observation(AT, tag_pairs={"site": "a"}, v=0))  # names known
    calls = [
        [observation(AT, tag_pairs={"site": "a"}, v=k, w=1), observation(AT, v=1)]
        for k in range(1, 101)
    ]
    replies = await asyncio.gather(*(live_api.post(RECORD, {"o": o}) for o in calls))
    assert [r for r in replies if "errors" in r] == []
    span = {"m": "m", "from": "2024-01-01T10:06:00Z", "to": "2024-01-01T10:07:00Z"}
    site = await live_api.data(TOTAL, {**span, "tags": [{"key": "site", "value": "a"}]})
    assert sums(site["seriesTotal"]) == {"v": 5050, "w": 100}
    day = await live_api.data(TOTAL, {**span, "to": "2024-01-02T00:00:00Z"})
    assert sums(day["seriesTotal"]) == {"v": 5150, "w": 100}


class FirstWriteRaced:
    """The rollups collection, where another writer's first write of one of our documents
    lands just before ours, and ours fails with E11000 as it would on a standalone server."""

    def __init__(self, coll: AsyncCollection, competitor: list[series.Observation]) -> None:
        self._coll = coll
        self._competitor: list[series.Observation] | None = competitor

    def __getattr__(self, name: str) -> Any:
        return getattr(self._coll, name)

    async def bulk_write(self, requests: list[UpdateOne], ordered: bool = True) -> Any:
        if self._competitor is None:
            return await self._coll.bulk_write(requests, ordered=ordered)
        competitor, self._competitor = self._competitor, None
        await series.record_observations(self._coll, observations=competitor)
        applied = await self._coll.bulk_write(requests[1:], ordered=ordered)
        error = {"index": 0, "code": 11000, "errmsg": "E11000 duplicate key error"}
        raise BulkWriteError({"writeErrors": [error], "nUpserted": applied.upserted_count})


async def test_two_first_writes_of_one_period_end_in_one_document_with_both(
    database: Database,
) -> None:
    coll = database.collection(series.COLLECTION)
    mine = series.Observation("m", MOMENT, (("site", "a"),), (("v", 1.0),))
    theirs = series.Observation("m", MOMENT, (("site", "a"),), (("v", 2.0),))
    racing = FirstWriteRaced(coll, [theirs])
    await series.record_observations(cast(AsyncCollection, racing), observations=[mine])
    documents = await coll.find({}).to_list()
    assert len(documents) == 3  # one document a level: an hour, a day, a month
    assert all(doc["tot"]["v"]["s"] == 3.0 and doc["tot"]["v"]["c"] == 2 for doc in documents)
