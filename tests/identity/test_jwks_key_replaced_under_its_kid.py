"""A key the provider replaces under the same `kid` (or, in a set of one key, without any
`kid`) is a key removed: once the set is fetched again, the tokens the old key verified, kept
as verified, are refused like any token it signed. The same key fetched again keeps them. A
signature the held key refuses fetches the set again, at most once a minute as an unknown `kid`
does, so the new key's tokens are accepted before the timer's fetch."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import jwt

from tests.sensors.queries import CREATE
from tests.support import ApiFactory, error_codes
from tests.support.jwks import JwksServer, SigningKey, bearer, jwt_settings, signing_key, writer


def document(key: SigningKey, *, named: bool) -> dict[str, Any]:
    jwk = key.jwk
    return {"keys": [jwk if named else {k: v for k, v in jwk.items() if k != "kid"}]}


def signed(key: SigningKey, *, named: bool) -> str:
    """A token naming the key, or, without `kid` in the set, naming none."""
    return key.sign(writer()) if named else jwt.encode(writer(), key.private, key.algorithm)


async def refused_once_replaced(make_api: ApiFactory, *, named: bool) -> None:
    old, replacement = signing_key(kid="signing"), signing_key(kid="signing")
    with JwksServer().running() as jwks:
        jwks.document = document(old, named=named)
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            token = signed(old, named=named)
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(token))
            jwks.document = document(replacement, named=named)
            api.clock.now += timedelta(seconds=61)
            unheard_of = signing_key(kid="unheard-of").sign(writer())
            await api.post(CREATE, {"t": "x"}, headers=bearer(unheard_of))  # a fetch
            assert jwks.fetches == 2
            body = await api.post(CREATE, {"t": "x"}, headers=bearer(token))
            assert error_codes(body) == ["UNAUTHENTICATED"], body
            assert body["errors"][0]["extensions"]["reason"] == "bad signature"
            fresh = signed(replacement, named=named)
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(fresh))


async def test_a_key_replaced_under_its_kid_takes_its_verified_tokens(
    make_api: ApiFactory,
) -> None:
    await refused_once_replaced(make_api, named=True)


async def test_the_one_key_of_a_set_replaced_without_kid_takes_its_verified_tokens(
    make_api: ApiFactory,
) -> None:
    await refused_once_replaced(make_api, named=False)


async def test_the_same_set_fetched_again_keeps_the_tokens_it_verified(
    make_api: ApiFactory, decoded: list[str]
) -> None:
    key = signing_key(kid="signing")
    with JwksServer().running() as jwks:
        jwks.document = document(key, named=True)
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            token = signed(key, named=True)
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(token))
            api.clock.now += timedelta(seconds=61)
            unheard_of = signing_key(kid="unheard-of").sign(writer())
            await api.post(CREATE, {"t": "x"}, headers=bearer(unheard_of))  # a fetch
            assert jwks.fetches == 2
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(token))
    assert decoded.count(token) == 1  # kept verified: the same key, a new copy of it


async def test_a_token_of_the_replacement_is_accepted_before_the_timer_fetches(
    make_api: ApiFactory,
) -> None:
    old, replacement = signing_key(kid="signing"), signing_key(kid="signing")
    with JwksServer().running() as jwks:
        jwks.document = document(old, named=True)
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            kept = old.sign(writer())
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(kept))
            jwks.document = document(replacement, named=True)
            api.clock.now += timedelta(seconds=61)
            # The held key refuses its signature: the set is fetched again, and holds the new.
            fresh = replacement.sign(writer())
            assert "errors" not in await api.post(CREATE, {"t": "x"}, headers=bearer(fresh))
            assert jwks.fetches == 2
            body = await api.post(CREATE, {"t": "x"}, headers=bearer(kept))
            assert body["errors"][0]["extensions"]["reason"] == "bad signature"


async def test_signatures_the_held_key_refuses_fetch_the_set_at_most_once_a_minute(
    make_api: ApiFactory,
) -> None:
    key, stranger = signing_key(kid="signing"), signing_key(kid="signing")
    with JwksServer().running() as jwks:
        jwks.document = document(key, named=True)
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            api.clock.now += timedelta(seconds=61)
            for _ in range(3):  # signed by a key the set never held, under its kid
                forged = stranger.sign(writer())
                body = await api.post(CREATE, {"t": "x"}, headers=bearer(forged))
                assert body["errors"][0]["extensions"]["reason"] == "bad signature"
            assert jwks.fetches == 2
            assert await api.collection("sensors").count_documents({}) == 0
