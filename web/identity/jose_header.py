"""A compact JWS's protected header, read before PyJWT verifies the token: only to choose the
key (`alg`, `kid`); PyJWT checks every segment, the header included, when it decodes.

PyJWT's own `get_unverified_header` decodes and checks all three segments, which `decode`
then does again; the header alone is a few dozen bytes."""

from __future__ import annotations

import base64
import binascii
import json
import re
from typing import Any

from web.identity.refusals import MALFORMED, refused

# Three base64url segments (the header not empty), each with at most PyJWT's two `=` of
# padding: anything else is no compact JWS, and PyJWT would refuse it as malformed too.
COMPACT_JWS = re.compile(r"[A-Za-z0-9_-]+={0,2}\.[A-Za-z0-9_-]*={0,2}\.[A-Za-z0-9_-]*={0,2}")


def unverified_header(token: str) -> dict[str, Any]:
    """The header's parameters, or a MALFORMED refusal: not a compact JWS, or its header not
    a JSON object."""
    if not COMPACT_JWS.fullmatch(token):
        raise refused(MALFORMED)
    segment = token[: token.index(".")].rstrip("=")
    try:
        header = json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))
    except (binascii.Error, ValueError, RecursionError):
        raise refused(MALFORMED) from None
    if not isinstance(header, dict):
        raise refused(MALFORMED)
    return header
