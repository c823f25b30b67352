"""The engine decides common filters and sorts itself (`embedded/planner/fast_filters.py`); answers
must be the server's whatever the documents hold: arrays, missing fields, mixed types."""

from __future__ import annotations

import functools
from datetime import UTC, datetime
from typing import Any

import pytest
from bson import ObjectId

from embedded import EmbeddedCollection, EmbeddedEngine
from embedded import mongomock_internals as mongomock

WHEN = datetime(2024, 1, 1, tzinfo=UTC)
OID = ObjectId("65f000000000000000000001")


@pytest.fixture
async def coll(engine: EmbeddedEngine) -> EmbeddedCollection:
    things = engine["test"]["mixed"]
    await things.insert_many(
        [
            {"_id": 1, "k": "a", "n": 1},
            {"_id": 2, "k": ["a", "b"], "n": 5},  # an array: equality means "holds"
            {"_id": 3, "n": 3},  # no k
            {"_id": 4, "k": 7, "n": 2.5},  # another type
            {"_id": 5, "k": "b", "n": 4, "o": OID, "at": WHEN},
        ]
    )
    return things


async def _ids(coll: EmbeddedCollection, filter: dict[str, object], **kwargs: object) -> list[int]:
    return [doc["_id"] for doc in await coll.find(filter, **kwargs).to_list()]


async def test_fast_filter_equality_includes_arrays_that_hold_the_value(
    coll: EmbeddedCollection,
) -> None:
    assert await _ids(coll, {"k": "a"}) == [1, 2]
    assert await _ids(coll, {"k": "b"}) == [2, 5]


async def test_fast_filter_ne_includes_missing_fields_and_other_types(
    coll: EmbeddedCollection,
) -> None:
    assert await _ids(coll, {"k": {"$ne": "a"}}) == [3, 4, 5]


async def test_fast_filter_ranges_compare_only_within_a_type(coll: EmbeddedCollection) -> None:
    assert await _ids(coll, {"k": {"$gte": "a", "$lt": "b"}}) == [1, 2]
    assert await _ids(coll, {"n": {"$gt": 2}}) == [2, 3, 4, 5]
    assert await _ids(coll, {"o": {"$lte": OID}, "at": WHEN}) == [5]


async def test_fast_sort_orders_and_limits_like_the_server(coll: EmbeddedCollection) -> None:
    assert await _ids(coll, {}, sort=[("n", -1)], limit=2) == [2, 5]  # 2.5 and 1 mix types
    assert await _ids(coll, {"_id": {"$gt": 0}}, sort=[("_id", -1)], skip=1, limit=2) == [4, 3]
    pipeline = [{"$match": {"n": {"$gte": 1}}}, {"$sort": {"_id": -1}}, {"$limit": 3}]
    found = await (await coll.aggregate(pipeline)).to_list()
    assert [doc["_id"] for doc in found] == [5, 4, 3]


async def test_fast_sort_falls_back_when_a_field_is_missing_or_an_array(
    coll: EmbeddedCollection,
) -> None:
    # BSON order: missing (null) < numbers < strings < arrays compared by their least element.
    assert await _ids(coll, {}, sort=[("k", 1), ("_id", 1)]) == [3, 4, 1, 2, 5]


@pytest.fixture
async def nested(engine: EmbeddedEngine) -> EmbeddedCollection:
    things = engine["test"]["nested"]
    await things.insert_many(
        [
            {"_id": 1, "s": {"k": "a", "n": 1}},
            {"_id": 2, "s": [{"k": "a"}, {"k": "c"}]},  # an array on the path: any element
            {"_id": 3, "s": {"k": ["b", "x"]}},  # an array at the end: any element
            {"_id": 4, "s": {"n": 2}},  # no s.k
            {"_id": 5, "s": "a"},  # no subdocument
            {"_id": 6, "s": {"k": 2, "n": 2.0}},  # another type
            {"_id": 7, "s": {"k": "b", "n": 3}},
        ]
    )
    return things


async def test_fast_filter_in_matches_like_the_server(nested: EmbeddedCollection) -> None:
    assert await _ids(nested, {"s.k": {"$in": ["a", "b"]}}) == [1, 2, 3, 7]
    assert await _ids(nested, {"s.k": {"$in": [2]}}) == [6]
    assert await _ids(nested, {"s.n": {"$in": [2, 3]}}) == [4, 6, 7]  # 2.0 equals 2
    assert await _ids(nested, {"s.k": {"$in": ["a", 2]}}) == [1, 2, 6]  # of two types


async def test_fast_filter_paths_through_subdocuments_match_like_the_server(
    nested: EmbeddedCollection,
) -> None:
    assert await _ids(nested, {"s.k": "a"}) == [1, 2]
    assert await _ids(nested, {"s.k": {"$ne": "b"}}) == [1, 2, 4, 5, 6]
    assert await _ids(nested, {"s.n": {"$gte": 2}, "s.k": {"$gt": "a"}}) == [7]


async def test_fast_filter_in_of_thousands_of_keys_is_a_set_lookup(
    engine: EmbeddedEngine, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A rollup read names every period of its range: 20,000 keys over 5,000 documents.
    things = engine["test"]["rollups"]
    await things.insert_many([{"_id": {"m": "w", "k": f"{i:05}"}} for i in range(5_000)])
    matcher_calls: list[str] = []
    for name in ("filter_applies", "iter_documents"):  # mongomock-ng's matcher, either way
        original = getattr(mongomock, name)
        counted = functools.partial(_counted, original, matcher_calls, name)
        monkeypatch.setattr(mongomock, name, counted)
    keys = [f"{i:05}" for i in range(0, 40_000, 2)]
    found = await things.find({"_id.m": "w", "_id.k": {"$in": keys}}).to_list()
    assert len(found) == 2_500
    assert matcher_calls == []  # decided without mongomock-ng, which compares key by key


def _counted(original: Any, calls: list[str], name: str, *args: Any) -> Any:
    calls.append(name)
    return original(*args)
