"""Callers without credentials: with nothing configured, in development, they may do
everything, and the start-up log says so; in production they read and write nothing unless
ARRAYGRAPH_ANONYMOUS_ROLE grants a role (FORBIDDEN: no credential could be accepted); with
credentials configured they hold that role or nothing (UNAUTHENTICATED: one would help)."""

from __future__ import annotations

import dataclasses
import logging

import pytest

from settings import PRODUCTION, Settings
from settings.identity import IdentitySettings
from tests.sensors.queries import CREATE
from tests.support import ApiFactory, error_codes
from web.identity.access_line import CLOSED, OPEN

READ = "{ sensors { totalCount } }"
PRODUCTION_SETTINGS = dataclasses.replace(Settings(), environment=PRODUCTION)


def _anonymous_role(settings: Settings, role: str) -> Settings:
    return dataclasses.replace(settings, identity=IdentitySettings(anonymous_role=role))


async def test_with_nothing_configured_in_development_anyone_does_everything(
    make_api: ApiFactory, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="arraygraph"):
        async with make_api(Settings()) as api:
            assert "errors" not in await api.post(CREATE, {"t": "x"})
            assert await api.post(READ) == {"data": {"sensors": {"totalCount": 1}}}
    assert [r.getMessage() for r in caplog.records if r.getMessage() == OPEN] == [OPEN]


async def test_in_production_without_credentials_every_call_is_refused(
    make_api: ApiFactory, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="arraygraph"):
        async with make_api(PRODUCTION_SETTINGS) as api:
            read, write = await api.post(READ), await api.post(CREATE, {"t": "x"})
            assert (error_codes(read), error_codes(write)) == (["FORBIDDEN"], ["FORBIDDEN"])
            assert await api.collection("sensors").count_documents({}) == 0
    assert CLOSED in [r.getMessage() for r in caplog.records]


async def test_in_production_the_anonymous_role_is_granted_and_no_more(
    make_api: ApiFactory,
) -> None:
    async with make_api(_anonymous_role(PRODUCTION_SETTINGS, "reader")) as api:
        assert await api.post(READ) == {"data": {"sensors": {"totalCount": 0}}}
        assert error_codes(await api.post(CREATE, {"t": "x"})) == ["FORBIDDEN"]


async def test_with_tokens_configured_the_anonymous_role_reads_and_writes_need_one(
    make_api: ApiFactory,
) -> None:
    settings = _anonymous_role(Settings(api_tokens=("ingest:t",)), "reader")
    async with make_api(settings) as api:
        assert await api.post(READ) == {"data": {"sensors": {"totalCount": 0}}}
        assert error_codes(await api.post(CREATE, {"t": "x"})) == ["UNAUTHENTICATED"]
        signed = await api.post(CREATE, {"t": "x"}, headers={"authorization": "Bearer t"})
        assert "errors" not in signed
