"""The unified format's matching: extra fields at the root only, numbers across types, arrays of
the same length, and the special operators."""

from __future__ import annotations

from typing import Any

import pytest
from bson import Decimal128, Int64, ObjectId

from tests.conformance.runner.matching import Mismatch, match

MATCHING: list[tuple[Any, Any]] = [
    ({"a": 1}, {"a": 1, "b": 2}),
    ({"a": 1}, {"a": Int64(1)}),
    ({"a": 1.0}, {"a": 1}),
    ({"a": {"b": 1, "c": 2}}, {"a": {"c": 2, "b": 1}}),
    ({"a": {"$$exists": False}}, {}),
    ({"a": {"$$type": ["int", "long"]}}, {"a": Int64(5)}),
    ({"a": {"$$unsetOrMatches": 3}}, {}),
    ({"a": {"$$lte": 2}}, {"a": 2.0}),
]
MISMATCHING: list[tuple[Any, Any]] = [
    ({"a": {"b": 1}}, {"a": {"b": 1, "c": 2}}),
    ({"a": [1, 2]}, {"a": [1, 2, 3]}),
    ({"a": True}, {"a": 1}),
    ({"a": Decimal128("1")}, {"a": 1}),
    ({"a": {"$$exists": True}}, {}),
    ({"a": {"$$type": "objectId"}}, {"a": "x"}),
    ({"a": {"$$unsetOrMatches": 3}}, {"a": 4}),
    ({"a": 1}, {"b": 1}),
]


@pytest.mark.parametrize(("expected", "actual"), MATCHING)
def test_these_match(expected: Any, actual: Any) -> None:
    match(expected, actual, {}, root=True)


@pytest.mark.parametrize(("expected", "actual"), MISMATCHING)
def test_these_do_not_match(expected: Any, actual: Any) -> None:
    with pytest.raises(Mismatch):
        match(expected, actual, {}, root=True)


def test_an_entity_is_matched_by_name() -> None:
    saved = ObjectId()
    match({"_id": {"$$matchesEntity": "id0"}}, {"_id": saved}, {"id0": saved}, root=True)
