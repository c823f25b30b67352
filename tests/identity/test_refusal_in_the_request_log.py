"""The request log line of a refused credential says why (`credential_refused`), and holds
nothing of the token: not in its fields, not in its message."""

from __future__ import annotations

from pathlib import Path

from tests.observability.observed import LogLines
from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.jwks import bearer, claims, jwt_settings, signing_key, write_jwks

KEY = signing_key(kid="k")


async def test_the_log_line_names_the_reason_and_never_the_token(
    make_api: ApiFactory, tmp_path: Path, request_log: LogLines
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    token = KEY.sign(claims(aud="another-api"))
    async with make_api(settings) as api:
        await api.post(CREATE, {"t": "x"}, headers=bearer(token))
        await api.post(CREATE, {"t": "x"}, headers=bearer(KEY.sign(claims())))
    refused, accepted = request_log.lines()
    assert refused["credential_refused"] == "wrong audience"
    assert refused["error_codes"] == ["UNAUTHENTICATED"]
    assert 'credential_refused="wrong audience"' in refused["message"]
    assert accepted["credential_refused"] is None
    signature = token.rpartition(".")[2]
    assert signature not in request_log.stream.getvalue()
