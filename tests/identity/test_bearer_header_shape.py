"""Only `Authorization: Bearer <token>` is read: any other shape is malformed, and a token over
the size bound is refused before anything parses it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jwt
import pytest

from settings.identity import MAX_BEARER_TOKEN_BYTES
from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.jwks import jwt_settings, signing_key, write_jwks
from web.identity import jose_header


@pytest.mark.parametrize(
    "authorization",
    ["Bearer", "Bearer a b", "Token abc", "Bearer a,b", "Bearer <script>", "bearer\tabc"],
)
async def test_another_shape_is_malformed(
    make_api: ApiFactory, tmp_path: Path, authorization: str
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", signing_key())))
    async with make_api(settings) as api:
        body = await api.post(CREATE, {"t": "x"}, headers={"authorization": authorization})
        assert body["errors"][0]["extensions"]["reason"] == "malformed"


async def test_a_token_over_the_bound_is_refused_unparsed(
    make_api: ApiFactory, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    parsed: list[Any] = []
    monkeypatch.setattr(jose_header, "unverified_header", lambda token: parsed.append(token))
    monkeypatch.setattr(jwt.PyJWT, "decode", lambda *args, **kwargs: parsed.append(args))
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", signing_key())))
    huge = "e30." * (MAX_BEARER_TOKEN_BYTES // 4) + "x"
    async with make_api(settings) as api:
        body = await api.post(CREATE, {"t": "x"}, headers={"authorization": f"Bearer {huge}"})
        assert body["errors"][0]["extensions"]["reason"] == "too large"
    assert parsed == []
