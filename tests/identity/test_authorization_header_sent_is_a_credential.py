"""An `Authorization` header sent is a credential to check, whatever it holds: empty, it is
malformed, not the absence of one; sent twice, it is malformed, even when each alone would be
accepted, and neither is chosen. Nothing is written either way."""

from __future__ import annotations

import pytest

from settings import Settings
from settings.identity import IdentitySettings
from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.jwks import bearer

TOKENS = ("admin:admin-token", "reader:reader-token")


@pytest.mark.parametrize("authorization", ["", " "])
async def test_an_empty_header_is_malformed_not_anonymous(
    make_api: ApiFactory, authorization: str
) -> None:
    # Anonymous callers may read here: an empty header must not pass as one of them.
    settings = Settings(api_tokens=TOKENS, identity=IdentitySettings(anonymous_role="reader"))
    async with make_api(settings) as api:
        body = await api.post(
            "{ sensors { totalCount } }", headers={"authorization": authorization}
        )
        assert body.get("data") is None
        assert [e["extensions"]["reason"] for e in body["errors"]] == ["malformed"]


async def test_two_headers_are_malformed_though_each_alone_is_accepted(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(api_tokens=TOKENS)) as api:
        for token in ("admin-token", "reader-token"):
            alone = await api.post("{ sensors { totalCount } }", headers=bearer(token))
            assert alone == {"data": {"sensors": {"totalCount": 0}}}
        headers = [
            ("accept", "application/graphql-response+json"),
            ("authorization", "Bearer admin-token"),
            ("authorization", "Bearer reader-token"),
        ]
        response = await api.client.post(
            "/graphql", json={"query": CREATE, "variables": {"t": "x"}}, headers=headers
        )
        body = response.json()
        assert response.status_code == 401
        assert [e["extensions"]["reason"] for e in body["errors"]] == ["malformed"]
        assert await api.collection("sensors").count_documents({}) == 0
