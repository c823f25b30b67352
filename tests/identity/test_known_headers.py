"""The header of a token that verified is remembered, so the next token with the same header
is not parsed twice to choose its key; PyJWT still reads and checks every token whole, a token
that was refused adds nothing, and the memory is bounded."""

from __future__ import annotations

import base64
import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.sensors.queries import CREATE
from tests.support import ApiFactory
from tests.support.jwks import bearer, jwt_settings, signing_key, write_jwks, writer
from web.identity import jose_header
from web.identity.jose_header import KnownHeaders

KEY = signing_key(kid="k")
IMPOSTOR = signing_key(kid="k")  # the same header, another key


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every token whose header was parsed during the test."""
    calls: list[str] = []
    real = jose_header.unverified_header

    def counting(token: str) -> dict[str, Any]:
        calls.append(token)
        return real(token)

    monkeypatch.setattr(jose_header, "unverified_header", counting)
    return calls


def reason(body: dict[str, Any]) -> str | None:
    errors = body.get("errors") or [{}]
    found: str | None = errors[0].get("extensions", {}).get("reason")
    return found


def with_payload(token: str, payload: str) -> str:
    header, _, signature = token.split(".")
    return f"{header}.{payload}.{signature}"


async def test_a_known_header_is_not_parsed_again_and_every_token_is_decoded(
    make_api: ApiFactory, tmp_path: Path, parsed: list[str], decoded: list[str]
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    first, second = KEY.sign(writer("u1")), KEY.sign(writer("u2"))
    assert first.split(".")[0] == second.split(".")[0]
    async with make_api(settings) as api:
        for token in (first, second):
            body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
            assert "errors" not in body, body
    assert parsed == [first]
    assert decoded == [first, second]


async def test_a_known_header_still_has_every_check(
    make_api: ApiFactory, tmp_path: Path, parsed: list[str]
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    genuine = KEY.sign(writer())
    junk = base64.urlsafe_b64encode(json.dumps([1]).encode()).decode().rstrip("=")
    refused = [
        ("bad signature", IMPOSTOR.sign(writer())),
        ("bad signature", with_payload(genuine, junk)),
        ("expired", KEY.sign(writer(exp=int(time.time()) - 120))),
        ("malformed", with_payload(genuine, "e")),  # no base64 of any bytes
        ("malformed", f"{genuine}==="),
    ]
    async with make_api(settings) as api:
        assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(genuine))
        for expected, token in refused:
            body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
            assert reason(body) == expected, body
            assert body["data"] is None
    assert parsed == [genuine]


async def test_a_refused_token_leaves_its_header_unknown(
    make_api: ApiFactory, tmp_path: Path, parsed: list[str]
) -> None:
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    forged, genuine, again = IMPOSTOR.sign(writer()), KEY.sign(writer()), KEY.sign(writer("u2"))
    async with make_api(settings) as api:
        for _ in range(2):
            body = await api.post(CREATE, {"t": "x"}, headers=bearer(forged))
            assert reason(body) == "bad signature"
        for token in (genuine, again):
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(token))
    assert parsed == [forged, forged, genuine]


def test_the_memory_is_bounded() -> None:
    headers = KnownHeaders(limit=2)
    tokens = [signing_key(kid=f"k{n}").sign(writer()) for n in range(3)]
    for token in tokens:
        headers.remember(token, headers.key_choice(token))
        assert len(headers) <= 2
    assert headers.key_choice(tokens[2]) == ("ES256", "k2")
    assert len(headers) == 1  # the third started the memory again
