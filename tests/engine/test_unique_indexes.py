"""Unique indexes as MongoDB 8.0 enforces them: a document outside a partial index's filter is
not indexed (new or stored), an empty array is one key (`undefined`), a sparse index skips
documents without its fields, and an array's elements are keys of their own."""

from __future__ import annotations

import pytest
from pymongo import IndexModel
from pymongo.errors import DuplicateKeyError

from embedded import EmbeddedCollection, EmbeddedEngine
from tests.engine.wire_support import Client

PARTIAL = IndexModel(
    [("s", 1), ("ids", 1)],
    unique=True,
    name="s_ids",
    partialFilterExpression={"ids": {"$type": "string"}},
)


@pytest.fixture
async def coll(engine: EmbeddedEngine) -> EmbeddedCollection:
    return engine["test"]["unique"]


async def test_unique_index_partial_skips_a_new_document_outside_its_filter(
    coll: EmbeddedCollection,
) -> None:
    await coll.create_indexes(
        [IndexModel([("s", 1), ("k", 1)], unique=True, partialFilterExpression={"on": True})]
    )
    await coll.insert_one({"s": 1, "k": "a", "on": True})
    await coll.insert_one({"s": 1, "k": "a", "on": False})  # not indexed: no collision
    with pytest.raises(DuplicateKeyError):
        await coll.insert_one({"s": 1, "k": "a", "on": True})


async def test_unique_index_partial_lets_empty_arrays_be(coll: EmbeddedCollection) -> None:
    await coll.create_indexes([PARTIAL])
    await coll.insert_many([{"s": 1, "ids": []}, {"s": 1, "ids": []}, {"s": 1, "ids": ["x"]}])
    with pytest.raises(DuplicateKeyError):
        await coll.insert_one({"s": 1, "ids": ["y", "x"]})


async def test_unique_index_over_an_array_takes_an_empty_array_as_one_key(
    coll: EmbeddedCollection,
) -> None:
    await coll.create_indexes([IndexModel([("s", 1), ("ids", 1)], unique=True)])
    await coll.insert_one({"s": 1, "ids": []})
    with pytest.raises(DuplicateKeyError):
        await coll.insert_one({"s": 1, "ids": []})
    await coll.insert_one({"s": 2, "ids": []})  # another key


async def test_unique_index_over_an_array_allows_a_repeat_inside_one_document(
    coll: EmbeddedCollection,
) -> None:
    await coll.create_indexes([PARTIAL])
    await coll.insert_one({"s": 1, "ids": ["x", "x"]})
    await coll.update_one({"s": 1}, {"$push": {"ids": "x"}})
    assert (await coll.find_one({"s": 1}))["ids"] == ["x", "x", "x"]


async def test_unique_index_refuses_an_update_that_copies_a_key_and_stores_nothing(
    coll: EmbeddedCollection,
) -> None:
    await coll.create_indexes([PARTIAL])
    await coll.insert_many([{"_id": 1, "s": 1, "ids": ["x"]}, {"_id": 2, "s": 1, "ids": ["y"]}])
    with pytest.raises(DuplicateKeyError):
        await coll.update_one({"_id": 2}, {"$push": {"ids": "x"}})
    assert (await coll.find_one({"_id": 2}))["ids"] == ["y"]


async def test_unique_index_sparse_skips_documents_without_its_fields(
    coll: EmbeddedCollection,
) -> None:
    await coll.create_indexes([IndexModel([("k", 1)], unique=True, sparse=True)])
    await coll.insert_many([{"n": 1}, {"n": 2}, {"k": "a"}])
    with pytest.raises(DuplicateKeyError):
        await coll.insert_one({"k": "a"})


async def test_unique_index_partial_through_the_driver(client: Client) -> None:
    wire = client["test"]["unique"]
    await wire.create_indexes([PARTIAL])
    await wire.insert_many([{"s": 1, "ids": []}, {"s": 1, "ids": []}, {"s": 1, "ids": ["x"]}])
    with pytest.raises(DuplicateKeyError) as raised:
        await wire.insert_one({"s": 1, "ids": ["x"]})
    assert raised.value.details is not None
    assert raised.value.details["keyPattern"] == {"s": 1, "ids": 1}
