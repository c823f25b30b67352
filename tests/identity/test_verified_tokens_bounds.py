"""What is kept of verified tokens is bounded in count and in bytes (the least recently used
goes first), keyed by the token's hash, and never served at or past the token's `exp`."""

from __future__ import annotations

from resolvers.identity import Identity
from web.identity.verified_tokens import VerifiedTokens, entry_bytes, token_key

NOW = 1_800_000_000.0


def user(name: str, expires_at: int = int(NOW) + 600) -> Identity:
    return Identity.user(name, frozenset(), expires_at)


def kept(count: int = 100, size: int = 1 << 20) -> VerifiedTokens:
    return VerifiedTokens(count, size, now=lambda: NOW)


def test_the_key_is_the_tokens_sha256_not_the_token() -> None:
    key = token_key("header.payload.signature")
    assert len(key) == 32 and b"payload" not in key


def test_past_the_count_the_least_recently_used_goes() -> None:
    tokens = kept(count=2)
    tokens.put(b"a", user("a"))
    tokens.put(b"b", user("b"))
    assert tokens.get(b"a") == user("a")  # now b is the least recently used
    tokens.put(b"c", user("c"))
    assert (tokens.get(b"a"), tokens.get(b"b"), tokens.get(b"c")) == (user("a"), None, user("c"))
    assert len(tokens) == 2


def test_past_the_bytes_the_least_recently_used_goes() -> None:
    long_id = "u" * 200
    tokens = kept(size=2 * entry_bytes(user(long_id)))
    for name in "abc":
        tokens.put(name.encode(), user(name * 200))
    assert tokens.get(b"a") is None
    assert tokens.bytes <= tokens.max_bytes
    assert len(tokens) == 2


def test_an_entry_is_never_served_at_its_exp() -> None:
    tokens = kept()
    tokens.put(b"soon", user("soon", expires_at=int(NOW)))
    tokens.put(b"later", user("later"))
    assert tokens.get(b"soon") is None
    assert tokens.get(b"later") == user("later")
    assert len(tokens) == 1  # the expired one is dropped, not kept
