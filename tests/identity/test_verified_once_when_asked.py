"""The identity is worked out once per request, and only when a field asks for it: a request
without an `Authorization` header never reaches the verifier, and a request of two mutations
verifies its token once."""

from __future__ import annotations

from typing import Any

import pytest

from resolvers.identity import Identity
from settings import Settings
from tests.support import ApiFactory
from tests.support.jwks import bearer
from web.identity.authenticator import Authenticator

TWO = """mutation {
  a: createSensor(title: "a") { id }
  b: createSensor(title: "b") { id }
}"""


@pytest.fixture
def identified(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every header the verifier was asked about during the test."""
    calls: list[str] = []
    real = Authenticator.identify

    async def counting(self: Authenticator, authorization: str) -> Identity:
        calls.append(authorization)
        return await real(self, authorization)

    monkeypatch.setattr(Authenticator, "identify", counting)
    return calls


async def test_without_a_header_the_verifier_is_never_asked(
    make_api: ApiFactory, identified: list[str]
) -> None:
    async with make_api(Settings(api_tokens=("ingest:svc",))) as api:
        await api.post("{ sensors { totalCount } }")
        body: dict[str, Any] = await api.post(TWO)
        assert {e["extensions"]["code"] for e in body["errors"]} == {"UNAUTHENTICATED"}
    assert identified == []


async def test_two_mutations_verify_the_token_once(
    make_api: ApiFactory, identified: list[str]
) -> None:
    async with make_api(Settings(api_tokens=("ingest:svc",))) as api:
        body = await api.post(TWO, headers=bearer("svc"))
        assert "errors" not in body, body
    assert identified == ["Bearer svc"]
