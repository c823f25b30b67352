"""DataLoaders: every list-of-parents field loads through one of these, in one command a batch."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

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


@dataclass(slots=True)
class Loaders:
    """Fresh per request, so nothing cached outlives the request that read it."""

    database: Database
    sensor_by_id: DataLoader[ObjectId, SensorDoc | None] = field(init=False)

    def __post_init__(self) -> None:
        self.sensor_by_id = _sensor_loader(self.database)
