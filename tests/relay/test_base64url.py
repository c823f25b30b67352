"""Cursors and global ids are unpadded base64url (resolvers/base64url.py)."""

from __future__ import annotations

import base64
import random

import pytest

from resolvers.base64url import unpadded_base64url


@pytest.mark.parametrize("size", range(0, 40))
def test_unpadded_base64url_is_the_standard_encoding_without_padding(size: int) -> None:
    raw = random.Random(size).randbytes(size)
    assert unpadded_base64url(raw) == base64.urlsafe_b64encode(raw).rstrip(b"=").decode()
