"""Request limits: depth, aliases, tokens, body size; each is LIMIT_EXCEEDED."""

from __future__ import annotations

from collections.abc import AsyncIterator

from settings import MAX_REQUEST_BYTES, Settings
from tests.support import Api, ApiFactory, error_codes

# Depth 4: sensors > edges > node > hourly.
DEPTH_4 = "{ sensors { edges { node { hourly { hour } } } } }"


async def test_query_deeper_than_the_depth_limit_is_rejected(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(max_query_depth=3)) as api:
        body = await api.post(DEPTH_4)
    assert error_codes(body) == ["LIMIT_EXCEEDED"]
    assert "depth" in body["errors"][0]["message"]


async def test_query_at_the_depth_limit_is_served(make_api: ApiFactory) -> None:
    async with make_api(Settings(max_query_depth=4)) as api:
        body = await api.post(DEPTH_4)
    assert "errors" not in body


def _nested(depth: int) -> str:
    """A document whose deepest field has `depth` fields above it (root fields are at 0)."""
    selection = "leaf"
    for _ in range(depth):
        selection = f"field {{ {selection} }}"
    return f"{{ {selection} }}"


async def test_default_depth_limit_lets_depth_12_through(make_api: ApiFactory) -> None:
    async with make_api(Settings()) as api:
        body = await api.post(_nested(12))
    # The schema is not 12 deep, so its own rules refuse the fields: the depth limit let it by.
    assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"]
    assert body["errors"][0]["message"] == "Cannot query field 'field' on type 'Query'."


async def test_default_depth_limit_refuses_depth_13_naming_the_limit(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings()) as api:
        body = await api.post(_nested(13))
    assert error_codes(body) == ["LIMIT_EXCEEDED"]
    assert body["errors"][0]["message"] == "'anonymous' exceeds maximum operation depth of 12"


async def test_more_than_30_aliases_are_rejected(api: Api) -> None:
    fields = " ".join(f"a{i}: __typename" for i in range(31))
    body = await api.post(f"{{ {fields} }}")
    assert error_codes(body) == ["LIMIT_EXCEEDED"]


async def test_30_aliases_are_served(api: Api) -> None:
    fields = " ".join(f"a{i}: __typename" for i in range(30))
    body = await api.post(f"{{ {fields} }}")
    assert "errors" not in body


async def test_more_than_5000_tokens_are_rejected(api: Api) -> None:
    body = await api.post("{ " + "__typename " * 5001 + "}")
    assert error_codes(body) == ["LIMIT_EXCEEDED"]


async def test_body_over_1_mib_is_rejected_before_parsing(api: Api) -> None:
    padding = " " * (MAX_REQUEST_BYTES + 1)
    response = await api.client.post(
        "/graphql",
        content=f'{{"query": "{{ __typename }}{padding}"}}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 413
    assert error_codes(response.json()) == ["LIMIT_EXCEEDED"]


async def test_body_over_1_mib_without_content_length_is_rejected(api: Api) -> None:
    async def chunks() -> AsyncIterator[bytes]:
        for _ in range(20):
            yield b" " * (64 * 1024)

    response = await api.client.post(
        "/graphql", content=chunks(), headers={"content-type": "application/json"}
    )
    assert response.status_code == 413


async def test_operation_batching_is_off(api: Api) -> None:
    response = await api.client.post(
        "/graphql", json=[{"query": "{ __typename }"}, {"query": "{ __typename }"}]
    )
    assert response.status_code == 400
