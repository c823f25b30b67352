"""`recordObservations` at the cost's edge (as many observations of 32 fields as the cost
allows) builds each input object once, from graphql-core's coercion written out per type
(runtime/execution/variable_coercion.py, runtime/execution/input_builders.py), and no more of them
than the units it is charged: none goes through graphql-core's generic coercion or Strawberry's
generic conversion, which were most of such a batch's CPU."""

from __future__ import annotations

import string
from collections import Counter
from typing import Any

import pytest

from resolvers.series_reads import UNITS_PER_OBSERVED_VALUE
from runtime.execution import input_builders, variable_coercion
from settings import MAX_COST, MAX_FIELDS_PER_MEASUREMENT
from tests.series.support import RECORD
from tests.support import Api
from tests.support.executed import count_calls

FIELDS = MAX_FIELDS_PER_MEASUREMENT
UNITS = 1 + 1 + FIELDS * UNITS_PER_OBSERVED_VALUE  # the payload and `applied`, then per one
MOST = (MAX_COST - 2) // (FIELDS * UNITS_PER_OBSERVED_VALUE)


def _batch(count: int) -> list[dict[str, Any]]:
    values = [{"name": name, "value": n} for n, name in enumerate(string.ascii_letters[:FIELDS])]
    return [
        {
            "measurement": "m",
            "at": f"2024-01-01T{n // 60 % 24:02d}:{n % 60:02d}:00Z",
            "tags": [{"key": "station", "value": f"s{n % 10}"}],
            "fields": values,
        }
        for n in range(count)
    ]


def _built(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """The input objects each written-out coercer builds, by type, from now on."""
    built: Counter[str] = Counter()
    original = variable_coercion._object_coercer

    def counting(object_type: Any, *, nested: bool) -> Any:
        coerce = original(object_type, nested=nested)
        if coerce is None:
            return None

        def counted(value: Any) -> Any:
            built[object_type.name] += 1
            return coerce(value)

        return counted

    monkeypatch.setattr(variable_coercion, "_object_coercer", counting)
    return built


async def test_a_batch_at_the_cost_limit_builds_each_input_once(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = _built(monkeypatch)
    generic: list[str] = []
    count_calls(monkeypatch, variable_coercion, "_graphql_coerce_input_value", generic)
    count_calls(monkeypatch, input_builders, "_strawberry_convert_argument", generic)
    data = await api.data(RECORD, {"o": _batch(MOST)})
    assert data["recordObservations"] == {"applied": MOST}
    assert built == {"ObservationInput": MOST, "TagInput": MOST, "FieldValueInput": MOST * FIELDS}
    assert sum(built.values()) <= MOST * UNITS
    assert generic == []
