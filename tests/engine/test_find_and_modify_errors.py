"""`find_one_and_update` fails as findAndModify fails on a server: a command error, which PyMongo
raises as `OperationFailure` (`DuplicateKeyError` for E11000), never as a `WriteError`."""

from __future__ import annotations

import pytest
from pymongo import IndexModel, ReturnDocument
from pymongo.errors import DuplicateKeyError, OperationFailure, WriteError

from embedded import EmbeddedCollection, EmbeddedEngine
from embedded.rules import (
    CONFLICTING_UPDATE_OPERATORS,
    IMMUTABLE_FIELD,
    UPDATE_TOO_LARGE,
    UPSERT_TOO_LARGE,
)

MIB = 1024 * 1024


@pytest.fixture
def coll(engine: EmbeddedEngine) -> EmbeddedCollection:
    return engine["test"]["things"]


def _command_error(exc: OperationFailure) -> dict[str, object]:
    assert not isinstance(exc, WriteError) or isinstance(exc, DuplicateKeyError)
    details = exc.details or {}
    assert details["ok"] == 0.0
    return {"code": exc.code, "codeName": details["codeName"]}


async def test_past_16_mib_is_a_command_error_17419(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1, "blob": "x" * (10 * MIB)})
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": 1}, {"$set": {"more": "y" * (7 * MIB)}})
    assert _command_error(raised.value) == {"code": UPDATE_TOO_LARGE, "codeName": "Location17419"}


async def test_an_upsert_past_16_mib_is_a_command_error_17420(coll: EmbeddedCollection) -> None:
    # A 9 MiB command (PyMongo refuses one past 16 MiB itself) that builds an 18 MiB document.
    doubling = [{"$set": {"a": "x" * (9 * MIB)}}, {"$set": {"b": "$a"}}]
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": 2}, doubling, upsert=True)
    assert _command_error(raised.value) == {"code": UPSERT_TOO_LARGE, "codeName": "Location17420"}
    assert await coll.count_documents({}) == 0


async def test_a_conflict_is_a_command_error_40(coll: EmbeddedCollection) -> None:
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update(
            {"_id": 1}, {"$pull": {"list": 1}, "$push": {"list": 2}}, upsert=True
        )
    assert _command_error(raised.value) == {
        "code": CONFLICTING_UPDATE_OPERATORS,
        "codeName": "ConflictingUpdateOperators",
    }


async def test_changing_the_id_is_a_command_error_66(coll: EmbeddedCollection) -> None:
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": "a"}, {"$setOnInsert": {"_id": "b"}}, upsert=True)
    assert _command_error(raised.value) == {"code": IMMUTABLE_FIELD, "codeName": "ImmutableField"}


async def test_a_duplicate_key_is_a_duplicate_key_error_with_the_key(
    coll: EmbeddedCollection,
) -> None:
    await coll.create_indexes([IndexModel([("name", 1)], unique=True)])
    await coll.insert_one({"_id": 1, "name": "taken"})
    with pytest.raises(DuplicateKeyError) as raised:
        await coll.find_one_and_update(
            {"_id": 2},
            {"$set": {"name": "taken"}},
            upsert=True,
            return_document=ReturnDocument.AFTER,
        )
    details = raised.value.details or {}
    assert (details["ok"], details["codeName"]) == (0.0, "DuplicateKey")
    assert (details["keyPattern"], details["keyValue"]) == ({"name": 1}, {"name": "taken"})
    assert str(raised.value).startswith(
        "E11000 duplicate key error collection: test.things index: name_1"
        ' dup key: { name: "taken" }'
    )


async def test_update_one_still_fails_with_a_write_error(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1, "blob": "x" * (10 * MIB)})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$set": {"more": "y" * (7 * MIB)}})
    assert raised.value.code == UPDATE_TOO_LARGE
