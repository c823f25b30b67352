"""Update pipelines received over the wire are interned (embedded/wire/pipelines.py): equal
bytes give the first copy received, so its compiled stages serve every later command."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from bson import ObjectId

from embedded.wire.pipelines import interned

PIPELINE = [{"$set": {"n": {"$add": [{"$ifNull": ["$n", 0]}, 1]}, "at": "$$NOW"}}]


def _unseen(value: Any) -> list[Any]:
    """A pipeline no command has sent before (the interned ones live for the process)."""
    return [{"$set": {"a": value, "marker": ObjectId()}}]


def test_interned_pipeline_is_the_first_received_with_its_bytes() -> None:
    first = interned(copy.deepcopy(PIPELINE))
    again = copy.deepcopy(PIPELINE)
    assert again is not first
    assert interned(again) is first


def test_interned_pipelines_of_other_bytes_stay_apart() -> None:
    first = interned(copy.deepcopy(PIPELINE))
    other = _unseen(2)
    assert interned(other) is other
    assert interned(copy.deepcopy(PIPELINE)) is first


def test_interned_pipelines_tell_apart_what_python_equates() -> None:
    ones = _unseen(1)
    trues = [{"$set": {"a": True, "marker": ones[0]["$set"]["marker"]}}]  # equal in Python
    assert interned(ones) is ones
    assert interned(trues) is trues


@pytest.mark.parametrize(
    "update", [{"$set": {"a": 1}}, [{"$set": {"a": {1, 2}}}], ("not", "a list")], ids=repr
)
def test_interned_leaves_operators_and_what_bson_cannot_hold(update: Any) -> None:
    assert interned(update) is update
