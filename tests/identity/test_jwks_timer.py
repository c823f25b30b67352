"""The JWKS is fetched again on a timer, with no token asking: a key removed at the provider
stops verifying after the set's life, and a set that could not be loaded at start-up is tried
again until it is (so /readyz recovers although no traffic reaches an unready server)."""

from __future__ import annotations

import asyncio

import pytest

from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.jwks import JwksServer, bearer, claims, jwt_settings, signing_key
from web.identity import key_set

OLD = signing_key(kid="old")
NEW = signing_key(kid="new")
PATIENCE = 2000  # event-loop turns of 5 ms at most: far more than a fetch needs


@pytest.fixture(autouse=True)
def short_timers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(key_set, "JWKS_LIFE_SECONDS", 0.01)
    monkeypatch.setattr(key_set, "JWKS_RETRY_SECONDS", 0.01)


async def test_a_removed_key_is_refused_after_the_sets_life(make_api: ApiFactory) -> None:
    with JwksServer(OLD, NEW).running() as jwks:
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            token = OLD.sign(claims())
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(token))
            jwks.serve(NEW)
            reasons = []
            for _ in range(PATIENCE):
                await asyncio.sleep(0.005)
                body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
                reasons = [e["extensions"].get("reason") for e in body.get("errors", [])]
                if reasons:
                    break
            assert reasons == ["unknown key"]


async def test_a_set_not_loaded_at_start_up_is_tried_again_until_it_is(
    make_api: ApiFactory,
) -> None:
    with JwksServer(OLD).running() as jwks:
        jwks.up = False
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            assert (await api.client.get("/readyz")).status_code == 503
            jwks.up = True
            status = 503
            for _ in range(PATIENCE):
                await asyncio.sleep(0.005)
                status = (await api.client.get("/readyz")).status_code
                if status == 200:
                    break
            assert status == 200
