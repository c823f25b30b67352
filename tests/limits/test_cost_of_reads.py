"""A `seriesTotal` counts in the cost the rollup documents its range can name (each whole month,
and the days, hours and minutes at its ends), so that aliased totals over centuries are refused
before anything runs instead of holding the database for seconds."""

from __future__ import annotations

from resolvers.series_reads import EDGE_PIECES
from settings import Settings
from tests.limits.support import cost_of, refused
from tests.support import Api, ApiFactory


def _total(alias: str, start: str, end: str) -> str:
    return (
        f'{alias}: seriesTotal(measurement: "m", from: "{start}", to: "{end}", '
        'fields: ["a"]) { sum }'
    )


async def test_cost_of_a_series_total_counts_the_months_of_its_range(
    make_api: ApiFactory, settings: Settings
) -> None:
    query = "{ " + _total("t", "2024-01-15T00:00:00Z", "2024-03-02T00:00:00Z") + " }"
    # One field total and its sum; January to March, and the pieces at the ends.
    assert await cost_of(make_api, settings, query) == 1 + 1 + 3 + EDGE_PIECES


async def test_cost_refuses_aliased_totals_over_eleven_centuries(api: Api) -> None:
    totals = " ".join(
        _total(f"a{i}", f"1900-01-01T00:0{i % 10}:00Z", "3000-01-01T00:00:00Z") for i in range(30)
    )
    body = await refused(api, "{ " + totals + " }")
    months = 1100 * 12 + 1
    assert body["errors"][0]["extensions"]["cost"] == 30 * (2 + months + EDGE_PIECES)


async def test_cost_runs_a_total_over_eleven_centuries(api: Api) -> None:
    query = "{ " + _total("t", "1900-01-01T00:00:00Z", "3000-01-01T00:00:00Z") + " }"
    body = await api.post(query)
    assert body["errors"][0]["extensions"]["code"] == "NOT_FOUND", body  # no such measurement


async def test_cost_of_a_total_outside_the_years_leaves_the_refusal_to_the_resolver(
    api: Api,
) -> None:
    body = await api.post("{ " + _total("t", "0001-01-01T00:00:00Z", "9999-01-01T00:00:00Z") + " }")
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT", body
