"""With ARRAYGRAPH_API_TOKENS set, calls need a bearer token (reads too: issue 35's anonymous
rule, tests/permissions/ for the whole matrix); with nothing configured, none does."""

from __future__ import annotations

import pytest

from schema.mutation import NO_CREDENTIALS, NOT_ACCEPTED
from settings import Settings
from tests.sensors.queries import CREATE
from tests.support import ApiFactory, error_codes

TOKENS = Settings(api_tokens=("s3cret", "other-token"))
BEARER = {"authorization": "Bearer s3cret"}
READ_BACK = "query($id: ID!) { node(id: $id) { id ... on Sensor { title } } }"


@pytest.mark.parametrize(
    "headers",
    [
        {},
        {"authorization": "Bearer wrong"},
        {"authorization": "Basic s3cret"},
        {"authorization": "Bearer "},
    ],
)
async def test_mutation_without_a_valid_token_is_unauthenticated_and_writes_nothing(
    make_api: ApiFactory, headers: dict[str, str]
) -> None:
    async with make_api(TOKENS) as api:
        body = await api.post(CREATE, {"t": "x"}, headers=headers)
        assert error_codes(body) == ["UNAUTHENTICATED"]
        assert await api.collection("sensors").count_documents({}) == 0


async def test_no_credentials_are_told_to_send_a_bearer_token(make_api: ApiFactory) -> None:
    async with make_api(TOKENS) as api:
        body = await api.post(CREATE, {"t": "x"})
        assert error_codes(body) == ["UNAUTHENTICATED"]
        assert body["errors"][0]["message"] == NO_CREDENTIALS


@pytest.mark.parametrize(
    "authorization", ["Bearer wrong", "Bearer s3cre", "Basic s3cret", "Bearer ", "s3cret"]
)
async def test_credentials_not_accepted_are_told_so_and_nothing_more(
    make_api: ApiFactory, authorization: str
) -> None:
    async with make_api(TOKENS) as api:
        body = await api.post(CREATE, {"t": "x"}, headers={"authorization": authorization})
        assert error_codes(body) == ["UNAUTHENTICATED"]
        # The same words whatever was sent: close to a valid token, another scheme, none.
        assert body["errors"][0]["message"] == NOT_ACCEPTED


@pytest.mark.parametrize("token", ["s3cret", "other-token"])
async def test_mutation_with_a_listed_token_is_applied(make_api: ApiFactory, token: str) -> None:
    async with make_api(TOKENS) as api:
        body = await api.post(CREATE, {"t": "x"}, headers={"authorization": f"Bearer {token}"})
        assert "errors" not in body
        assert await api.collection("sensors").count_documents({}) == 1


async def test_queries_need_a_token_once_tokens_are_configured(make_api: ApiFactory) -> None:
    async with make_api(TOKENS) as api:
        body = await api.post("{ sensors { totalCount } }")
        assert error_codes(body) == ["UNAUTHENTICATED"]
        assert body["data"] is None
        signed = await api.post("{ sensors { totalCount } }", headers=BEARER)
        assert signed == {"data": {"sensors": {"totalCount": 0}}}


async def test_mutations_need_no_token_when_none_is_configured(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings()) as api:
        body = await api.post(CREATE, {"t": "x"})
        assert "errors" not in body
        created = body["data"]["createSensor"]
        read = await api.post(READ_BACK, {"id": created["id"]})
    assert read == {"data": {"node": {"id": created["id"], "title": "x"}}}


async def test_post_message_without_a_token_is_unauthenticated(make_api: ApiFactory) -> None:
    async with make_api(TOKENS) as api:
        bearer = {"authorization": "Bearer s3cret"}
        created = await api.post(
            'mutation { createChatSession(title: "t") { id } }', headers=bearer
        )
        session_id = created["data"]["createChatSession"]["id"]
        before = await api.snapshot()
        post = 'mutation($s: ID!) { postMessage(sessionId: $s, author: "a", text: "x") { seq } }'
        body = await api.post(post, {"s": session_id})
        assert error_codes(body) == ["UNAUTHENTICATED"]
        assert await api.snapshot() == before
