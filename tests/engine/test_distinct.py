"""distinct answers as a server: the values a field path takes in the matched documents, arrays
expanded, each value once (numbers of equal value are one), in BSON order."""

from __future__ import annotations

import pytest
from pymongo.errors import OperationFailure

from tests.engine.fronts import Front


@pytest.fixture
async def things(front: Front) -> object:
    coll = front.collection("things")
    await coll.insert_many(
        [
            {"_id": 1, "x": 3, "tags": ["b", "a"], "sub": [{"k": 2}, {"k": 1}]},
            {"_id": 2, "x": 1.0, "tags": "a", "sub": {"k": 2}},
            {"_id": 3, "x": "z", "tags": [["a"], "c"]},
            {"_id": 4, "x": 1, "tags": []},
            {"_id": 5},
        ]
    )
    return coll


async def test_values_are_unique_and_in_bson_order(front: Front, things: object) -> None:
    assert await front.collection("things").distinct("x") == [1.0, 3, "z"]


async def test_arrays_are_expanded_one_level(front: Front, things: object) -> None:
    assert await front.collection("things").distinct("tags") == ["a", "b", "c", ["a"]]


async def test_a_path_walks_through_arrays_of_subdocuments(front: Front, things: object) -> None:
    assert await front.collection("things").distinct("sub.k") == [1, 2]


async def test_a_numeric_part_indexes_an_array(front: Front, things: object) -> None:
    assert await front.collection("things").distinct("tags.0") == ["a", "b"]


async def test_the_filter_chooses_the_documents(front: Front, things: object) -> None:
    coll = front.collection("things")
    assert await coll.distinct("x", {"_id": {"$gte": 3}}) == [1, "z"]
    assert await coll.distinct("missing") == []


async def test_an_empty_key_is_refused(front: Front, things: object) -> None:
    with pytest.raises(OperationFailure):
        await front.collection("things").distinct("")
