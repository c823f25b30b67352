"""Collections created, counted and dropped as on a server: `create` makes a plain collection,
the options that would make another kind (views, validators, capped) and `collMod` are refused
with the engine's clear error, never ignored."""

from __future__ import annotations

import pytest
from pymongo.errors import CollectionInvalid, OperationFailure

from tests.engine.fronts import Front

NOT_IMPLEMENTED = 238


async def test_create_collection_makes_an_empty_collection(front: Front) -> None:
    coll = await front.db.create_collection("made")
    await front.collection("other").insert_one({"_id": 1})
    assert await front.db.list_collection_names() == ["made", "other"]
    assert await front.db.list_collection_names(filter={"name": "made"}) == ["made"]
    assert await coll.estimated_document_count() == 0
    with pytest.raises(CollectionInvalid):
        await front.db.create_collection("made")


@pytest.mark.parametrize(
    "options",
    [
        {"viewOn": "made", "pipeline": []},
        {"validator": {"n": {"$type": "int"}}},
        {"capped": True, "size": 4096},
    ],
)
async def test_create_of_another_kind_is_refused(front: Front, options: dict[str, object]) -> None:
    with pytest.raises(OperationFailure) as raised:
        await front.db.create_collection("other", **options)
    assert raised.value.code == NOT_IMPLEMENTED
    assert "other" not in await front.db.list_collection_names()


async def test_coll_mod_is_refused(front: Front) -> None:
    await front.db.create_collection("made")
    with pytest.raises(OperationFailure) as raised:
        await front.db.command({"collMod": "made", "validator": {"n": 1}})
    assert raised.value.code == NOT_IMPLEMENTED


async def test_counts_and_drops(front: Front) -> None:
    coll = front.collection("things")
    await coll.insert_many([{"_id": i} for i in range(3)])
    assert await coll.estimated_document_count() == 3
    await coll.drop()
    assert await coll.estimated_document_count() == 0
    await coll.insert_one({"_id": 1})
    assert (await front.db.drop_collection("things"))["ok"] == 1.0
    assert "things" not in await front.db.list_collection_names()
    await front.db.drop_collection("never")  # a collection that does not exist: no error
