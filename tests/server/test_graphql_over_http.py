"""GraphQL over HTTP: transport rejections are GraphQL responses with a code; the
graphql-response+json media type gets its status codes; a client that leaves mid-body is one
info line."""

from __future__ import annotations

import asyncio
import logging

import pytest

from tests.support import Api
from tests.support.api import error_codes

GRAPHQL_RESPONSE = "application/graphql-response+json"


@pytest.mark.parametrize(
    "body",
    [b"null", b"1", b"true", b'"x"', b"[" * 2_000 + b"]" * 2_000, b'{"query": "\xff\xfe"}'],
    ids=["null", "number", "boolean", "string", "nested", "invalid-utf8"],
)
async def test_http_malformed_bodies_are_400_with_a_code(api: Api, body: bytes) -> None:
    response = await api.client.post(
        "/graphql", content=body, headers={"content-type": "application/json"}
    )
    assert response.status_code == 400
    assert response.headers["content-type"] == "application/json"
    assert error_codes(response.json()) == ["BAD_REQUEST"]


async def test_http_other_methods_are_405_with_a_code_and_allow(api: Api) -> None:
    response = await api.client.put("/graphql", content=b"{}")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, POST"
    assert error_codes(response.json()) == ["METHOD_NOT_ALLOWED"]


async def test_http_graphql_response_json_refuses_an_invalid_document_with_400(
    api: Api,
) -> None:
    response = await api.client.post(
        "/graphql", json={"query": "{ nope }"}, headers={"accept": GRAPHQL_RESPONSE}
    )
    assert response.status_code == 400
    assert response.headers["content-type"] == GRAPHQL_RESPONSE
    body = response.json()
    assert "data" not in body
    assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"]


async def test_http_graphql_response_json_answers_field_errors_with_200(api: Api) -> None:
    query = 'mutation { renameSensor(id: "65f000000000000000000000", title: "t") { title } }'
    response = await api.client.post(
        "/graphql", json={"query": query}, headers={"accept": GRAPHQL_RESPONSE}
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == GRAPHQL_RESPONSE
    body = response.json()
    assert body["data"] is None and error_codes(body) == ["NOT_FOUND"]


@pytest.mark.parametrize(
    ("accept", "answered"),
    [
        (f"{GRAPHQL_RESPONSE}, application/json", GRAPHQL_RESPONSE),
        (f"{GRAPHQL_RESPONSE};q=0, application/json", "application/json"),
        (f"application/json;q=1, {GRAPHQL_RESPONSE};q=0.1", "application/json"),
        (f"{GRAPHQL_RESPONSE};q=0.5, */*;q=0.9", "application/json"),
        (f"{GRAPHQL_RESPONSE};q=0.9, application/json;q=0.5", GRAPHQL_RESPONSE),
        ("Application/GraphQL-Response+JSON", GRAPHQL_RESPONSE),  # media types ignore case
        (f"{GRAPHQL_RESPONSE};q=x", "application/json"),  # a q that is no number
        (f"{GRAPHQL_RESPONSE};q=0.5, application/json;q=0.4, */*", GRAPHQL_RESPONSE),  # specific
    ],
)
async def test_http_answers_the_media_type_the_client_prefers_by_q(
    api: Api, accept: str, answered: str
) -> None:
    response = await api.client.post(
        "/graphql", json={"query": "{ nope }"}, headers={"accept": accept}
    )
    assert response.headers["content-type"] == answered
    assert response.status_code == (400 if answered == GRAPHQL_RESPONSE else 200)


async def test_http_application_json_keeps_200_for_request_errors(api: Api) -> None:
    response = await api.client.post("/graphql", json={"query": "{ nope }"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    assert "data" not in response.json()  # nothing ran: no `data` entry, as the spec asks


async def test_http_client_leaving_mid_body_is_one_info_line(
    live_api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    url = live_api.client.base_url
    _, writer = await asyncio.open_connection(url.host, url.port)
    writer.write(
        b"POST /graphql HTTP/1.1\r\nHost: x\r\ncontent-type: application/json\r\n"
        b'content-length: 100\r\n\r\n{"qu'
    )
    await writer.drain()
    await asyncio.sleep(0.2)
    writer.close()
    for _ in range(50):
        if any(" 499 " in r.getMessage() for r in caplog.records):
            break
        await asyncio.sleep(0.05)
    lines = [r for r in caplog.records if " 499 " in r.getMessage()]
    assert len(lines) == 1 and lines[0].levelno == logging.INFO
    assert not any(r.exc_info for r in caplog.records)
    assert not any(r.levelno >= logging.ERROR for r in caplog.records)


@pytest.mark.parametrize(
    ("document", "operation_name", "code"),
    [
        (
            'mutation A { createSensor(title: "twice") { id } } query B { __typename }',
            None,
            "OPERATION_RESOLUTION_FAILURE",
        ),
        ('mutation A { createSensor(title: "x") { id } }', "Nope", "BAD_REQUEST"),
    ],
    ids=["several-without-a-name", "unknown-name"],
)
async def test_http_an_operation_that_cannot_be_resolved_runs_nothing(
    api: Api, document: str, operation_name: str | None, code: str
) -> None:
    before = await api.snapshot()
    response = await api.client.post(
        "/graphql", json={"query": document, "operationName": operation_name}
    )
    body = response.json()
    assert error_codes(body) == [code] and body.get("data") is None
    assert await api.snapshot() == before


async def test_http_a_named_operation_of_several_runs_alone(api: Api) -> None:
    document = 'mutation A { createSensor(title: "once") { title } } query B { __typename }'
    response = await api.client.post("/graphql", json={"query": document, "operationName": "B"})
    assert response.json() == {"data": {"__typename": "Query"}}
