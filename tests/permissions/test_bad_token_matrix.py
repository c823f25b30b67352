"""Every root query and mutation field, called with each kind of bad bearer token (expired,
not yet valid, wrong audience, wrong issuer, `alg: none`, HS256 keyed with the RS256 public
key, an unknown `kid`, a tampered signature, an oversized token), is UNAUTHENTICATED with the
reason a client can act on, writes nothing, and shows no datum of the seeded records anywhere
in the answer. Every token claims the `admin` role: accepted, it would read everything."""

from __future__ import annotations

import base64
import dataclasses
import hashlib
import hmac
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jwt
import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from resolvers.identity import NOT_ACCEPTED
from schema.permissions import root_types
from settings import Settings
from settings.identity import MAX_BEARER_TOKEN_BYTES
from tests.permissions.callers import KEY as USER_KEY
from tests.permissions.callers import MARKERS, TOKENS, seed
from tests.permissions.calls import MUTATIONS, QUERIES
from tests.permissions.expected import built
from tests.support import ApiFactory, error_codes
from tests.support.jwks import claims, jwt_settings, signing_key, write_jwks

KEY = signing_key("RS256", kid="bad-tokens")  # in the app's JWKS, beside the matrix's key
STRANGER = signing_key("RS256", kid="not-in-the-jwks")


def _admin(**more: Any) -> dict[str, Any]:
    """Claims that would read and write everything, were the token accepted."""
    return claims("A", lifetime=3600, roles=["admin"], **more)


def _signed(**more: Any) -> str:
    return f"Bearer {KEY.sign(_admin(**more))}"


def _unsigned() -> str:
    return "Bearer " + jwt.encode(_admin(), "", algorithm="none", headers={"kid": KEY.kid})


def _hmac_with_the_public_key() -> str:
    """HS256 keyed with KEY's public PEM, which anyone may hold, claiming `admin`."""
    pem = KEY.private.public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT", "kid": KEY.kid}).encode())
    body = _b64(json.dumps(_admin()).encode())
    signature = hmac.new(pem, f"{head}.{body}".encode(), hashlib.sha256).digest()
    return f"Bearer {head}.{body}.{_b64(signature)}"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _tampered() -> str:
    """A token signed by KEY whose signature has one character changed."""
    head, body, signature = KEY.sign(_admin()).split(".")
    middle = len(signature) // 2
    changed = "B" if signature[middle] == "A" else "A"
    return f"Bearer {head}.{body}.{signature[:middle]}{changed}{signature[middle + 1 :]}"


def _oversized() -> str:
    """Well formed and well signed, one claim making it longer than a token may be."""
    return _signed(padding="x" * MAX_BEARER_TOKEN_BYTES)


# Each case: the reason answered, and the Authorization header sent (made when the case runs,
# so the times in it are current).
CASES: dict[str, tuple[str, Callable[[], str]]] = {
    "expired": ("expired", lambda: _signed(exp=int(time.time()) - 600)),
    "not yet valid": ("not yet valid", lambda: _signed(nbf=int(time.time()) + 600)),
    "wrong audience": ("wrong audience", lambda: _signed(aud="another-api")),
    "wrong issuer": ("wrong issuer", lambda: _signed(iss="https://evil.test")),
    "alg none": ("algorithm not allowed", _unsigned),
    "HS256 with the RS256 public key": ("algorithm not allowed", _hmac_with_the_public_key),
    "unknown kid": ("unknown key", lambda: f"Bearer {STRANGER.sign(_admin())}"),
    "tampered signature": ("bad signature", _tampered),
    "oversized": ("too large", _oversized),
}


def _settings(tmp_path: Path) -> Settings:
    """The matrix's callers (service tokens to seed with, its users' key) and KEY."""
    jwks = write_jwks(tmp_path / "jwks.json", USER_KEY, KEY)
    return dataclasses.replace(jwt_settings(jwks_file=str(jwks)), api_tokens=TOKENS)


def _check(body: dict[str, Any], name: str, reason: str, token: str) -> None:
    where = f"{name}: {body}"
    shown = json.dumps(body, ensure_ascii=False)
    assert [marker for marker in MARKERS if marker in shown] == [], where
    assert token[-20:] not in shown, where  # nothing of the credential is echoed
    assert error_codes(body) == ["UNAUTHENTICATED"], where
    error = body["errors"][0]
    assert error["extensions"]["reason"] == reason, where
    assert error["message"] == NOT_ACCEPTED, where
    assert body.get("data") in (None, {name: None}), where  # no count, no page flag, nothing


@pytest.mark.parametrize("case", list(CASES))
async def test_every_root_field_refuses_each_bad_token_and_shows_nothing(
    make_api: ApiFactory, tmp_path: Path, case: str
) -> None:
    reason, authorization = CASES[case]
    headers = {"authorization": authorization()}
    async with make_api(_settings(tmp_path)) as api:
        seeded = await seed(api)
        before = await api.snapshot()
        asked = []
        for root in root_types(built()):
            calls = QUERIES if root.name == "Query" else MUTATIONS
            for name in root.fields:
                call = calls[name]  # a field without a call: the permission matrix names it
                body = await api.post(call.document, call.variables(seeded), headers=headers)
                _check(body, name, reason, headers["authorization"])
                asked.append(name)
        assert await api.snapshot() == before  # no call wrote anything
    assert sorted(asked) == sorted([*QUERIES, *MUTATIONS])


async def test_the_same_token_without_its_flaw_reads_what_the_cases_may_not(
    make_api: ApiFactory, tmp_path: Path
) -> None:
    """The control: each case is refused for its flaw, not for something else it shares."""
    async with make_api(_settings(tmp_path)) as api:
        await seed(api)
        body = await api.post(
            "{ sensors(first: 5) { edges { node { title } } } }",
            headers={"authorization": _signed()},
        )
        assert body == {"data": {"sensors": {"edges": [{"node": {"title": "Mk-sensor"}}]}}}
