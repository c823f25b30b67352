"""An operation's root fields are collected once while it lives, unless a directive may change
them (`runtime/execution/root_fields.py`); either way every execution answers as graphql-core
would."""

from __future__ import annotations

import pytest

import runtime.execution.root_fields as root_fields
from tests.support import Api
from tests.support.executed import count_calls

SENSORS = "query { __typename sensors(first: 1) { totalCount } }"
DIRECTED = "query($v: Boolean!) { __typename sensors(first: 1) @include(if: $v) { totalCount } }"


async def test_root_fields_of_an_operation_without_directives_are_collected_once(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, root_fields, "_graphql_collect_fields", calls)
    answers = [await api.data(SENSORS) for _ in range(3)]
    assert answers == [{"__typename": "Query", "sensors": {"totalCount": 0}}] * 3
    assert len(calls) == 1


async def test_root_fields_under_a_directive_are_collected_per_execution(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[str] = []
    count_calls(monkeypatch, root_fields, "_graphql_collect_fields", calls)
    assert await api.data(DIRECTED, {"v": True}) == {
        "__typename": "Query",
        "sensors": {"totalCount": 0},
    }
    assert await api.data(DIRECTED, {"v": False}) == {"__typename": "Query"}
    assert len(calls) == 2
