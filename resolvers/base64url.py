"""Unpadded base64url, the text of every cursor and global id."""

from __future__ import annotations

import binascii

_URL_SAFE = bytes.maketrans(b"+/", b"-_")


def unpadded_base64url(raw: bytes) -> str:
    """`base64.urlsafe_b64encode(raw)` without its padding, and without its two wrappers: a
    page encodes a cursor and an id per edge."""
    return binascii.b2a_base64(raw, newline=False).translate(_URL_SAFE).rstrip(b"=").decode("ascii")
