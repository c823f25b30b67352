"""Aggregations of plain stages (`$project` of top-level fields, `$set`, `$unset`) run without
mongomock-ng (`embedded/stages/plain_stages.py`) and answer as a server does: the fields, their
order, the stored documents untouched; any other stage form gives the same answer by mongomock-ng.
In process and over the wire."""

from __future__ import annotations

from typing import Any

import pytest

from embedded.stages import plain_stages
from tests.engine.fronts import Front

DOCS = [
    {"_id": 1, "b": 2, "a": 1, "list": [1, 2, 3], "sub": {"x": 1}},
    {"_id": 2, "a": 5, "list": []},
]


async def _aggregated(front: Front, pipeline: list[dict[str, Any]]) -> list[dict[str, Any]]:
    coll = front.collection("plain")
    await coll.insert_many([dict(doc) for doc in DOCS])
    found: list[dict[str, Any]] = await (await coll.aggregate(pipeline)).to_list()
    return found


async def test_plain_project_keeps_fields_in_document_order(front: Front) -> None:
    found = await _aggregated(front, [{"$project": {"a": 1, "b": True}}])
    assert [list(doc) for doc in found] == [["_id", "b", "a"], ["_id", "a"]]


async def test_plain_project_puts_computed_fields_after_kept_ones(front: Front) -> None:
    pipeline = [{"$project": {"_id": 0, "list": {"$size": "$list"}, "a": 1, "copy": "$b"}}]
    found = await _aggregated(front, pipeline)
    assert found == [{"a": 1, "list": 3, "copy": 2}, {"a": 5, "list": 0}]
    assert list(found[0]) == ["a", "list", "copy"]


async def test_plain_project_reads_let_variables(front: Front) -> None:
    coll = front.collection("plain")
    await coll.insert_many([dict(doc) for doc in DOCS])
    pipeline = [{"$match": {"_id": 1}}, {"$project": {"page": {"$slice": ["$list", "$$n"]}}}]
    found = await (await coll.aggregate(pipeline, let={"n": 2})).to_list()
    assert found == [{"_id": 1, "page": [1, 2]}]


async def test_plain_stages_leave_the_stored_documents_as_they_were(front: Front) -> None:
    pipeline: list[dict[str, Any]] = [
        {"$set": {"a": 0, "list": {"$slice": ["$list", 1]}}},
        {"$unset": "sub"},
    ]
    await _aggregated(front, pipeline)
    stored = await front.collection("plain").find({}).to_list()
    assert stored == DOCS


@pytest.mark.parametrize(
    "stage",
    [
        {"$project": {"a": 0}},  # an exclusion
        {"$project": {"sub.x": 1}},  # a dotted field
        {"$project": {"_id": "$a", "a": 1}},  # a computed _id
        {"$project": {"sub": {"x": 1}}},  # an embedded specification
    ],
    ids=["exclusion", "dotted", "computed id", "embedded"],
)
def test_plain_stages_leave_other_forms_to_mongomock(stage: dict[str, Any]) -> None:
    assert not plain_stages.is_plain([stage])


async def test_plain_project_of_id_alone_keeps_or_drops_only_the_id(front: Front) -> None:
    only_id = await _aggregated(front, [{"$project": {"_id": 1}}])
    assert only_id == [{"_id": 1}, {"_id": 2}]
    without_id = await (
        await front.collection("plain").aggregate([{"$project": {"_id": 0}}])
    ).to_list()
    assert without_id == [{k: v for k, v in doc.items() if k != "_id"} for doc in DOCS]
