"""The HTTP surface: GraphQL over POST and GET, GraphiQL, health and readiness."""

from __future__ import annotations

import dataclasses
from typing import Any, cast

import pytest

from settings import Settings
from store.database import Database
from store.orders import users
from store.protocols import AsyncDatabase
from store.sensors import sensors
from tests.support import Api, ApiFactory


async def test_graphql_post_serves_a_query(api: Api) -> None:
    response = await api.client.post("/graphql", json={"query": "{ __typename }"})
    assert response.json() == {"data": {"__typename": "Query"}}


async def test_graphql_get_serves_a_query(api: Api) -> None:
    response = await api.client.get("/graphql", params={"query": "{ __typename }"})
    assert response.json() == {"data": {"__typename": "Query"}}


async def test_graphql_get_refuses_a_mutation(api: Api) -> None:
    query = 'mutation { createSensor(title: "x") { id } }'
    response = await api.client.get("/graphql", params={"query": query})
    assert response.status_code == 405
    assert await api.collection("sensors").count_documents({}) == 0


async def test_browser_get_shows_graphiql(api: Api) -> None:
    response = await api.client.get("/graphql", headers={"accept": "text/html"})
    assert response.status_code == 200
    assert "graphiql" in response.text.lower()


async def test_healthz_answers_while_the_process_is_up(api: Api) -> None:
    response = await api.client.get("/healthz")
    assert (response.status_code, response.json()) == (200, {"status": "ok"})


async def test_readyz_answers_when_the_database_pings(api: Api) -> None:
    response = await api.client.get("/readyz")
    assert (response.status_code, response.json()["status"]) == (200, "ready")


class Unreachable:
    """A database whose collections work but which never answers a ping."""

    def __init__(self, db: Any) -> None:
        self._db = db

    def __getitem__(self, name: str) -> Any:
        return self._db[name]

    async def command(self, *args: object, **kwargs: object) -> None:
        raise ConnectionError("no server at mongodb://db:27017")


async def test_readyz_is_503_when_the_database_does_not_answer(
    make_api: ApiFactory, database: Database
) -> None:
    unreachable = dataclasses.replace(database, db=cast(AsyncDatabase, Unreachable(database.db)))
    async with make_api(Settings(), database=unreachable) as api:
        response = await api.client.get("/readyz")
    assert response.status_code == 503
    assert response.json()["status"] == "unavailable"
    assert "db:27017" not in response.text  # the log names the host, not the answer


async def test_demo_data_holds_the_seed_sensors(make_api: ApiFactory) -> None:
    async with make_api(Settings(), demo=(sensors.COLLECTION,)) as api:
        data = await api.data("{ sensors { edges { node { title count24h } } } }")
    nodes = [edge["node"] for edge in data["sensors"]["edges"]]
    assert [n["title"] for n in nodes] == ["Sensor 1", "Sensor 2"]
    assert all(n["count24h"] > 0 for n in nodes)


async def test_demo_data_holds_user_u1_with_200_orders(make_api: ApiFactory) -> None:
    async with make_api(Settings(), demo=(users.COLLECTION,)) as api:
        data = await api.data(
            '{ user(userId: "u1") { orderCount orders(first: 1) { totalCount } } }'
        )
    assert data == {"user": {"orderCount": 200, "orders": {"totalCount": 200}}}


async def test_graphql_post_with_a_charset_is_served(api: Api) -> None:
    response = await api.client.post(
        "/graphql",
        content=b'{"query": "{ __typename }"}',
        headers={"content-type": "application/json; charset=utf-8"},
    )
    assert response.json() == {"data": {"__typename": "Query"}}


async def test_graphql_post_with_a_query_that_is_not_a_string_is_refused(api: Api) -> None:
    response = await api.client.post("/graphql", json={"query": {"not": "a string"}})
    assert response.status_code == 400


@pytest.mark.parametrize("body", [b"null", b'"x"', b"5", b"true", b"[" * 100_000, b"{" * 3_000])
async def test_graphql_post_of_a_body_that_is_not_an_operation_is_400(
    api: Api, body: bytes
) -> None:
    response = await api.client.post(
        "/graphql", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
