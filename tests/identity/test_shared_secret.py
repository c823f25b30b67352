"""A shared secret verifies HS256 tokens, and only those: a token signed with another secret
has a bad signature, and with a JWKS beside it an HMAC token is never checked against a
public key."""

from __future__ import annotations

from pathlib import Path

import jwt

from tests.sensors.queries import CREATE
from tests.support import ApiFactory, error_codes
from tests.support.jwks import bearer, claims, jwt_settings, signing_key, write_jwks

SECRET = "a-shared-secret-of-at-least-32-bytes!"


async def test_a_token_signed_with_the_secret_writes(make_api: ApiFactory) -> None:
    async with make_api(jwt_settings(jwt_secret=SECRET)) as api:
        token = jwt.encode(claims(), SECRET, algorithm="HS256")
        body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
        assert "errors" not in body, body


async def test_a_token_signed_with_another_secret_has_a_bad_signature(
    make_api: ApiFactory,
) -> None:
    async with make_api(jwt_settings(jwt_secret=SECRET)) as api:
        token = jwt.encode(claims(), "another-secret-also-32-bytes-long!!", algorithm="HS256")
        body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
        assert error_codes(body) == ["UNAUTHENTICATED"]
        assert body["errors"][0]["extensions"]["reason"] == "bad signature"


async def test_an_hmac_token_is_refused_where_only_public_keys_verify(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    jwks = write_jwks(tmp_path / "jwks.json", signing_key())
    async with make_api(jwt_settings(jwks_file=str(jwks))) as api:
        token = jwt.encode(claims(), SECRET, algorithm="HS256", headers={"kid": "es256-key"})
        body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
        assert body["errors"][0]["extensions"]["reason"] == "algorithm not allowed"
        assert await api.collection("sensors").count_documents({}) == 0
