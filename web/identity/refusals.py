"""Why a credential was not accepted: the reasons a client reads in `extensions.reason` and
the request log records. Each says what to fix, never anything of the credential itself."""

from __future__ import annotations

from resolvers.errors import Unauthenticated
from resolvers.identity import NOT_ACCEPTED

EXPIRED = "expired"
NOT_YET_VALID = "not yet valid"
WRONG_AUDIENCE = "wrong audience"
WRONG_ISSUER = "wrong issuer"
BAD_SIGNATURE = "bad signature"
UNKNOWN_KEY = "unknown key"
ALGORITHM_NOT_ALLOWED = "algorithm not allowed"
MALFORMED = "malformed"
TOO_LARGE = "too large"
# An opaque token that is no service token, while JWTs are not verified.
UNKNOWN_TOKEN = "not accepted"

REASONS = (
    EXPIRED, NOT_YET_VALID, WRONG_AUDIENCE, WRONG_ISSUER, BAD_SIGNATURE, UNKNOWN_KEY,
    ALGORITHM_NOT_ALLOWED, MALFORMED, TOO_LARGE, UNKNOWN_TOKEN,
)  # fmt: skip


def refused(reason: str) -> Unauthenticated:
    return Unauthenticated(NOT_ACCEPTED, reason=reason)
