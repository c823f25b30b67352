"""`recordSensorEvents` counts `UNITS_PER_EVENT` for each event it is given, whatever it
answers: the sensors a request writes are at most the units it is charged, so aliased full
batches answering one number each (thirty of them took 1.7 s of the server's CPU) are refused
before anything runs, and the most the cost allows are written."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId

from schema.sensors import UNITS_PER_EVENT
from settings import MAX_BATCH_SIZE, MAX_COST, Settings
from store.sensors import sensors as store
from tests.limits.support import cost_of
from tests.support import Api, ApiFactory, error_codes

ALIAS_COST = 1 + 1 + MAX_BATCH_SIZE * UNITS_PER_EVENT  # the payload, `accepted`, the events
MOST = MAX_COST // ALIAS_COST


def _mutation(aliases: int) -> str:
    fields = " ".join(
        f"a{i}: recordSensorEvents(events: $e) {{ accepted }}" for i in range(aliases)
    )
    return f"mutation($e: [SensorEventInput!]!) {{ {fields} }}"


async def _batch(api: Api) -> list[dict[str, Any]]:
    """A full batch over as many sensors, each its own document to write."""
    ids = [ObjectId() for _ in range(MAX_BATCH_SIZE)]
    await api.collection(store.COLLECTION).insert_many(
        [{"_id": i, "title": f"s{n}", "totals": []} for n, i in enumerate(ids)]
    )
    return [{"sensorId": str(i), "at": "2022-09-12T12:30:00Z"} for i in ids]


def _written(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sensors each write updates, from now on."""
    written: list[int] = []
    original = store.record_variables

    def counting(per_sensor: Any, *args: Any, **kwargs: Any) -> Any:
        written.append(len(per_sensor))
        return original(per_sensor, *args, **kwargs)

    monkeypatch.setattr(store, "record_variables", counting)
    return written


async def test_the_cost_counts_every_event(make_api: ApiFactory, settings: Settings) -> None:
    event = {"sensorId": str(ObjectId()), "at": "2022-09-12T12:30:00Z"}
    assert await cost_of(make_api, settings, _mutation(1), {"e": [event] * 3}) == (
        1 + 1 + 3 * UNITS_PER_EVENT
    )


async def test_the_most_aliases_allowed_write_no_more_sensors_than_charged(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert 1 <= MOST < 30  # the alias limit would allow thirty
    events = await _batch(api)
    written = _written(monkeypatch)
    data = await api.data(_mutation(MOST), {"e": events})
    assert [data[f"a{i}"]["accepted"] for i in range(MOST)] == [MAX_BATCH_SIZE] * MOST
    assert written == [MAX_BATCH_SIZE] * MOST
    assert sum(written) <= MOST * ALIAS_COST


async def test_one_alias_more_is_refused_before_anything_runs(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    events = await _batch(api)
    written = _written(monkeypatch)
    api.commands.reset()
    body = await api.post(_mutation(MOST + 1), {"e": events})
    assert error_codes(body) == ["LIMIT_EXCEEDED"], body
    assert body["errors"][0]["extensions"]["cost"] == (MOST + 1) * ALIAS_COST
    assert api.commands.count == 0 and written == []
