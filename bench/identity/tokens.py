"""An identity provider for the bench: one RS256 key, its JWKS in a file, and distinct tokens
signed with it, as many as asked for."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

ISSUER = "https://id.example.test/bench"
AUDIENCE = "arraygraph-bench"
KID = "bench-rs256"
ALGORITHM = "RS256"
LIFETIME_SECONDS = 3_600  # longer than any run


@dataclass(frozen=True)
class Provider:
    private: rsa.RSAPrivateKey = field(repr=False)

    def write_jwks(self, path: Path) -> Path:
        public = RSAAlgorithm.to_jwk(self.private.public_key(), as_dict=True)
        keys = [{**public, "kid": KID, "use": "sig", "alg": ALGORITHM}]
        path.write_text(json.dumps({"keys": keys}), encoding="utf-8")
        return path

    def tokens(self, count: int, *, first: int = 0) -> list[str]:
        """`count` tokens of distinct users (`roles: [reader]`), valid for the run."""
        now = int(time.time())
        base = {"iss": ISSUER, "aud": AUDIENCE, "iat": now, "exp": now + LIFETIME_SECONDS}
        return [
            jwt.encode(
                {**base, "sub": f"bench-user-{n}", "roles": ["reader"]},
                self.private,
                ALGORITHM,
                headers={"kid": KID},
            )
            for n in range(first, first + count)
        ]


def provider() -> Provider:
    return Provider(rsa.generate_private_key(public_exponent=65537, key_size=2048))


def environment(jwks: Path) -> Mapping[str, str]:
    """What an operator would set for this provider; callers without a token read as
    `reader`, as the tokens' users do, so both sides of a ratio answer the same."""
    return {
        "ARRAYGRAPH_JWKS_FILE": str(jwks),
        "ARRAYGRAPH_JWT_ISSUER": ISSUER,
        "ARRAYGRAPH_JWT_AUDIENCE": AUDIENCE,
        "ARRAYGRAPH_JWT_ALGORITHMS": ALGORITHM,
        "ARRAYGRAPH_JWT_ROLES_CLAIM": "roles",
        "ARRAYGRAPH_ANONYMOUS_ROLE": "reader",
    }
