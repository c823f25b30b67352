"""Keys from a JWKS URL (a second local HTTP server): a key rotated in at the provider is
accepted without a restart, a key removed there is refused, and tokens naming unknown keys
make the server fetch the set at most once a minute, however many arrive."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest

from tests.sensors.queries import CREATE
from tests.support import Api, ApiFactory, error_codes
from tests.support.jwks import JwksServer, bearer, claims, jwt_settings, signing_key

OLD = signing_key(kid="old")
NEW = signing_key(kid="new")


@pytest.fixture
def jwks() -> Iterator[JwksServer]:
    with JwksServer(OLD).running() as server:
        yield server


async def write_with(api: Api, token: str) -> dict[str, Any]:
    return await api.post(CREATE, {"t": "x"}, headers=bearer(token))


def a_minute_later(api: Api) -> None:
    api.clock.now += timedelta(seconds=61)


async def test_a_key_rotated_in_is_accepted_without_a_restart(
    make_api: ApiFactory, jwks: JwksServer
) -> None:
    async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
        assert "errors" not in await write_with(api, OLD.sign(claims()))
        jwks.serve(OLD, NEW)
        a_minute_later(api)
        body = await write_with(api, NEW.sign(claims()))
        assert "errors" not in body, body
        assert jwks.fetches == 2  # at start-up, then for the new key


async def test_unknown_keys_fetch_the_set_at_most_once_a_minute(
    make_api: ApiFactory, jwks: JwksServer
) -> None:
    async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
        assert jwks.fetches == 1
        for number in range(5):  # within the minute of the start-up fetch: none
            body = await write_with(api, signing_key(kid=f"k{number}").sign(claims()))
            assert body["errors"][0]["extensions"]["reason"] == "unknown key"
        assert jwks.fetches == 1
        a_minute_later(api)
        for number in range(5):  # a minute on: one, for the first
            await write_with(api, signing_key(kid=f"later{number}").sign(claims()))
        assert jwks.fetches == 2


async def test_a_key_removed_at_the_provider_is_refused_once_the_set_is_fetched_again(
    make_api: ApiFactory,
) -> None:
    with JwksServer(OLD, NEW).running() as jwks:
        async with make_api(jwt_settings(jwks_url=jwks.url)) as api:
            token = OLD.sign(claims())
            assert "errors" not in await write_with(api, token)  # verified, and kept
            jwks.serve(NEW)
            a_minute_later(api)
            await write_with(api, signing_key(kid="unheard-of").sign(claims()))  # a fetch
            assert jwks.fetches == 2
            body = await write_with(api, token)
            assert error_codes(body) == ["UNAUTHENTICATED"]
            assert body["errors"][0]["extensions"]["reason"] == "unknown key"
