"""`recordObservations` counts in the cost every field value it is given, `UNITS_PER_OBSERVED_VALUE`
each (each is converted, checked, and added into three rollups), so that aliased batches cannot
hold the server for seconds: thirty aliases of 1,000 observations of 32 fields each cost 30
units, and some 50 s of the server's CPU."""

from __future__ import annotations

import string
from typing import Any

from resolvers.series_reads import UNITS_PER_OBSERVED_VALUE
from settings import Settings
from tests.limits.support import cost_of
from tests.series.support import RECORD, observation
from tests.support import Api, ApiFactory


def _batch(count: int, fields: int) -> list[dict[str, Any]]:
    values = [{"name": name, "value": 1.0} for name in string.ascii_letters[:fields]]
    return [
        {**observation(f"2024-01-01T00:{n % 60:02d}:00Z"), "fields": values} for n in range(count)
    ]


async def test_cost_of_recording_counts_every_field_value(
    make_api: ApiFactory, settings: Settings
) -> None:
    cost = await cost_of(make_api, settings, RECORD, {"o": _batch(3, 2)})
    assert cost == 1 + 1 + 3 * 2 * UNITS_PER_OBSERVED_VALUE  # the payload, applied, the values


async def test_aliased_batches_of_many_fields_are_refused_before_anything_runs(api: Api) -> None:
    aliases = " ".join(
        f"a{i}: recordObservations(observations: $o) {{ applied }}" for i in range(30)
    )
    query = f"mutation($o: [ObservationInput!]!) {{ {aliases} }}"
    api.commands.reset()
    body = await api.post(query, {"o": _batch(1_000, 32)})
    assert body["errors"][0]["extensions"]["code"] == "LIMIT_EXCEEDED", body
    assert api.commands.count == 0


async def test_a_full_batch_of_four_fields_is_within_the_cost(api: Api) -> None:
    assert (await api.data(RECORD, {"o": _batch(1_000, 4)}))["recordObservations"] == {
        "applied": 1_000
    }
