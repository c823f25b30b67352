"""The codes `store.server_codes` interprets are the ones the embedded engine raises."""

from __future__ import annotations

import pytest
from pymongo.errors import OperationFailure, WriteError

from embedded import MAX_BSON_DOCUMENT_BYTES, EmbeddedCollection, EmbeddedEngine
from store import server_codes

OVER_16_MIB = "x" * (MAX_BSON_DOCUMENT_BYTES + 1)
HALF = "y" * (MAX_BSON_DOCUMENT_BYTES // 2 + 1)


@pytest.fixture
def coll() -> EmbeddedCollection:
    return EmbeddedEngine()["test"]["things"]


async def _code_of_insert(coll: EmbeddedCollection) -> int | None:
    with pytest.raises(WriteError) as raised:
        await coll.insert_one({"_id": 1, "blob": OVER_16_MIB})
    return raised.value.code


async def _code_of_update(coll: EmbeddedCollection) -> int | None:
    await coll.insert_one({"_id": 2, "a": HALF})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 2}, {"$set": {"b": HALF}})
    return raised.value.code


async def _code_of_upsert(coll: EmbeddedCollection) -> int | None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 3}, {"$set": {"blob": OVER_16_MIB}}, upsert=True)
    return raised.value.code


async def test_a_document_over_16_mib_raises_the_codes_the_store_interprets(
    coll: EmbeddedCollection,
) -> None:
    codes = (await _code_of_insert(coll), await _code_of_update(coll), await _code_of_upsert(coll))
    assert codes == (
        server_codes.BSON_OBJECT_TOO_LARGE,
        server_codes.UPDATE_RESULT_TOO_LARGE,
        server_codes.UPSERT_RESULT_TOO_LARGE,
    )
    assert set(codes) == server_codes.DOCUMENT_TOO_LARGE_CODES


async def test_find_one_and_update_past_16_mib_raises_a_code_the_store_interprets(
    coll: EmbeddedCollection,
) -> None:
    # The store's order writes are findAndModify commands, whose failures are command errors.
    await coll.insert_one({"_id": 4, "a": HALF})
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": 4}, [{"$set": {"b": HALF}}])
    assert raised.value.code in server_codes.DOCUMENT_TOO_LARGE_CODES
