"""The token of an `Authorization: Bearer <token>` header (RFC 6750); any other shape is
refused as malformed, and one over the size bound before anything of it is read."""

from __future__ import annotations

from settings.identity import MAX_BEARER_TOKEN_BYTES, TOKEN_PATTERN
from web.identity.refusals import MALFORMED, TOO_LARGE, refused

SCHEME = "bearer"
# "Bearer " and the token: a header longer holds a token over the bound, whatever it is.
LONGEST_HEADER = len(SCHEME) + 1 + MAX_BEARER_TOKEN_BYTES


def bearer_token(authorization: str) -> str:
    if len(authorization) > LONGEST_HEADER:
        raise refused(TOO_LARGE)
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != SCHEME or not TOKEN_PATTERN.fullmatch(token):
        raise refused(MALFORMED)
    return token
