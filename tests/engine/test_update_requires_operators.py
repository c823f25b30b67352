"""An update takes operators or a pipeline, a replacement takes neither: PyMongo refuses the
other before sending (`ValueError`), and so does the engine's own API."""

from __future__ import annotations

import pytest
from pymongo import ReplaceOne, UpdateMany, UpdateOne

from tests.engine.fronts import Front


@pytest.fixture
async def things(front: Front) -> object:
    coll = front.collection("things")
    await coll.insert_one({"_id": 1, "n": 1})
    return coll


async def _stored(front: Front) -> list[object]:
    return list(await front.collection("things").find({}).to_list())


async def test_update_one_refuses_a_replacement_document(front: Front, things: object) -> None:
    coll = front.collection("things")
    with pytest.raises(ValueError, match=r"update only works with \$ operators"):
        await coll.update_one({"_id": 1}, {"n": 2})
    assert await _stored(front) == [{"_id": 1, "n": 1}]


async def test_update_many_refuses_a_replacement_document(front: Front, things: object) -> None:
    coll = front.collection("things")
    with pytest.raises(ValueError, match=r"update only works with \$ operators"):
        await coll.update_many({}, {"n": 2})
    assert await _stored(front) == [{"_id": 1, "n": 1}]


async def test_bulk_updates_refuse_a_replacement_before_any_write(
    front: Front, things: object
) -> None:
    coll = front.collection("things")
    for model in (UpdateOne, UpdateMany):
        with pytest.raises(ValueError, match=r"update only works with \$ operators"):
            await coll.bulk_write([UpdateOne({"_id": 1}, {"$set": {"n": 5}}), model({}, {"n": 2})])
    assert await _stored(front) == [{"_id": 1, "n": 1}]


async def test_replacements_refuse_operators(front: Front, things: object) -> None:
    coll = front.collection("things")
    with pytest.raises(ValueError, match=r"replacement can not include \$ operators"):
        await coll.replace_one({"_id": 1}, {"$set": {"n": 2}})
    with pytest.raises(ValueError, match=r"replacement can not include \$ operators"):
        await coll.bulk_write([ReplaceOne({"_id": 1}, {"$set": {"n": 2}})])
    with pytest.raises(ValueError, match=r"replacement can not include \$ operators"):
        await coll.find_one_and_replace({"_id": 1}, {"$set": {"n": 2}})
    assert await _stored(front) == [{"_id": 1, "n": 1}]


async def test_an_empty_update_is_refused(front: Front, things: object) -> None:
    with pytest.raises(ValueError, match="update cannot be empty"):
        await front.collection("things").update_one({"_id": 1}, {})
