"""Names become document keys; values stay finite; counts stay within the declared limits.
Whatever is refused, the whole call writes nothing."""

from __future__ import annotations

import json
from typing import Any

import pytest

from settings import MAX_FIELDS_PER_MEASUREMENT
from tests.series.support import RECORD, TOTAL, observation, record, sums
from tests.support import Api, assert_rejected

AT = "2024-01-01T00:00:00Z"


def _with(**changes: Any) -> dict[str, Any]:
    return {**observation(AT, tag_pairs={"site": "a"}, v=1), **changes}


@pytest.mark.parametrize(
    ("bad", "argument"),
    [
        (_with(measurement="a.b"), "observations[1].measurement"),
        (_with(measurement="$inc"), "observations[1].measurement"),
        (_with(measurement=""), "observations[1].measurement"),
        (_with(measurement="m" * 65), "observations[1].measurement"),
        (_with(measurement="1abc"), "observations[1].measurement"),
        (_with(tags=[{"key": "a.b", "value": "x"}]), "observations[1].tags[0].key"),
        (_with(tags=[{"key": "k", "value": "x" * 129}]), "observations[1].tags[0].value"),
        (_with(tags=[{"key": "k", "value": ""}]), "observations[1].tags[0].value"),
        (_with(tags=[{"key": "k", "value": "a\u0000"}]), "observations[1].tags[0].value"),
        (
            _with(tags=[{"key": "k", "value": "1"}, {"key": "k", "value": "2"}]),
            "observations[1].tags[1].key",
        ),
        (_with(fields=[{"name": "$set", "value": 1}]), "observations[1].fields[0].name"),
        (_with(fields=[{"name": "f", "value": 1e101}]), "observations[1].fields[0].value"),
        (_with(fields=[]), "observations[1].fields"),
        (_with(at="1899-12-31T23:59:00Z"), "observations[1].at"),
    ],
)
async def test_a_value_of_the_wrong_shape_is_bad_user_input(
    api: Api, bad: dict[str, Any], argument: str
) -> None:
    await record(api, observation(AT, tag_pairs={"site": "a"}, v=1))
    variables = {"o": [observation(AT, v=2), bad]}
    await assert_rejected(api, RECORD, variables, code="BAD_USER_INPUT", argument=argument)


@pytest.mark.parametrize(
    ("bad", "argument"),
    [
        (_with(tags=[{"key": f"k{i}", "value": "v"} for i in range(17)]), "observations[1].tags"),
        (
            _with(fields=[{"name": f"f{i}", "value": 1} for i in range(33)]),
            "observations[1].fields",
        ),
    ],
)
async def test_a_count_beyond_a_limit_is_bad_user_input(
    api: Api, bad: dict[str, Any], argument: str
) -> None:
    await record(api, observation(AT, v=1))
    variables = {"o": [observation(AT, v=2), bad]}
    await assert_rejected(api, RECORD, variables, code="BAD_USER_INPUT", argument=argument)


async def test_more_observations_than_the_batch_limit_is_bad_user_input(api: Api) -> None:
    # As `recordSensorEvents`' events: a list argument past its per-call limit.
    await record(api, observation(AT, v=1))
    variables = {"o": [observation(AT, v=1)] * 1_001}
    body = await assert_rejected(
        api, RECORD, variables, code="BAD_USER_INPUT", argument="observations"
    )
    assert body["errors"][0]["message"] == (
        "observations: at most 1000 per call, got 1001 "
        "(observations[1000] is the first over the limit)"
    )


async def test_a_measurement_with_every_field_it_may_have_refuses_one_more(api: Api) -> None:
    every = observation(AT, v=1)
    every["fields"] = [{"name": f"f{i}", "value": 1} for i in range(MAX_FIELDS_PER_MEASUREMENT)]
    await record(api, every)
    variables = {"o": [observation(AT, v=1)]}
    body = await assert_rejected(
        api, RECORD, variables, code="LIMIT_EXCEEDED", argument="observations"
    )
    assert "nothing was written" in body["errors"][0]["message"]


async def test_a_new_measurement_refused_for_its_fields_is_not_created(api: Api) -> None:
    half = MAX_FIELDS_PER_MEASUREMENT // 2 + 4
    first, second = observation(AT, "fresh"), observation(AT, "fresh")
    first["fields"] = [{"name": f"a{i}", "value": 1} for i in range(half)]
    second["fields"] = [{"name": f"b{i}", "value": 1} for i in range(half)]
    body = await assert_rejected(
        api, RECORD, {"o": [first, second]}, code="LIMIT_EXCEEDED", argument="observations"
    )
    assert "nothing was written" in body["errors"][0]["message"]
    found = await api.data('{ measurement(name: "fresh") { name } measurements { name } }')
    assert found == {"measurement": None, "measurements": []}


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity"])
async def test_a_non_finite_value_is_bad_user_input(api: Api, value: str) -> None:
    await record(api, observation(AT, v=1))
    before = await api.snapshot()
    event = json.dumps(observation(AT, v=1)).replace('"value": 1', f'"value": {value}')
    raw = f'{{"query": {json.dumps(RECORD)}, "variables": {{"o": [{event}]}}}}'
    response = await api.client.post(
        "/graphql", content=raw, headers={"content-type": "application/json"}
    )
    assert response.json()["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert await api.snapshot() == before


async def test_structural_words_as_names_store_and_read_back(api: Api) -> None:
    odd = observation(AT, "days", {"_id": "x", "tot": "y"}, _id=1, days=2, e=3, tot=4)
    await record(api, odd)
    span = {"from": AT, "to": "2024-01-02T00:00:00Z"}
    total = await api.data(TOTAL, {"m": "days", "tags": [{"key": "_id", "value": "x"}], **span})
    assert sums(total["seriesTotal"]) == {"_id": 1, "days": 2, "e": 3, "tot": 4}


async def test_tag_sets_never_collide_however_their_values_are_written(api: Api) -> None:
    await record(
        api,
        observation(AT, tag_pairs={"a": "x|b=y"}, v=1),
        observation(AT, tag_pairs={"a": "x", "b": "y"}, v=2),
    )
    span = {"m": "m", "from": AT, "to": "2024-01-02T00:00:00Z"}
    joined = await api.data(TOTAL, {**span, "tags": [{"key": "a", "value": "x|b=y"}]})
    split = await api.data(TOTAL, {**span, "tags": [{"key": "b", "value": "y"}]})
    assert (sums(joined["seriesTotal"]), sums(split["seriesTotal"])) == ({"v": 1}, {"v": 2})


async def test_an_empty_list_of_fields_is_bad_user_input(api: Api) -> None:
    await record(api, observation(AT, v=1))
    span = {"m": "m", "from": AT, "to": "2024-01-02T00:00:00Z", "fields": []}
    await assert_rejected(api, TOTAL, span, code="BAD_USER_INPUT", argument="fields")


async def test_a_call_of_several_new_measurements_one_over_a_limit_names_nothing(
    api: Api,
) -> None:
    every = observation(AT, "full", v=1)
    every["fields"] = [{"name": f"f{i}", "value": 1} for i in range(MAX_FIELDS_PER_MEASUREMENT)]
    await record(api, every)
    variables = {"o": [observation(AT, "fresh", v=1), observation(AT, "full", extra=1)]}
    await assert_rejected(api, RECORD, variables, code="LIMIT_EXCEEDED", argument="observations")
