"""Service tokens carry a role each (`role:token`; a bare token is `admin`), may come from a
file, and are tried before JWTs; until the permission rules come, any of them writes."""

from __future__ import annotations

from pathlib import Path

import pytest

from settings import Settings
from tests.sensors.queries import CREATE
from tests.support import ApiFactory, error_codes
from tests.support.jwks import bearer, jwt_settings, signing_key, write_jwks

ENTRIES = ("ingest:ingest-token", "reader:reader-token", "bare-token")


@pytest.mark.parametrize("token", ["ingest-token", "reader-token", "bare-token"])
async def test_every_listed_token_writes(make_api: ApiFactory, token: str) -> None:
    async with make_api(Settings(api_tokens=ENTRIES)) as api:
        body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
        assert "errors" not in body, body
        assert await api.collection("sensors").count_documents({}) == 1


@pytest.mark.parametrize(
    ("token", "reason"),
    [("ingest", "not accepted"), ("ingest-toke", "not accepted"),
     ("ingest:ingest-token", "malformed")],  # a role is the setting's, never the header's
)  # fmt: skip
async def test_a_token_not_listed_is_not_accepted(
    make_api: ApiFactory, token: str, reason: str
) -> None:
    async with make_api(Settings(api_tokens=ENTRIES)) as api:
        body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
        assert error_codes(body) == ["UNAUTHENTICATED"]
        assert body["errors"][0]["extensions"]["reason"] == reason
        assert await api.collection("sensors").count_documents({}) == 0


async def test_tokens_come_from_a_file(make_api: ApiFactory, tmp_path: Path) -> None:
    secrets = tmp_path / "tokens"
    secrets.write_text("ingest:from-a-file\nadmin:another\n")
    settings = Settings.from_env({"ARRAYGRAPH_API_TOKENS_FILE": str(secrets)})
    assert settings.api_tokens == ("ingest:from-a-file", "admin:another")
    async with make_api(settings) as api:
        body = await api.post(CREATE, {"t": "x"}, headers=bearer("from-a-file"))
        assert "errors" not in body, body


async def test_a_service_token_is_accepted_beside_jwts(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    jwks = write_jwks(tmp_path / "jwks.json", signing_key())
    settings = jwt_settings(jwks_file=str(jwks))
    settings = Settings(api_tokens=("ingest:svc-token",), identity=settings.identity)
    async with make_api(settings) as api:
        body = await api.post(CREATE, {"t": "x"}, headers=bearer("svc-token"))
        assert "errors" not in body, body
        refused = await api.post(CREATE, {"t": "y"}, headers=bearer("svc-tokem"))
        assert refused["errors"][0]["extensions"]["reason"] == "malformed"  # not a JWT either
