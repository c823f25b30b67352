"""What a GraphQL request over HTTP may be (web/endpoint/request.py,
runtime/request/operation_choice.py): the body's media type and shape, a GET's parameters, the
method, and the operation a document holds for it. Every refusal is a 400 GraphQL response with a
code (405 for a method, or a mutation over GET; 415 for a body that is not JSON), and runs nothing.
"""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from tests.support import Api, error_codes

GRAPHQL_RESPONSE = "application/graphql-response+json"
TYPENAME = {"data": {"__typename": "Query"}}
COUNT = "query($n: Int) { sensors(first: $n) { totalCount } }"


def _refused(response: httpx.Response, reason: str, status: int = 400) -> None:
    assert response.status_code == status
    body: dict[str, Any] = response.json()
    code = {400: "BAD_REQUEST", 405: "METHOD_NOT_ALLOWED", 415: "UNSUPPORTED_MEDIA_TYPE"}[status]
    assert body == {"errors": [{"message": reason, "extensions": {"code": code}}]}


@pytest.mark.parametrize("content_type", ["text/plain", "application/graphql", ""])
async def test_http_a_body_that_is_not_json_by_its_media_type_is_refused(
    api: Api, content_type: str
) -> None:
    response = await api.client.post(
        "/graphql", content=b'{"query": "{ __typename }"}', headers={"content-type": content_type}
    )
    _refused(response, "Unsupported content type", 415)


async def test_http_a_json_media_type_is_read_in_any_case(api: Api) -> None:
    response = await api.client.post(
        "/graphql",
        content=b'{"query": "{ __typename }"}',
        headers={"content-type": "Application/JSON"},
    )
    assert response.json() == TYPENAME


@pytest.mark.parametrize("body", [{}, {"query": None}, {"query": ""}])
async def test_http_a_post_without_a_query_is_refused(api: Api, body: dict[str, Any]) -> None:
    response = await api.client.post("/graphql", json=body)
    _refused(response, "No GraphQL query found in the request")


@pytest.mark.parametrize("member", ["variables", "extensions"])
async def test_http_variables_and_extensions_must_be_objects(api: Api, member: str) -> None:
    response = await api.client.post("/graphql", json={"query": "{ __typename }", member: [1]})
    _refused(
        response, f"The GraphQL operation's `{member}` must be an object or null, if provided."
    )


async def test_http_a_batch_is_refused_as_batching_is_off(api: Api) -> None:
    response = await api.client.post("/graphql", json=[{"query": "{ __typename }"}])
    _refused(response, "Batching is not enabled")


async def test_http_get_reads_variables_as_json(api: Api) -> None:
    params = {"query": COUNT, "variables": json.dumps({"n": 1})}
    response = await api.client.get("/graphql", params=params)
    assert response.json() == {"data": {"sensors": {"totalCount": 0}}}


@pytest.mark.parametrize(
    ("variables", "reason"),
    [
        ("{n: 1", "Unable to parse request body as JSON"),
        ("", "The GraphQL operation's `variables` must be an object or null, if provided."),
        ("[1]", "The GraphQL operation's `variables` must be an object or null, if provided."),
    ],
    ids=["not-json", "empty", "a-list"],
)
async def test_http_get_refuses_variables_that_are_not_a_json_object(
    api: Api, variables: str, reason: str
) -> None:
    response = await api.client.get("/graphql", params={"query": COUNT, "variables": variables})
    _refused(response, reason)


async def test_http_get_refuses_a_mutation_with_the_reason(api: Api) -> None:
    query = 'mutation { createSensor(title: "x") { id } }'
    response = await api.client.get("/graphql", params={"query": query})
    _refused(response, "mutations are not allowed when using GET", 405)
    assert await api.collection("sensors").count_documents({}) == 0


async def test_http_get_runs_the_query_a_document_names_beside_a_mutation(api: Api) -> None:
    query = 'mutation A { createSensor(title: "x") { id } } query B { __typename }'
    response = await api.client.get("/graphql", params={"query": query, "operationName": "B"})
    assert response.json() == TYPENAME
    assert await api.collection("sensors").count_documents({}) == 0


async def test_http_a_document_without_operations_is_refused(api: Api) -> None:
    response = await api.client.post(
        "/graphql", json={"query": "fragment F on Query { __typename }"}
    )
    _refused(response, "Can't get GraphQL operation type")


async def test_http_an_unknown_operation_name_is_refused_naming_it(api: Api) -> None:
    response = await api.client.post(
        "/graphql", json={"query": "query A { __typename }", "operationName": "B"}
    )
    _refused(response, 'Unknown operation named "B".')


async def test_http_get_without_a_query_from_a_client_of_json_is_refused(api: Api) -> None:
    response = await api.client.get("/graphql", headers={"accept": "application/json"})
    _refused(response, "No GraphQL query found in the request")


async def test_http_get_from_a_client_that_accepts_anything_shows_graphiql(api: Api) -> None:
    response = await api.client.get("/graphql", headers={"accept": "*/*"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "graphiql" in response.text.lower()


@pytest.mark.parametrize("method", ["HEAD", "OPTIONS", "DELETE"])
async def test_http_methods_but_get_and_post_are_405_with_allow(api: Api, method: str) -> None:
    response = await api.client.request(method, "/graphql")
    assert response.status_code == 405
    assert response.headers["allow"] == "GET, POST"


async def test_http_a_refusal_takes_the_graphql_response_media_type(api: Api) -> None:
    response = await api.client.post("/graphql", json={}, headers={"accept": GRAPHQL_RESPONSE})
    assert response.status_code == 400
    assert response.headers["content-type"] == GRAPHQL_RESPONSE
    assert error_codes(response.json()) == ["BAD_REQUEST"]


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"query": "{ sensors { "}, "GRAPHQL_PARSE_FAILED"),
        ({"query": COUNT, "variables": {"n": "ten"}}, "BAD_USER_INPUT"),
        (
            {"query": "query A { __typename } query B { __typename }"},
            "OPERATION_RESOLUTION_FAILURE",
        ),
    ],
    ids=["parse", "variables", "unresolved"],
)
async def test_http_graphql_response_json_answers_each_request_error_400_without_data(
    api: Api, body: dict[str, Any], code: str
) -> None:
    response = await api.client.post("/graphql", json=body, headers={"accept": GRAPHQL_RESPONSE})
    assert response.status_code == 400
    assert "data" not in response.json()
    assert error_codes(response.json()) == [code]
