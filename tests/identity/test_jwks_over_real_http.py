"""Over real HTTP: the app on uvicorn (a free port, its lifespan run by the server), its JWKS
on a second local server. A token of the served key writes; a key rotated in at the provider
is accepted without a restart."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta

import pytest

from settings import Settings
from tests.sensors.queries import CREATE
from tests.support import Api
from tests.support.jwks import JwksServer, bearer, claims, jwt_settings, signing_key

FIRST = signing_key("RS256", kid="first")
SECOND = signing_key("EdDSA", kid="second")


@pytest.fixture
def jwks() -> Iterator[JwksServer]:
    with JwksServer(FIRST).running() as server:
        yield server


@pytest.fixture
def settings(jwks: JwksServer) -> Settings:
    return jwt_settings(jwks_url=jwks.url)


async def test_rotation_over_real_http(live_api: Api, jwks: JwksServer) -> None:
    assert (await live_api.client.get("/readyz")).status_code == 200
    body = await live_api.post(CREATE, {"t": "first"}, headers=bearer(FIRST.sign(claims())))
    assert "errors" not in body, body
    jwks.serve(SECOND)
    live_api.clock.now += timedelta(seconds=61)
    body = await live_api.post(CREATE, {"t": "second"}, headers=bearer(SECOND.sign(claims())))
    assert "errors" not in body, body
    assert await live_api.collection("sensors").count_documents({}) == 2
    refused = await live_api.post(CREATE, {"t": "x"}, headers=bearer(FIRST.sign(claims())))
    assert refused["errors"][0]["extensions"]["reason"] == "unknown key"  # gone with the set
