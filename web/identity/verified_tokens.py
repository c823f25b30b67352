"""JWTs already verified, so a busy client's token is checked once, not on every request.

Keyed by the token's SHA-256 (the token itself is never kept), bounded in count and in bytes,
least recently used out first; an entry is never served at or past its token's `exp`. Only a
token that passed verification is put here: a refused one is verified again each time.
"""

from __future__ import annotations

import hashlib
import time
from collections import OrderedDict
from collections.abc import Callable

from resolvers.identity import Identity

# What one entry costs besides its user id: the key, the identity, the dictionary's slot.
ENTRY_OVERHEAD_BYTES = 400


def token_key(token: str) -> bytes:
    return hashlib.sha256(token.encode()).digest()


def entry_bytes(identity: Identity) -> int:
    return ENTRY_OVERHEAD_BYTES + len(identity.user_id or "") + 16 * len(identity.roles)


class VerifiedTokens:
    def __init__(
        self, max_entries: int, max_bytes: int, *, now: Callable[[], float] = time.time
    ) -> None:
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.bytes = 0
        self._now = now  # seconds since the epoch, as `exp` and PyJWT count them
        self._entries: OrderedDict[bytes, Identity] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: bytes) -> Identity | None:
        found = self._entries.get(key)
        if found is None:
            return None
        if found.expires_at is None or found.expires_at <= self._now():
            self._drop(key)
            return None
        self._entries.move_to_end(key)
        return found

    def put(self, key: bytes, identity: Identity) -> None:
        size = entry_bytes(identity)
        if key in self._entries or size > self.max_bytes:
            return
        self._entries[key] = identity
        self.bytes += size
        while len(self._entries) > self.max_entries or self.bytes > self.max_bytes:
            self._drop(next(iter(self._entries)))

    def clear(self) -> None:
        self._entries.clear()
        self.bytes = 0

    def _drop(self, key: bytes) -> None:
        self.bytes -= entry_bytes(self._entries.pop(key))
