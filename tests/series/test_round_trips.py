"""Round trips of time series, counted by the engine or by PyMongo's command monitoring."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from tests.series.support import RECORD, SERIES, TOTAL, observation, record
from tests.support import Api

START = datetime(2024, 1, 1, tzinfo=UTC)


def _at(moment: datetime) -> str:
    return moment.isoformat().replace("+00:00", "Z")


async def test_record_observations_of_known_names_is_one_bulk_write(api: Api) -> None:
    await record(api, observation(_at(START), tag_pairs={"site": "a"}, v=1))
    batch = [
        observation(_at(START + timedelta(minutes=i)), tag_pairs={"site": "a"}, v=i)
        for i in range(1_000)
    ]
    assert await api.round_trips(RECORD, {"o": batch}) == 1
    assert dict(api.commands.by_name) == {"update": 1}


async def test_a_new_measurement_costs_the_catalogue_and_its_tag_values_once(api: Api) -> None:
    first = {"o": [observation(_at(START), "fresh", {"site": "a"}, v=1)]}
    assert await api.round_trips(RECORD, first) == 3  # catalogue, tag values, rollups
    again = {"o": [observation(_at(START), "fresh", {"site": "a"}, v=2)]}
    assert await api.round_trips(RECORD, again) == 1


async def test_several_new_measurements_cost_one_check_and_one_update_each(api: Api) -> None:
    batch = {"o": [observation(_at(START), name, {"site": "a"}, v=1) for name in "pqr"]}
    assert await api.round_trips(RECORD, batch) == 3 + 3  # check, 3 catalogue, tags, rollups
    assert dict(api.commands.by_name) == {"find": 1, "findAndModify": 3, "update": 2}


async def test_a_day_series_over_a_year_of_many_tag_sets_is_the_catalogue_and_one_command(
    api: Api,
) -> None:
    await record(
        api,
        *(
            observation(
                _at(START + timedelta(days=d, hours=d % 24)), tag_pairs={"s": str(d % 20)}, v=1
            )
            for d in range(366)
        ),
    )
    year = {
        "m": "m", "from": _at(START), "to": _at(START + timedelta(days=366)), "g": "DAY",
        "fields": ["v"],
    }  # fmt: skip
    assert await api.round_trips(SERIES, year) == 2
    assert dict(api.commands.by_name) == {"find": 1, "aggregate": 1}  # no getMore
    hours = {**year, "g": "HOUR", "to": _at(START + timedelta(days=100)), "fields": ["v"]}
    assert await api.round_trips(SERIES, hours) == 2
    assert await api.round_trips(TOTAL, {k: v for k, v in year.items() if k != "g"}) == 2


async def test_aliased_series_read_the_catalogue_once(api: Api) -> None:
    await record(api, observation(_at(START), "a", v=1), observation(_at(START), "b", w=1))
    span = f'from: "{_at(START)}", to: "{_at(START + timedelta(days=1))}"'
    query = (
        "{ "
        + " ".join(
            f'{alias}: seriesTotal(measurement: "{name}", {span}) {{ sum }}'
            for alias, name in [("a1", "a"), ("a2", "a"), ("b1", "b")]
        )
        + " }"
    )
    assert await api.round_trips(query) == 1 + 3
    assert dict(api.commands.by_name) == {"find": 1, "aggregate": 3}


async def test_measurements_is_one_command(api: Api) -> None:
    await record(api, observation(_at(START), "a", v=1), observation(_at(START), "b", w=1))
    query = "{ measurements { name fields tagKeys } }"
    assert await api.round_trips(query) == 1
