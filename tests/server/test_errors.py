"""Unexpected errors are masked and logged with their stack; expected ones carry a code."""

from __future__ import annotations

import logging

import pytest

from resolvers import sensors as resolvers_sensors
from resolvers.errors import BadUserInput, NotFound
from schema.errors import code_of
from store.errors import StoredLimitReached, WriteContention
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


@pytest.mark.parametrize(
    "query",
    [
        "query($unused: Int) { __typename }",  # a variable the operation never uses
        "{ sensors(first: $undeclared) { totalCount } }",  # a variable it never declares
        "query($t: Int!) { createSensorTitle: sensor(id: $t) { id } }",  # Int where ID! goes
        "{ sensor { id } }",  # a required argument missing
        '{ sensor(id: "x", nope: 1) { id } }',  # an argument the field does not have
        '{ sensors(first: "ten") { totalCount } }',  # a literal of the wrong type
        # a literal the DateTime scalar refuses (its ValueError is the document's fault)
        '{ user(userId: "u") { orders(maxCreateTime: "2020-01-01") { totalCount } } }',
    ],
)
async def test_a_document_that_does_not_validate_is_a_validation_error(
    api: Api, query: str
) -> None:
    body = await api.post(query, {"t": 1, "unused": 1})
    assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"], body


@pytest.mark.parametrize(
    ("query", "variables"),
    [
        ("query($n: Int) { sensors(first: $n) { totalCount } }", {"n": "ten"}),
        ("query($id: ID!) { sensor(id: $id) { id } }", {}),
        ("query($id: ID!) { sensor(id: $id) { id } }", {"id": None}),
        (
            'query($a: DateTime) { user(userId: "u") { '
            "orders(maxCreateTime: $a) { totalCount } } }",
            {"a": "2024-01-01T00:00:00"},
        ),
    ],
)
async def test_variable_values_that_do_not_fit_are_bad_user_input(
    api: Api, query: str, variables: dict[str, object]
) -> None:
    body = await api.post(query, variables)
    assert error_codes(body) == ["BAD_USER_INPUT"], body


def test_every_store_and_resolver_error_has_its_code() -> None:
    assert code_of(WriteContention("x")) == "CONFLICT"
    assert code_of(StoredLimitReached("x")) == "LIMIT_EXCEEDED"
    assert code_of(BadUserInput("x")) == "BAD_USER_INPUT"
    assert code_of(NotFound("x")) == "NOT_FOUND"
    assert code_of(RuntimeError("x")) == "INTERNAL_SERVER_ERROR"
