"""UNAUTHENTICATED under `application/graphql-response+json` is a request error: 401, no
`data`, `WWW-Authenticate: Bearer` (with `error="invalid_token"` when a credential was sent
and not accepted). Under `application/json` it stays 200, the field's error at its path;
FORBIDDEN stays a field error under both; once a mutation has run, the answer is 200 whatever
the type, its writes named."""

from __future__ import annotations

import httpx

from app import create_app
from settings import Settings
from settings.identity import IdentitySettings
from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.backends import Backend
from tests.support.clock import FakeClock
from tests.support.jwks import bearer
from tests.support.servers import live_server

GRAPHQL_RESPONSE = "application/graphql-response+json"
SETTINGS = Settings(api_tokens=("reader:reader-token",))  # anonymous may do nothing
SENSORS = "query Sensors { sensors { ...Total } } fragment Total on SensorConnection { totalCount }"
MISSING = "Authentication required: send 'Authorization: Bearer <token>'"


async def call(api_client: httpx.AsyncClient, query: str, **headers: str) -> httpx.Response:
    return await api_client.post("/graphql", json={"query": query}, headers=headers)


async def test_no_credential_is_401_with_a_bare_challenge(make_api: ApiFactory) -> None:
    async with make_api(SETTINGS) as api:
        answer = await call(api.client, SENSORS, accept=GRAPHQL_RESPONSE)
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"] == "Bearer"
        assert answer.headers["content-type"] == GRAPHQL_RESPONSE
        assert answer.json() == {
            "errors": [{"message": MISSING, "extensions": {"code": "UNAUTHENTICATED"}}]
        }


async def test_a_refused_token_is_401_invalid_token(make_api: ApiFactory) -> None:
    async with make_api(SETTINGS) as api:
        answer = await call(
            api.client, SENSORS, accept=GRAPHQL_RESPONSE, authorization="Bearer nope"
        )
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"] == 'Bearer error="invalid_token"'
        [error] = answer.json()["errors"]
        assert error["extensions"] == {"code": "UNAUTHENTICATED", "reason": "not accepted"}
        assert "data" not in answer.json()


async def test_under_application_json_it_stays_a_field_error(make_api: ApiFactory) -> None:
    async with make_api(SETTINGS) as api:
        answer = await call(api.client, SENSORS, accept="application/json")
        assert answer.status_code == 200
        assert "www-authenticate" not in answer.headers
        body = answer.json()
        assert "data" in body and body["data"] is None  # `sensors` is non-null
        assert body["errors"][0]["path"] == ["sensors"]
        assert body["errors"][0]["extensions"]["code"] == "UNAUTHENTICATED"


async def test_forbidden_stays_a_field_error(make_api: ApiFactory) -> None:
    async with make_api(SETTINGS) as api:
        answer = await api.client.post(
            "/graphql",
            json={"query": CREATE, "variables": {"t": "x"}},
            headers={"accept": GRAPHQL_RESPONSE, **bearer("reader-token")},
        )
        assert answer.status_code == 200
        body = answer.json()
        assert body["data"] is None
        assert [e["extensions"]["code"] for e in body["errors"]] == ["FORBIDDEN"]
        assert body["errors"][0]["path"] == ["createSensor"]


async def test_over_real_http_the_challenge_reaches_the_client(
    backend: Backend, clock: FakeClock
) -> None:
    database = backend.open(SETTINGS)
    try:
        app = create_app(SETTINGS, clock=clock, database=database)
        async with live_server(app) as url, httpx.AsyncClient(base_url=url) as client:
            answer = await call(client, SENSORS, accept=GRAPHQL_RESPONSE, authorization="Bearer x")
            assert answer.status_code == 401
            assert answer.headers["www-authenticate"] == 'Bearer error="invalid_token"'
    finally:
        await backend.release(database)


async def test_once_a_mutation_has_run_its_writes_are_answered_200(make_api: ApiFactory) -> None:
    settings = Settings(
        api_tokens=("reader:reader-token",), identity=IdentitySettings(anonymous_role="ingest")
    )
    both = (
        'mutation { createSensor(title: "kept") { title } '
        'deleteChatSession(id: "Q2hhdFNlc3Npb24") }'  # `chat:own`: not the anonymous role's
    )
    async with make_api(settings) as api:
        answer = await call(api.client, both, accept=GRAPHQL_RESPONSE)
        assert answer.status_code == 200
        assert "www-authenticate" not in answer.headers
        body = answer.json()
        assert [e["extensions"]["code"] for e in body["errors"]] == ["UNAUTHENTICATED"]
        assert body["extensions"]["mutationsRan"] == ["createSensor"]
        assert await api.collection("sensors").count_documents({}) == 1
