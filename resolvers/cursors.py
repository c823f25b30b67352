"""Opaque cursors: base64 of a small JSON list, tagged with the list they belong to."""

from __future__ import annotations

import base64
import binascii
import json
from typing import Any

from resolvers.errors import BadUserInput


def encode_cursor(kind: str, *values: Any) -> str:
    raw = json.dumps([kind, *values], separators=(",", ":"), default=str)
    return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")


def decode_cursor(cursor: str, *, kind: str, size: int, argument: str) -> list[Any]:
    """The values of a cursor made by `encode_cursor(kind, ...)`; anything else is bad input."""
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        decoded = json.loads(base64.urlsafe_b64decode(padded.encode()))
    except (binascii.Error, ValueError, UnicodeDecodeError):
        decoded = None
    if not isinstance(decoded, list) or len(decoded) != size + 1 or decoded[0] != kind:
        raise BadUserInput(f"{argument}: not a cursor of this list", argument=argument)
    return decoded[1:]
