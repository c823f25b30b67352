"""A `$match` after a pipeline's first stage costs nothing when it is empty, and never rewrites
the documents it tests when its filter compares no datetime (`embedded/stages/match_stage.py`);
answers stay a server's, datetimes included."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import mongomock_ng.helpers
import pytest

from tests.engine.fronts import Front

WHEN = datetime(2024, 1, 1, tzinfo=UTC)
Pipeline = list[dict[str, Any]]


@pytest.fixture
def rewrites(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many documents mongomock-ng's datetime rewriting is asked to copy."""
    calls: list[int] = []
    rewrite: Callable[[Any], Any] = mongomock_ng.helpers.patch_datetime_awareness_in_document

    def counted(value: Any) -> Any:
        calls.append(1)
        return rewrite(value)

    monkeypatch.setattr(mongomock_ng.helpers, "patch_datetime_awareness_in_document", counted)
    return calls


async def _aggregate(
    front: Front, pipeline: Pipeline, rewrites: list[int] | None = None
) -> list[dict[str, Any]]:
    things = front.collection("things")
    await things.insert_many(
        [{"_id": i, "n": i, "at": WHEN + timedelta(hours=i)} for i in range(50)]
    )
    if rewrites is not None:
        rewrites.clear()  # the inserts' own
    found: list[dict[str, Any]] = await (await things.aggregate(pipeline)).to_list()
    return found


async def test_match_stage_empty_rewrites_nothing(front: Front, rewrites: list[int]) -> None:
    pipeline: Pipeline = [
        {"$sort": {"n": -1}},
        {"$facet": {"page": [{"$match": {}}, {"$limit": 2}]}},
    ]
    [found] = await _aggregate(front, pipeline, rewrites)
    assert [doc["n"] for doc in found["page"]] == [49, 48]
    assert rewrites == []


async def test_match_stage_without_dates_rewrites_nothing(
    front: Front, rewrites: list[int]
) -> None:
    pipeline: Pipeline = [{"$sort": {"n": 1}}, {"$match": {"$or": [{"n": {"$lt": 2}}, {"n": 7}]}}]
    assert [doc["n"] for doc in await _aggregate(front, pipeline, rewrites)] == [0, 1, 7]
    assert rewrites == []


async def test_match_stage_compares_dates_as_a_server_does(front: Front) -> None:
    pipeline: Pipeline = [
        {"$sort": {"n": 1}},
        {"$match": {"at": {"$gte": WHEN + timedelta(hours=48)}}},
    ]
    assert [doc["n"] for doc in await _aggregate(front, pipeline)] == [48, 49]
