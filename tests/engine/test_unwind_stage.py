"""`$unwind` in a pipeline whose stages only read copies no document per element
(`embedded/stages/unwind_stage.py`: a 10,000-minute series spent 22 s deep-copying), and answers as
a server does; after it, a stage that writes in place still changes one document alone."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tests.engine.fronts import Front

Pipeline = list[dict[str, Any]]
DOCS = [
    {"_id": 1, "a": [1, 2, 3], "x": {"b": ["p", "q"], "keep": 1}, "big": {"k": list(range(50))}},
    {"_id": 2, "a": [], "x": {"b": "single"}},
    {"_id": 3, "a": None},
    {"_id": 4},
    {"_id": 5, "a": 7},
]


async def _aggregate(front: Front, pipeline: Pipeline) -> list[dict[str, Any]]:
    things = front.collection("things")
    await things.insert_many(copy.deepcopy(DOCS))
    found: list[dict[str, Any]] = await (await things.aggregate(pipeline)).to_list()
    return found


async def test_unwind_stage_reading_copies_no_document(
    front: Front, monkeypatch: pytest.MonkeyPatch
) -> None:
    things = front.collection("things")
    await things.insert_many(copy.deepcopy(DOCS))
    deep_copies: list[int] = []
    deepcopy = copy.deepcopy

    def counted(*args: Any, **kwargs: Any) -> Any:
        deep_copies.append(1)
        return deepcopy(*args, **kwargs)

    monkeypatch.setattr(copy, "deepcopy", counted)
    pipeline = [{"$match": {"_id": 1}}, {"$project": {"a": 1, "big": 1}}, {"$unwind": "$a"}]
    found = await (await things.aggregate(pipeline)).to_list()
    assert [doc["a"] for doc in found] == [1, 2, 3]
    assert all(doc["big"] == {"k": list(range(50))} for doc in found)
    assert deep_copies == []


async def test_unwind_stage_of_a_top_level_array_with_its_index(front: Front) -> None:
    pipeline: Pipeline = [
        {"$unwind": {"path": "$a", "includeArrayIndex": "i"}},
        {"$project": {"x": 0}},
    ]
    found = await _aggregate(front, pipeline)
    assert [(doc["_id"], doc["a"], doc["i"]) for doc in found] == [
        (1, 1, 0), (1, 2, 1), (1, 3, 2), (5, 7, None),
    ]  # fmt: skip


async def test_unwind_stage_of_a_dotted_path_keeps_the_rest_of_its_document(front: Front) -> None:
    found = await _aggregate(front, [{"$unwind": "$x.b"}, {"$project": {"x": 1}}])
    assert found == [
        {"_id": 1, "x": {"b": "p", "keep": 1}},
        {"_id": 1, "x": {"b": "q", "keep": 1}},
        {"_id": 2, "x": {"b": "single"}},
    ]


async def test_unwind_stage_keeps_null_and_empty_when_asked(front: Front) -> None:
    pipeline: Pipeline = [
        {"$unwind": {"path": "$a", "preserveNullAndEmptyArrays": True}},
        {"$project": {"a": 1}},
    ]
    found = await _aggregate(front, pipeline)
    assert found == [
        {"_id": 1, "a": 1}, {"_id": 1, "a": 2}, {"_id": 1, "a": 3},
        {"_id": 2}, {"_id": 3, "a": None}, {"_id": 4}, {"_id": 5, "a": 7},
    ]  # fmt: skip


async def test_unwind_stage_then_a_dotted_set_changes_each_document_alone(front: Front) -> None:
    pipeline: Pipeline = [
        {"$match": {"_id": 1}},
        {"$unwind": "$a"},
        {"$set": {"x.keep": "$a"}},
        {"$project": {"x": 1}},
    ]
    found = await _aggregate(front, pipeline)
    assert [doc["x"]["keep"] for doc in found] == [1, 2, 3]
