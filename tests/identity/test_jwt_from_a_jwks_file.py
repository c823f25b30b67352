"""A JWT signed by a key of the JWKS file (RS256, ES256 or EdDSA) is an end user: with it, a
mutation is applied; without any credential, it is UNAUTHENTICATED and nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest

from resolvers.identity import NO_CREDENTIALS
from tests.sensors.queries import CREATE
from tests.support import ApiFactory, error_codes
from tests.support.jwks import bearer, claims, jwt_settings, signing_key, write_jwks


@pytest.mark.parametrize("algorithm", ["RS256", "ES256", "EdDSA"])
async def test_a_token_signed_by_a_key_of_the_set_writes(
    make_api: ApiFactory, tmp_path: Path, algorithm: str
) -> None:
    key = signing_key(algorithm)
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", key)))
    async with make_api(settings) as api:
        body = await api.post(CREATE, {"t": "x"}, headers=bearer(key.sign(claims())))
        assert "errors" not in body, body
        assert await api.collection("sensors").count_documents({}) == 1


async def test_without_a_credential_a_mutation_is_unauthenticated(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", signing_key())))
    async with make_api(settings) as api:
        body = await api.post(CREATE, {"t": "x"})
        assert error_codes(body) == ["UNAUTHENTICATED"]
        assert body["errors"][0]["message"] == NO_CREDENTIALS
        assert await api.collection("sensors").count_documents({}) == 0
