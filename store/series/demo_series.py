"""Demo time series: the article's table, and synthetic weather to try long ranges with.

The article's eight rows (../shared/seeds/002) as measurement `insects`; and `weather` at two
stations: a year of daily observations (at noon) up to today, and the last day by the minute.
Seeded once: a database whose catalogue already has `insects` is left as it is.

Sized for a start in about a second: recording a year of hourly and a week of minute
observations (18,000 rollups) took 16 s of every `make run`. The rollups are built in Python
as recording the observations would leave them (`series.new_documents`, which shares the
arithmetic of `record_observations`; a test compares the two) and inserted in one command; the
catalogue and the tag values are written by the store functions `recordObservations` uses.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

from settings import MAX_FIELDS_PER_MEASUREMENT, MAX_TAG_KEYS_PER_MEASUREMENT
from store.database import Database
from store.series import measurements, series, tag_values
from store.series.series import Observation
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
DAILY_DAYS = 365  # one observation a day, at noon, on each of the days before today
MINUTE_HOURS = 24  # one a minute over the hours before the current one


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
    noon = end.replace(hour=12)
    for days in range(DAILY_DAYS, 0, -1):
        for station in STATIONS:
            yield _weather_at(noon - timedelta(days=days), station)
    start = end - timedelta(hours=MINUTE_HOURS)
    for minutes in range(MINUTE_HOURS * 60):
        for station in STATIONS:
            yield _weather_at(start + timedelta(minutes=minutes), station)


def demo_observations(now: datetime) -> list[Observation]:
    """Every observation the demo's rollups hold, as `recordObservations` would take them."""
    return [*_insects(), *_weather(now)]


async def seed_demo_series(database: Database, *, now: datetime) -> None:
    catalogue = database.collection(measurements.COLLECTION)
    if await measurements.find_measurements(catalogue, names=["insects"]):
        return
    observations = demo_observations(now)
    # A fresh database (no catalogue yet): the rollups as their first upserts would make them.
    rollups = database.collection(series.COLLECTION)
    await rollups.insert_many(series.new_documents(observations))
    for name, (fields, keys) in sorted(series.names_by_measurement(observations).items()):
        await measurements.register_names(
            catalogue,
            measurement=name,
            fields=fields,
            tag_keys=keys,
            max_fields=MAX_FIELDS_PER_MEASUREMENT,
            max_tag_keys=MAX_TAG_KEYS_PER_MEASUREMENT,
        )
    values = {(o.measurement, key, value) for o in observations for key, value in o.tags}
    await tag_values.record_tag_values(database.collection(tag_values.COLLECTION), values=values)
