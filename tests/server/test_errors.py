"""Unexpected errors are masked and logged with their stack; expected ones carry a code."""

from __future__ import annotations

import logging

import pytest

from resolvers import sensors as resolvers_sensors
from tests.support import Api, error_codes


async def test_unexpected_error_is_masked_and_logged_with_its_stack(
    api: Api, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("connection string mongodb://admin:hunter2@db leaked")

    monkeypatch.setattr(resolvers_sensors, "list_sensors", broken)
    with caplog.at_level(logging.ERROR, logger="arraygraph.errors"):
        body = await api.post("{ sensors { totalCount } }")
    assert error_codes(body) == ["INTERNAL_SERVER_ERROR"]
    assert "hunter2" not in str(body)
    [record] = [r for r in caplog.records if r.name == "arraygraph.errors"]
    assert record.exc_info is not None
    assert "hunter2" in record.getMessage() or "hunter2" in str(record.exc_info[1])


async def test_expected_errors_are_not_logged_as_errors(
    api: Api, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.ERROR):
        body = await api.post('{ sensor(id: "nope") { title } }')
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_unknown_field_is_a_validation_error(api: Api) -> None:
    body = await api.post("{ nothing }")
    assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"]


async def test_syntax_error_is_a_parse_error(api: Api) -> None:
    body = await api.post("{ sensors { ")
    assert error_codes(body) == ["GRAPHQL_PARSE_FAILED"]
