"""The engine's indexes stay exact under every write: after each kind of write (insert, operator
and pipeline updates, upserts, replacements, deletes, bulk writes, rejected writes and their
rollback, TTL expiry, drops), every index of the collection equals one built afresh from its
documents, and reads through it find what they should."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pymongo import DeleteOne, IndexModel, InsertOne, UpdateOne
from pymongo.errors import BulkWriteError, DuplicateKeyError, WriteError

from embedded.planner.indexes import table_of
from embedded.planner.sorted_index import Index
from tests.engine.fronts import Front

INDEXES = [
    IndexModel([("userId", 1)], unique=True, name="userId_unique"),
    IndexModel([("group", 1), ("n", -1)], name="group_n"),
]
Write = Callable[[Any], Awaitable[Any]]


def _assert_exact(front: Front, name: str = "things") -> None:
    table = table_of(front.engine["test"][name].mongomock_collection)
    for index in table.indexes():
        fresh = Index(index.fields, hashed=index.by_key is not None)
        fresh.build(table.numbered())
        assert (index.entries, index.exceptions) == (fresh.entries, fresh.exceptions)
        assert index.by_key == fresh.by_key


async def _things(front: Front) -> Any:
    things = front.collection("things")
    await things.create_indexes(INDEXES)
    await things.insert_many(
        [{"_id": i, "userId": f"u{i}", "group": i % 3, "n": i} for i in range(12)]
    )
    return things


async def _ids(things: Any, filter: dict[str, Any], **options: Any) -> list[Any]:
    return [doc["_id"] for doc in await things.find(filter, **options).to_list()]


async def _pipeline_update(t: Any) -> Any:
    return await t.update_one({"userId": "u3"}, [{"$set": {"n": {"$add": ["$n", 30]}}}])


WRITES: dict[str, Write] = {
    "insert": lambda t: t.insert_one({"_id": 50, "userId": "u50", "group": 1, "n": 50}),
    "update": lambda t: t.update_one({"_id": 2}, {"$set": {"group": 1, "n": 40}}),
    "pipeline update": _pipeline_update,
    "array value": lambda t: t.update_one({"_id": 4}, {"$set": {"group": [1, 2]}}),
    "upsert": lambda t: t.update_one({"userId": "u60"}, {"$set": {"n": 1}}, upsert=True),
    "find and modify": lambda t: t.find_one_and_update({"group": 2}, {"$inc": {"n": 100}}),
    "delete": lambda t: t.delete_one({"userId": "u5"}),
    "delete many": lambda t: t.delete_many({"group": 0}),
    "bulk": lambda t: t.bulk_write(
        [
            InsertOne({"_id": 70, "userId": "u70", "group": 2, "n": 70}),
            UpdateOne({"_id": 1}, {"$unset": {"group": ""}}),
            DeleteOne({"_id": 7}),
        ]
    ),
}


@pytest.mark.parametrize("write", list(WRITES))
async def test_indexes_stay_exact_after_a_write(front: Front, write: str) -> None:
    things = await _things(front)
    await WRITES[write](things)
    _assert_exact(front)
    expected = sorted(
        (doc for doc in await things.find({}).to_list() if doc.get("group") in (1, [1, 2])),
        key=lambda doc: -doc["n"],
    )
    found = await things.find({"group": 1}, sort=[("n", -1)]).to_list()
    assert [d["_id"] for d in found] == [d["_id"] for d in expected]


async def test_indexes_stay_exact_when_a_duplicate_key_is_refused(front: Front) -> None:
    things = await _things(front)
    with pytest.raises(DuplicateKeyError):
        await things.update_one({"_id": 1}, {"$set": {"userId": "u2", "group": 9}})
    with pytest.raises(DuplicateKeyError):
        await things.insert_one({"_id": 90, "userId": "u3", "group": 9})
    with pytest.raises(BulkWriteError):
        await things.bulk_write([UpdateOne({"_id": 4}, {"$set": {"userId": "u5", "group": 9}})])
    _assert_exact(front)
    assert await _ids(things, {"group": 9}) == []
    assert await _ids(things, {"userId": "u2"}) == [2]


async def test_indexes_stay_exact_when_a_write_breaks_a_rule(front: Front) -> None:
    things = await _things(front)
    with pytest.raises(WriteError):
        await things.update_one({"_id": 1}, {"$set": {"group": 9}, "$inc": {"userId": 1}})
    _assert_exact(front)
    assert await _ids(things, {"group": 9}) == []


async def test_indexes_follow_a_drop_and_a_new_declaration(front: Front) -> None:
    things = await _things(front)
    await front.db.command("dropDatabase")
    await things.insert_many([{"_id": "x", "userId": "u1", "group": 5}, {"_id": "y", "group": 5}])
    await things.create_indexes([IndexModel([("group", 1)], name="group")])
    _assert_exact(front)
    front.examined.reset()
    assert await _ids(things, {"group": 5}) == ["x", "y"]
    assert await _ids(things, {"userId": "u1"}) == ["x"]  # no unique index any more
    assert front.examined.by_namespace["test.things"] == 4


async def test_indexes_stay_exact_when_documents_expire(front: Front) -> None:
    things = await _things(front)
    await things.create_indexes([IndexModel([("at", 1)], expireAfterSeconds=60, name="ttl")])
    old = datetime.now(UTC) - timedelta(hours=1)
    await things.update_one({"_id": 3}, {"$set": {"at": old}})
    assert await _ids(things, {"userId": "u3"}) == []
    _assert_exact(front)
