"""A JWKS that cannot be fetched never stops the server: down at start-up, the server starts,
/readyz says it is not ready and why, the metrics count the failure, and it becomes ready once
a fetch succeeds; down later, the keys held keep verifying."""

from __future__ import annotations

from datetime import timedelta

from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.jwks import JwksServer, bearer, jwt_settings, signing_key, writer

KEY = signing_key(kid="k1")


async def test_down_at_start_up_the_server_starts_unready_then_recovers(
    make_api: ApiFactory,
) -> None:
    with JwksServer(KEY).running() as jwks:
        jwks.up = False
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            ready = await api.client.get("/readyz")
            assert ready.status_code == 503
            assert "JWKS" in ready.json()["reason"]
            assert jwks.url.split("//")[1] not in ready.text  # the log names it, not the answer
            metrics = (await api.client.get("/metrics")).text
            assert 'arraygraph_jwks_fetches_total{outcome="error"} 1.0' in metrics
            assert "arraygraph_jwks_keys 0.0" in metrics
            refused = await api.post(CREATE, {"t": "x"}, headers=bearer(KEY.sign(writer())))
            assert refused["errors"][0]["extensions"]["reason"] == "unknown key"

            jwks.up = True
            api.clock.now += timedelta(seconds=61)
            body = await api.post(CREATE, {"t": "x"}, headers=bearer(KEY.sign(writer())))
            assert "errors" not in body, body
            assert (await api.client.get("/readyz")).status_code == 200
            metrics = (await api.client.get("/metrics")).text
            assert 'arraygraph_jwks_fetches_total{outcome="ok"} 1.0' in metrics


async def test_down_later_the_keys_held_keep_verifying(make_api: ApiFactory) -> None:
    with JwksServer(KEY).running() as jwks:
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            jwks.up = False
            api.clock.now += timedelta(seconds=61)
            stranger = signing_key(kid="k2").sign(writer())
            await api.post(CREATE, {"t": "x"}, headers=bearer(stranger))  # a failed fetch
            assert jwks.fetches == 2
            body = await api.post(CREATE, {"t": "y"}, headers=bearer(KEY.sign(writer())))
            assert "errors" not in body, body
            assert (await api.client.get("/readyz")).status_code == 200
