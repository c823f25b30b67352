"""The exception class and code of every error the store interprets, as PyMongo raises them.

These run in every mode (in process, through the wire front, against a real server): an
adapter that raised another class than the driver once hid a production bug (a findAndModify
past 16 MiB is a command error, `OperationFailure`, not a `WriteError`).
"""

from __future__ import annotations

import pytest
from pymongo import IndexModel, ReturnDocument, UpdateOne
from pymongo.errors import BulkWriteError, DuplicateKeyError, OperationFailure, WriteError

from store.database import Database
from store.protocols import AsyncCollection
from store.server_codes import DOCUMENT_TOO_LARGE_CODES

MIB = 1024 * 1024


@pytest.fixture
async def coll(database: Database) -> AsyncCollection:
    things = database.collection("things")
    await things.create_indexes([IndexModel([("key", 1)], unique=True, name="key_unique")])
    return things


async def test_a_duplicate_insert_raises_duplicate_key_error(coll: AsyncCollection) -> None:
    await coll.insert_one({"_id": 1, "key": "a"})
    with pytest.raises(DuplicateKeyError) as raised:
        await coll.insert_one({"_id": 2, "key": "a"})
    assert raised.value.code == 11000


async def test_an_upsert_into_a_taken_unique_key_raises_duplicate_key_error(
    coll: AsyncCollection,
) -> None:
    await coll.insert_one({"_id": 1, "key": "a", "n": 1})
    with pytest.raises(DuplicateKeyError):
        await coll.find_one_and_update({"key": "a", "n": 2}, [{"$set": {"m": 1}}], upsert=True)


async def test_find_and_modify_past_16_mib_is_a_command_error(coll: AsyncCollection) -> None:
    await coll.insert_one({"_id": 1, "key": "a", "blob": "x" * (10 * MIB)})
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update(
            {"_id": 1}, {"$set": {"more": "y" * (7 * MIB)}}, return_document=ReturnDocument.AFTER
        )
    assert not isinstance(raised.value, WriteError)
    assert raised.value.code in DOCUMENT_TOO_LARGE_CODES


async def test_an_upserting_find_and_modify_past_16_mib_is_a_command_error(
    coll: AsyncCollection,
) -> None:
    # The command itself stays under the limit (a driver refuses a larger one before sending
    # it); the document the server builds from it does not.
    doubled = [{"$set": {"a": "x" * (9 * MIB)}}, {"$set": {"b": "$a"}}]
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": 2}, doubled, upsert=True)
    assert not isinstance(raised.value, WriteError)
    assert raised.value.code in DOCUMENT_TOO_LARGE_CODES


async def test_an_update_past_16_mib_is_a_write_error(coll: AsyncCollection) -> None:
    await coll.insert_one({"_id": 1, "key": "a", "blob": "x" * (10 * MIB)})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$set": {"more": "y" * (7 * MIB)}})
    assert raised.value.code in DOCUMENT_TOO_LARGE_CODES


async def test_a_failed_bulk_write_raises_bulk_write_error_naming_each_statement(
    coll: AsyncCollection,
) -> None:
    await coll.insert_one({"_id": 1, "key": "a", "count": "text"})
    await coll.insert_one({"_id": 2, "key": "b", "count": 1})
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write(
            [
                UpdateOne({"_id": 1}, {"$inc": {"count": 1}}),
                UpdateOne({"_id": 2}, {"$inc": {"count": 1}}),
            ],
            ordered=False,
        )
    assert [e["index"] for e in raised.value.details["writeErrors"]] == [0]
    assert (await coll.find_one({"_id": 2}))["count"] == 2


async def test_a_unique_index_over_duplicates_raises_duplicate_key_error(
    database: Database,
) -> None:
    others = database.collection("others")
    await others.insert_many([{"_id": 1, "k": 1}, {"_id": 2, "k": 1}])
    with pytest.raises(DuplicateKeyError):
        await others.create_indexes([IndexModel([("k", 1)], unique=True)])


async def test_a_find_of_150_documents_takes_two_round_trips(database: Database) -> None:
    coll = database.collection("many")
    await coll.insert_many([{"_id": i} for i in range(150)])
    database.commands.reset()
    found = await coll.find({}).to_list()
    assert len(found) == 150
    assert dict(database.commands.by_name) == {"find": 1, "getMore": 1}
