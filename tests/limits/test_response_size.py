"""The largest answer: over ARRAYGRAPH_MAX_RESPONSE_BYTES, one LIMIT_EXCEEDED error instead."""

from __future__ import annotations

import json

from runtime.request.response_size import bounded_request_errors
from settings import MAX_RESPONSE_BYTES, Settings
from tests.support import ApiFactory, error_codes
from web.endpoint.http_protocol import encode

TITLES = "{ sensors(first: 100) { edges { node { title } } } }"
CREATE = 'mutation { createSensor(title: "%s") { id } }'


async def _answer_bytes(make_api: ApiFactory, settings: Settings) -> tuple[int, bytes]:
    """The status and body of TITLES over 20 sensors of 100-character titles."""
    async with make_api(settings) as api:
        for number in range(20):
            await api.data(CREATE % f"{number:03}".ljust(100, "x"))
        response = await api.client.post("/graphql", json={"query": TITLES})
    return response.status_code, response.content


async def test_response_size_over_the_limit_is_limit_exceeded(make_api: ApiFactory) -> None:
    status, body = await _answer_bytes(make_api, Settings(max_response_bytes=2_000))
    assert status == 200
    assert body.startswith(b'{"data": null')
    assert b"exceeds ARRAYGRAPH_MAX_RESPONSE_BYTES 2000" in body
    assert b'"code": "LIMIT_EXCEEDED"' in body


async def test_response_size_at_the_limit_is_served(make_api: ApiFactory) -> None:
    _, full = await _answer_bytes(make_api, Settings())
    status, body = await _answer_bytes(make_api, Settings(max_response_bytes=len(full)))
    assert status == 200
    assert body == full
    assert len(body) > 2_000


async def test_response_size_names_the_answer_size(make_api: ApiFactory) -> None:
    _, full = await _answer_bytes(make_api, Settings())
    async with make_api(Settings(max_response_bytes=len(full) - 1)) as api:
        for number in range(20):
            await api.data(CREATE % f"{number:03}".ljust(100, "x"))
        body = await api.post(TITLES)
    assert error_codes(body) == ["LIMIT_EXCEEDED"]
    assert body["errors"][0]["message"].startswith(f"the answer of {len(full)} bytes exceeds")


def test_response_size_limit_is_read_from_the_environment() -> None:
    assert Settings.from_env({"ARRAYGRAPH_MAX_RESPONSE_BYTES": "4096"}).max_response_bytes == 4096
    assert Settings().max_response_bytes == MAX_RESPONSE_BYTES == 8 * 1024 * 1024


async def test_response_size_of_a_mutation_names_the_mutations_that_ran(
    make_api: ApiFactory,
) -> None:
    # Both mutations ran (their sensors are stored); their answer is over the bound.
    title = "t" * 200
    calls = f'a: createSensor(title: "{title}") {{ title }} b: createSensor(title: "{title}") '
    async with make_api(Settings(max_response_bytes=300)) as api:
        body = await api.post(f"mutation {{ {calls}{{ title }} }}")
        stored = await api.data("{ sensors { totalCount } }")
    assert error_codes(body) == ["LIMIT_EXCEEDED"]
    assert body["errors"][0]["extensions"]["mutationsRan"] == ["a", "b"]
    assert body["errors"][0]["message"].endswith("what they wrote is stored: a, b")
    assert stored == {"sensors": {"totalCount": 2}}


async def test_response_size_of_a_query_names_no_mutation(make_api: ApiFactory) -> None:
    _, body = await _answer_bytes(make_api, Settings(max_response_bytes=2_000))
    assert b"exceeds ARRAYGRAPH_MAX_RESPONSE_BYTES" in body
    assert b"mutationsRan" not in body


async def test_response_size_of_request_errors_keeps_the_first_and_says_nothing_ran(
    make_api: ApiFactory,
) -> None:
    # Nothing ran: no `data: null` (which says an operation ran), and the errors the client
    # must read stay, as many as fit, with their codes (the log's and the client's alike).
    query = "{ " + " ".join(f"unknown{n}" for n in range(40)) + " }"
    async with make_api(Settings(max_response_bytes=2_000)) as api:
        response = await api.client.post(
            "/graphql",
            json={"query": query},
            headers={"accept": "application/graphql-response+json"},
        )
    assert response.status_code == 400
    body = response.json()
    assert "data" not in body
    codes = error_codes(body)
    assert codes[-1] == "LIMIT_EXCEEDED"
    assert set(codes[:-1]) == {"GRAPHQL_VALIDATION_FAILED"} and len(codes) > 2
    assert f"{41 - len(codes)} more errors left out" in body["errors"][-1]["message"]
    assert len(response.content) <= 2_000


def test_response_size_of_request_errors_keeps_extensions_and_unencodable_text() -> None:
    errors = [
        {"message": f"bad \ud800 {n}", "extensions": {"code": "BAD_REQUEST"}} for n in range(9)
    ]
    response = {"errors": errors, "extensions": {"note": "kept"}}
    body = json.loads(bounded_request_errors(response, 300, encode))
    assert body["extensions"] == {"note": "kept"}
    assert body["errors"][0]["message"] == "bad \ud800 0"
    assert body["errors"][-1]["extensions"]["code"] == "LIMIT_EXCEEDED"
