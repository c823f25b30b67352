"""A call's events folded per sensor and hour before its one write (store/sensors/sensors.py): the
same deltas whatever order the events come in, hours interleaved or not."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from bson import ObjectId

from store.sensors.sensors import SensorEvent, _folded

START = datetime(2024, 5, 1, 9, 59, 59, 999000, tzinfo=UTC)
SENSORS = [ObjectId() for _ in range(3)]


def _events(seed: int) -> list[SensorEvent]:
    chosen = random.Random(seed)
    return [
        SensorEvent(
            chosen.choice(SENSORS),
            START + timedelta(milliseconds=chosen.randrange(3 * 3_600_000)),
            chosen.randrange(1, 4),
            chosen.choice([None, float(chosen.randrange(-5, 5))]),
        )
        for _ in range(300)
    ]


def _expected(events: list[SensorEvent]) -> dict[ObjectId, dict[datetime, tuple[object, ...]]]:
    found: dict[ObjectId, dict[datetime, tuple[object, ...]]] = {}
    for sensor_id in {e.sensor_id for e in events}:
        mine = [e for e in events if e.sensor_id == sensor_id]
        hours = {e.at.replace(minute=0, second=0, microsecond=0) for e in mine}
        found[sensor_id] = {}
        for hour in hours:
            inside = [e for e in mine if hour <= e.at < hour + timedelta(hours=1)]
            valued = [(e.value, e.count) for e in inside if e.value is not None]
            values = [value for value, _ in valued]
            found[sensor_id][hour] = (
                sum(e.count for e in inside),
                sum(value * count for value, count in valued),
                min(values, default=None),
                max(values, default=None),
                sum(count for _, count in valued),
            )
    return found


@pytest.mark.parametrize("seed", range(5))
def test_folded_events_give_each_sensor_hour_its_totals(seed: int) -> None:
    events = _events(seed)
    per_sensor, latest = _folded(events)
    found = {
        sensor_id: {
            hour: (d.count, d.values.total, d.values.minimum, d.values.maximum, d.values.count)
            for hour, d in deltas.items()
        }
        for sensor_id, deltas in per_sensor.items()
    }
    assert found == _expected(events)
    assert latest == {
        sensor_id: max(e.at for e in events if e.sensor_id == sensor_id) for sensor_id in found
    }


def test_folded_events_in_alternating_hours_keep_their_hours() -> None:
    sensor_id, late = SENSORS[0], START + timedelta(hours=1)
    events = [SensorEvent(sensor_id, at) for at in (START, late, START, late)]
    per_sensor, _ = _folded(events)
    assert {hour: d.count for hour, d in per_sensor[sensor_id].items()} == {
        START.replace(minute=0, second=0, microsecond=0): 2,
        late.replace(minute=0, second=0, microsecond=0): 2,
    }


def test_folded_naive_times_are_utc() -> None:
    sensor_id, naive = SENSORS[0], START.replace(tzinfo=None)
    events = [SensorEvent(sensor_id, naive), SensorEvent(sensor_id, naive + timedelta(hours=1))]
    per_sensor, latest = _folded(events)
    assert {hour: d.count for hour, d in per_sensor[sensor_id].items()} == {
        START.replace(minute=0, second=0, microsecond=0): 1,
        (START + timedelta(hours=1)).replace(minute=0, second=0, microsecond=0): 1,
    }
    assert latest == {sensor_id: START + timedelta(hours=1)}
