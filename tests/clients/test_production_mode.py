"""ARRAYGRAPH_ENV=production: introspection and GraphiQL off (each can be set on again), masked
errors generic; development keeps both on."""

from __future__ import annotations

import pytest

from settings import Settings, SettingsError
from tests.support import ApiFactory, error_codes

PRODUCTION = Settings.from_env({"ARRAYGRAPH_ENV": "production"})
INTROSPECTION = "{ __schema { queryType { name } } }"


def test_production_turns_introspection_and_graphiql_off() -> None:
    assert (PRODUCTION.introspection, PRODUCTION.graphiql) == (False, False)
    development = Settings.from_env({})
    assert (development.introspection, development.graphiql) == (True, True)


def test_production_lets_each_be_set_on_again() -> None:
    env = {"ARRAYGRAPH_ENV": "production", "ARRAYGRAPH_INTROSPECTION": "on"}
    assert Settings.from_env(env).introspection is True
    assert Settings.from_env(env).graphiql is False


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ARRAYGRAPH_ENV", "prod"),
        ("ARRAYGRAPH_GRAPHIQL", "maybe"),
        ("ARRAYGRAPH_INTROSPECTION", "2"),
    ],
)
def test_production_settings_refuse_unknown_values(name: str, value: str) -> None:
    with pytest.raises(SettingsError, match=name):
        Settings.from_env({name: value})


async def test_production_refuses_introspection_queries(make_api: ApiFactory) -> None:
    async with make_api(PRODUCTION) as api:
        body = await api.post(INTROSPECTION)
        assert set(error_codes(body)) == {"GRAPHQL_VALIDATION_FAILED"}
        assert body.get("data") is None
        assert "introspection" in body["errors"][0]["message"].lower()
        typed = await api.post('{ __type(name: "Sensor") { name } }')
        assert set(error_codes(typed)) == {"GRAPHQL_VALIDATION_FAILED"}
        assert await api.data("{ __typename }") == {"__typename": "Query"}


async def test_development_answers_introspection(make_api: ApiFactory) -> None:
    async with make_api(Settings()) as api:
        assert (await api.data(INTROSPECTION))["__schema"]["queryType"]["name"] == "Query"


async def test_production_serves_no_graphiql(make_api: ApiFactory) -> None:
    async with make_api(PRODUCTION) as api:
        page = await api.client.get("/graphql", headers={"accept": "text/html"})
        assert page.status_code == 404
        assert "graphiql" not in page.text.lower()


async def test_development_serves_graphiql(make_api: ApiFactory) -> None:
    async with make_api(Settings()) as api:
        page = await api.client.get("/graphql", headers={"accept": "text/html"})
        assert page.status_code == 200
        assert "graphiql" in page.text.lower()


async def test_production_validation_errors_suggest_no_schema_names(make_api: ApiFactory) -> None:
    async with make_api(PRODUCTION) as api:
        body = await api.post("{ sensorz { totalCount } }")
        assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"]
        assert body["errors"][0]["message"] == "Cannot query field 'sensorz' on type 'Query'."
    async with make_api(Settings()) as api:
        body = await api.post("{ sensorz { totalCount } }")
        assert "Did you mean 'sensor'" in body["errors"][0]["message"]


@pytest.mark.parametrize(
    ("document", "variables"),
    [
        ("query($o: SensorOrder) { sensors(orderBy: $o) { totalCount } }", {"o": "TITEL"}),
        (
            "query($f: SensorFilter) { sensors(filter: $f) { totalCount } }",
            {"f": {"titlePrefx": "a"}},
        ),
        ('{ sensors(filter: {titlePrefx: "a"}) { totalCount } }', {}),
    ],
    ids=["enum-variable", "input-field-variable", "input-field-literal"],
)
async def test_production_errors_of_every_kind_suggest_no_names(
    make_api: ApiFactory, document: str, variables: dict[str, object]
) -> None:
    async with make_api(PRODUCTION) as api:
        body = await api.post(document, variables)
        assert body["errors"], body
        assert all("Did you mean" not in error["message"] for error in body["errors"]), body
