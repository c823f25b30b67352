"""CORS: ARRAYGRAPH_CORS_ORIGINS lets browser apps on those origins call the API; unset, the
API answers without CORS headers (same-origin only)."""

from __future__ import annotations

import pytest

from settings import CORS_MAX_AGE_SECONDS, Settings, SettingsError
from tests.support import ApiFactory

APP_ORIGIN = "http://127.0.0.1:5173"
PREFLIGHT = {
    "origin": APP_ORIGIN,
    "access-control-request-method": "POST",
    "access-control-request-headers": "content-type, authorization",
}


async def test_cors_preflight_from_an_allowed_origin_is_answered_and_cached(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(cors_origins=(APP_ORIGIN,))) as api:
        response = await api.client.options("/graphql", headers=PREFLIGHT)
        assert response.status_code == 200
        assert response.headers["access-control-allow-origin"] == APP_ORIGIN
        assert "POST" in response.headers["access-control-allow-methods"]
        assert "authorization" in response.headers["access-control-allow-headers"].lower()
        assert response.headers["access-control-max-age"] == str(CORS_MAX_AGE_SECONDS)


async def test_cors_request_from_an_allowed_origin_carries_the_header(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(cors_origins=(APP_ORIGIN,))) as api:
        response = await api.client.post(
            "/graphql", json={"query": "{ __typename }"}, headers={"origin": APP_ORIGIN}
        )
        assert response.json() == {"data": {"__typename": "Query"}}
        assert response.headers["access-control-allow-origin"] == APP_ORIGIN


async def test_cors_preflight_from_another_origin_is_refused(make_api: ApiFactory) -> None:
    async with make_api(Settings(cors_origins=(APP_ORIGIN,))) as api:
        other = {**PREFLIGHT, "origin": "http://127.0.0.1:9999"}
        response = await api.client.options("/graphql", headers=other)
        assert response.status_code == 400
        assert "access-control-allow-origin" not in response.headers


async def test_cors_unset_answers_same_origin_only(make_api: ApiFactory) -> None:
    async with make_api(Settings()) as api:
        response = await api.client.options("/graphql", headers=PREFLIGHT)
        assert "access-control-allow-origin" not in response.headers
        posted = await api.client.post(
            "/graphql", json={"query": "{ __typename }"}, headers={"origin": APP_ORIGIN}
        )
        assert "access-control-allow-origin" not in posted.headers


async def test_cors_headers_come_with_a_refused_body_too(make_api: ApiFactory) -> None:
    async with make_api(Settings(cors_origins=(APP_ORIGIN,), max_request_bytes=100)) as api:
        response = await api.client.post(
            "/graphql", content=b"{" + b" " * 200 + b"}", headers={"origin": APP_ORIGIN}
        )
        assert response.status_code == 413
        assert response.headers["access-control-allow-origin"] == APP_ORIGIN


@pytest.mark.parametrize(
    "origins",
    ["http://127.0.0.1:5173/", "https://app.example.com/path", "app.example.com", "ftp://x"],
)
def test_cors_origins_setting_refuses_what_is_not_an_origin(origins: str) -> None:
    with pytest.raises(SettingsError, match="ARRAYGRAPH_CORS_ORIGINS"):
        Settings.from_env({"ARRAYGRAPH_CORS_ORIGINS": origins})


def test_cors_origins_setting_reads_a_comma_separated_list() -> None:
    env = {"ARRAYGRAPH_CORS_ORIGINS": " http://127.0.0.1:5173 ,https://app.example.com,"}
    assert Settings.from_env(env).cors_origins == (APP_ORIGIN, "https://app.example.com")
