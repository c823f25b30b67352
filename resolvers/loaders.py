"""DataLoaders: every list-of-parents field loads through one of these, in one command a batch."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from aiodataloader import DataLoader
from bson import ObjectId

from store import sensors
from store.database import Database
from store.sensors import SensorDoc


def _sensor_loader(database: Database) -> DataLoader[ObjectId, SensorDoc | None]:
    async def load(ids: Sequence[ObjectId]) -> list[SensorDoc | None]:
        found = {doc.id: doc for doc in await sensors.find_sensors(database.sensors, ids=ids)}
        return [found.get(i) for i in ids]

    return DataLoader(load)


class Loaders:
    """Fresh per request, so nothing cached outlives the request that read it.

    Each loader is made on first use: most requests need none of them.
    """

    def __init__(self, database: Database) -> None:
        self.database = database

    @cached_property
    def sensor_by_id(self) -> DataLoader[ObjectId, SensorDoc | None]:
        return _sensor_loader(self.database)
