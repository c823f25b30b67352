"""The demo's series are what recording its observations through `recordObservations` stores:
the seed writes the rollups, the catalogue and the tag values directly, and must not differ."""

from __future__ import annotations

import dataclasses
from typing import Any

from settings import Settings
from store.database import Database
from store.series import measurements, series, tag_values
from store.series.demo_series import demo_observations
from store.series.series import Observation
from tests.series.support import RECORD
from tests.support import ApiFactory

COLLECTIONS = (series.COLLECTION, measurements.COLLECTION, tag_values.COLLECTION)


def as_input(observation: Observation) -> dict[str, Any]:
    return {
        "measurement": observation.measurement,
        "at": observation.at.isoformat(),
        "tags": [{"key": key, "value": value} for key, value in observation.tags],
        "fields": [{"name": name, "value": value} for name, value in observation.fields],
    }


async def contents(database: Database) -> dict[str, list[Any]]:
    found = {}
    for name in COLLECTIONS:
        documents = await database.collection(name).find({}).to_list(None)
        found[name] = sorted(documents, key=lambda document: repr(document["_id"]))
    return found


async def test_demo_series_equal_their_observations_recorded_through_the_api(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(), demo=True) as api:
        seeded = await contents(api.database)
        observations = [as_input(o) for o in demo_observations(api.clock.now)]
    # All in one call, so that every sum adds its values in the order the seed does.
    one_call = dataclasses.replace(
        Settings(), max_batch_size=len(observations), max_cost=100 * len(observations)
    )
    async with make_api(one_call) as api:
        applied = await api.data(RECORD, {"o": observations})
        recorded = await contents(api.database)
    assert applied == {"recordObservations": {"applied": len(observations)}}
    assert seeded[series.COLLECTION]  # not trivially equal
    assert recorded == seeded
