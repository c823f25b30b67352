"""A verified JWT is kept, so its signature is checked once however often it is sent; a token
that failed verification is never kept, so it is checked (and refused) every time."""

from __future__ import annotations

from pathlib import Path

from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.jwks import bearer, jwt_settings, signing_key, write_jwks, writer

KEY = signing_key(kid="k")
IMPOSTOR = signing_key(kid="k")


async def test_a_verified_token_is_verified_once(
    make_api: ApiFactory, tmp_path: Path, decoded: list[str]
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    token = KEY.sign(writer())
    async with make_api(settings) as api:
        for title in "abc":
            body = await api.post(CREATE, {"t": title}, headers=bearer(token))
            assert "errors" not in body, body
        assert decoded == [token]
        metrics = (await api.client.get("/metrics")).text
        assert "arraygraph_verified_tokens 1.0" in metrics


async def test_a_refused_token_is_never_kept(
    make_api: ApiFactory, tmp_path: Path, decoded: list[str]
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    forged = IMPOSTOR.sign(writer())
    async with make_api(settings) as api:
        for _ in range(3):
            body = await api.post(CREATE, {"t": "x"}, headers=bearer(forged))
            assert body["errors"][0]["extensions"]["reason"] == "bad signature"
        assert decoded == [forged] * 3
        metrics = (await api.client.get("/metrics")).text
        assert "arraygraph_verified_tokens 0.0" in metrics
        assert 'arraygraph_credentials_refused_total{reason="bad signature"} 3.0' in metrics
