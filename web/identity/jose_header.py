"""A compact JWS's protected header, read before PyJWT verifies the token: only to choose the
key (`alg`, `kid`); PyJWT checks every segment, the header included, when it decodes.

PyJWT's own `get_unverified_header` decodes and checks all three segments, which `decode`
then does again; the header alone is a few dozen bytes. An identity provider signs every
token with one of a few headers, so the headers of tokens that verified are remembered
(`KnownHeaders`): the next token with the same header segment is not parsed twice."""

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
# Header segments remembered; past this count the memory starts again (a key rotated in
# brings a new `kid`, hence a new header).
KNOWN_HEADERS = 32


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


KeyChoice = tuple[object, object]  # the header's `alg` and `kid`, as sent (None when absent)


def header_segment(token: str) -> str:
    """The token's first segment, as sent ('' when it has no `.`)."""
    end = token.find(".")
    return token[:end] if end > 0 else ""


class KnownHeaders:
    """The `alg` and `kid` of header segments whose tokens verified. Only a token signed by
    a key of the set (or the shared secret) adds one, so a caller cannot fill it; what it
    saves is the header's parsing alone: PyJWT still reads and checks the whole token."""

    def __init__(self, limit: int = KNOWN_HEADERS) -> None:
        self.limit = limit
        self._choices: dict[str, KeyChoice] = {}

    def __len__(self) -> int:
        return len(self._choices)

    def key_choice(self, token: str) -> KeyChoice:
        """The token's `alg` and `kid`: remembered, or read from its header (MALFORMED when
        that is no JSON object of a compact JWS)."""
        found = self._choices.get(header_segment(token))
        if found is not None:
            return found
        header = unverified_header(token)
        return header.get("alg"), header.get("kid")

    def remember(self, token: str, choice: KeyChoice) -> None:
        """Called once the token verified."""
        segment = header_segment(token)
        if segment in self._choices:
            return
        if len(self._choices) >= self.limit:
            self._choices.clear()
        self._choices[segment] = choice
