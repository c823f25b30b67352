"""Signing keys made in the test (RS256, ES256, EdDSA), their JWKS as a file or served by a
second local HTTP server, and tokens signed with them, as an identity provider would."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from jwt.algorithms import ECAlgorithm, OKPAlgorithm, RSAAlgorithm

from settings import Settings
from settings.identity import IdentitySettings

ISSUER = "https://id.example.test/realms/arraygraph"
AUDIENCE = "arraygraph-api"
Private = rsa.RSAPrivateKey | ec.EllipticCurvePrivateKey | ed25519.Ed25519PrivateKey


@dataclass(frozen=True)
class SigningKey:
    kid: str
    algorithm: str
    private: Private = field(repr=False)

    @property
    def jwk(self) -> dict[str, Any]:
        """The public half, as a JWKS lists it."""
        private = self.private
        if isinstance(private, rsa.RSAPrivateKey):
            found = RSAAlgorithm.to_jwk(private.public_key(), as_dict=True)
        elif isinstance(private, ec.EllipticCurvePrivateKey):
            found = ECAlgorithm.to_jwk(private.public_key(), as_dict=True)
        else:
            found = OKPAlgorithm.to_jwk(private.public_key(), as_dict=True)
        return {**found, "kid": self.kid, "use": "sig", "alg": self.algorithm}

    def sign(self, claims: dict[str, Any], **header: Any) -> str:
        return jwt.encode(claims, self.private, self.algorithm, headers={"kid": self.kid, **header})


def signing_key(algorithm: str = "ES256", kid: str | None = None) -> SigningKey:
    """A new key: ES256 by default, the quickest to make."""
    private: Private
    if algorithm == "RS256":
        private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    elif algorithm == "ES256":
        private = ec.generate_private_key(ec.SECP256R1())
    else:
        private = ed25519.Ed25519PrivateKey.generate()
    return SigningKey(kid or f"{algorithm.lower()}-key", algorithm, private)


def key_set(*keys: SigningKey) -> dict[str, Any]:
    return {"keys": [key.jwk for key in keys]}


def claims(user: str = "u1", *, lifetime: int = 600, **more: Any) -> dict[str, Any]:
    """A user's claims, valid now for `lifetime` seconds; `more` adds or replaces any."""
    now = int(time.time())
    found: dict[str, Any] = {"iss": ISSUER, "aud": AUDIENCE, "sub": user, "iat": now}
    return {**found, "exp": now + lifetime, **more}


def write_jwks(path: Path, *keys: SigningKey) -> Path:
    path.write_text(json.dumps(key_set(*keys)), encoding="utf-8")
    return path


def jwt_settings(**identity: Any) -> Settings:
    """Settings verifying JWTs of ISSUER for AUDIENCE; `identity` sets the key source and more."""
    return Settings(
        identity=IdentitySettings(jwt_issuer=ISSUER, jwt_audience=(AUDIENCE,), **identity)
    )


def bearer(token: str) -> dict[str, str]:
    return {"authorization": f"Bearer {token}"}


class JwksServer:
    """A JWKS on a local HTTP server in a thread: its keys can change, it can go down (503),
    and it counts the fetches it answered."""

    def __init__(self, *keys: SigningKey) -> None:
        self.document = key_set(*keys) if keys else {"keys": []}
        self.up = True
        self.fetches = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                server.fetches += 1
                body = json.dumps(server.document).encode()
                self.send_response(200 if server.up else 503)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._http.server_address[1]}/jwks.json"

    def serve(self, *keys: SigningKey) -> None:
        self.document = key_set(*keys)

    @contextmanager
    def running(self) -> Iterator[JwksServer]:
        thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        thread.start()
        try:
            yield self
        finally:
            self._http.shutdown()
            self._http.server_close()
            thread.join()
