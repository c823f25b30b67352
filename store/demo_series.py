"""Demo time series: the article's table, and synthetic weather to try long ranges with.

The article's eight rows (../shared/seeds/002) as measurement `insects`; and `weather` at two
stations: a year of hourly observations up to now, and the last week by the minute. Seeded
once: a database whose catalogue already has `insects` is left as it is.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from store import measurements, series, tag_values
from store.database import Database
from store.series import Observation
from store.times import hour_start

INSECTS = [
    ("2015-08-18T00:00:00", 12, 23, "1", "langstroth"),
    ("2015-08-18T00:00:00", 1, 30, "1", "perpetua"),
    ("2015-08-18T00:06:00", 11, 28, "1", "langstroth"),
    ("2015-08-18T00:06:00", 3, 28, "1", "perpetua"),
    ("2015-08-18T05:54:00", 2, 11, "2", "langstroth"),
    ("2015-08-18T06:00:00", 1, 10, "2", "langstroth"),
    ("2015-08-18T06:06:00", 8, 23, "2", "perpetua"),
    ("2015-08-18T06:12:00", 7, 22, "2", "perpetua"),
]
STATIONS = {"north": -4.0, "south": 6.0}  # offsets of the mean temperature
BATCH = 5_000


def _insects() -> list[Observation]:
    return [
        Observation(
            "insects",
            datetime.fromisoformat(at).replace(tzinfo=UTC),
            (("location", location), ("scientist", scientist)),
            (("butterflies", float(butterflies)), ("honeybees", float(honeybees))),
        )
        for at, butterflies, honeybees, location, scientist in INSECTS
    ]


def _weather_at(moment: datetime, station: str) -> Observation:
    day = 2 * math.pi * (moment.hour * 60 + moment.minute) / 1440
    year = 2 * math.pi * moment.timetuple().tm_yday / 365
    temperature = 12 + STATIONS[station] + 8 * math.sin(day - 2) - 9 * math.cos(year)
    humidity = 65 - 20 * math.sin(day - 2)
    fields = (("humidity", round(humidity, 1)), ("temperature", round(temperature, 1)))
    return Observation("weather", moment, (("station", station),), fields)


def _weather(now: datetime) -> Iterator[Observation]:
    end = hour_start(now)
    for hours in range(365 * 24, 0, -1):
        for station in STATIONS:
            yield _weather_at(end - timedelta(hours=hours), station)
    start = end - timedelta(days=7)
    for minutes in range(7 * 24 * 60):
        for station in STATIONS:
            yield _weather_at(start + timedelta(minutes=minutes), station)


async def seed_demo_series(database: Database, *, now: datetime) -> None:
    catalogue = database.collection(measurements.COLLECTION)
    if await measurements.find_measurements(catalogue, names=["insects"]):
        return
    # A fresh database (no catalogue yet): the rollups are inserted as their first upserts
    # would make them, in large batches.
    documents = series.new_documents([*_insects(), *_weather(now)])
    rollups = database.collection(series.COLLECTION)
    for start in range(0, len(documents), BATCH):
        await rollups.insert_many(documents[start : start + BATCH])
    for name, fields, keys in (
        ("weather", {"temperature", "humidity"}, {"station"}),
        ("insects", {"butterflies", "honeybees"}, {"location", "scientist"}),
    ):
        await measurements.register_names(
            catalogue,
            measurement=name,
            fields=fields,
            tag_keys=keys,
            max_fields=32,
            max_tag_keys=64,
        )
    values = [("weather", "station", s) for s in STATIONS]
    values += [("insects", "location", "1"), ("insects", "location", "2")]
    values += [("insects", "scientist", "langstroth"), ("insects", "scientist", "perpetua")]
    await tag_values.record_tag_values(database.collection(tag_values.COLLECTION), values=values)
