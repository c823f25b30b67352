"""A credential that is not accepted is UNAUTHENTICATED with the reason a client can act on in
`extensions.reason`, the same message whatever was sent, nothing of the token in the answer,
and nothing written."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from pathlib import Path

import jwt
import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from resolvers.identity import NOT_ACCEPTED
from tests.sensors.queries import CREATE
from tests.support import ApiFactory, error_codes
from tests.support.jwks import SigningKey, claims, jwt_settings, signing_key, write_jwks

KEY = signing_key("RS256", kid="current")
IMPOSTOR = signing_key("RS256", kid="current")  # the same kid, another key
STRANGER = signing_key("RS256", kid="elsewhere")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def hmac_with_the_public_key(key: SigningKey) -> str:
    """The classic confusion: HS256 keyed with the public key's PEM, which anyone has."""
    pem = key.private.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": key.kid}).encode())
    body = _b64(json.dumps(claims()).encode())
    signature = hmac.new(pem, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"Bearer {head}.{body}.{_b64(signature)}"


def without(claim: str) -> str:
    return "Bearer " + KEY.sign({k: v for k, v in claims().items() if k != claim})


def unsigned() -> str:
    return "Bearer " + jwt.encode(claims(), "", algorithm="none", headers={"kid": KEY.kid})


CASES: dict[str, tuple[str, Callable[[], str]]] = {
    "expired": ("expired", lambda: f"Bearer {KEY.sign(claims(exp=int(time.time()) - 120))}"),
    "nbf ahead": ("not yet valid", lambda: f"Bearer {KEY.sign(claims(nbf=time.time() + 600))}"),
    "audience": ("wrong audience", lambda: f"Bearer {KEY.sign(claims(aud='another-api'))}"),
    "no audience": ("wrong audience", lambda: without("aud")),
    "issuer": ("wrong issuer", lambda: f"Bearer {KEY.sign(claims(iss='https://evil.test'))}"),
    "signature": ("bad signature", lambda: f"Bearer {IMPOSTOR.sign(claims())}"),
    "kid": ("unknown key", lambda: f"Bearer {STRANGER.sign(claims())}"),
    "alg none": ("algorithm not allowed", unsigned),
    "HS256 public key": ("algorithm not allowed", lambda: hmac_with_the_public_key(KEY)),
    "no issuer": ("wrong issuer", lambda: without("iss")),
    "no exp": ("malformed", lambda: without("exp")),
    "no user": ("malformed", lambda: without("sub")),
    "not a JWT": ("malformed", lambda: "Bearer not-a-jwt"),
    "another scheme": ("malformed", lambda: "Basic dXNlcjpwYXNz"),
    "too large": ("too large", lambda: "Bearer " + "a" * 9000),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_each_refusal_names_its_reason_and_writes_nothing(
    make_api: ApiFactory, tmp_path: Path, case: str
) -> None:
    reason, authorization = CASES[case]
    sent = authorization()
    settings = jwt_settings(jwks_file=str(write_jwks(tmp_path / "jwks.json", KEY)))
    async with make_api(settings) as api:
        response = await api.client.post(
            "/graphql", json={"query": CREATE, "variables": {"t": "x"}},
            headers={"authorization": sent},
        )  # fmt: skip
        body = response.json()
        assert error_codes(body) == ["UNAUTHENTICATED"], body
        error = body["errors"][0]
        assert error["extensions"]["reason"] == reason
        assert error["message"] == NOT_ACCEPTED
        token = sent.partition(" ")[2]
        assert token[-20:] not in response.text
        assert await api.collection("sensors").count_documents({}) == 0
