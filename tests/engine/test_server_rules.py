"""The embedded engine rejects what MongoDB 8.0 rejects (../shared/mongo-semantics.md)."""

from __future__ import annotations

import pytest
from pymongo import IndexModel, UpdateOne
from pymongo.errors import BulkWriteError, DocumentTooLarge, DuplicateKeyError, WriteError

from embedded import CommandCounts, EmbeddedCollection, EmbeddedEngine
from embedded.rules import (
    BAD_VALUE,
    BSON_OBJECT_TOO_LARGE,
    CONFLICTING_UPDATE_OPERATORS,
    IMMUTABLE_FIELD,
    OVERFLOW,
    TYPE_MISMATCH,
    UPDATE_TOO_LARGE,
    UPSERT_TOO_LARGE,
)

MIB = 1024 * 1024


@pytest.fixture
def coll(engine: EmbeddedEngine) -> EmbeddedCollection:
    return engine["test"]["things"]


async def test_update_pull_and_push_same_path_is_a_conflict_even_without_a_match(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one(
            {"userId": "nobody"},
            {"$pull": {"orderList": {"_id": "1"}}, "$push": {"orderList": {"_id": "1"}}},
        )
    assert raised.value.code == CONFLICTING_UPDATE_OPERATORS
    assert "would create a conflict at 'orderList'" in str(raised.value)


async def test_update_set_on_insert_and_inc_of_one_field_is_a_conflict(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one(
            {"_id": "b"}, {"$setOnInsert": {"count": 0}, "$inc": {"count": 1}}, upsert=True
        )
    assert raised.value.code == CONFLICTING_UPDATE_OPERATORS
    assert await coll.count_documents({}) == 0


async def test_update_set_of_a_path_and_its_parent_is_a_conflict(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1, "a": {"b": 1}})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$set": {"a": {}, "a.b": 2}})
    assert raised.value.code == CONFLICTING_UPDATE_OPERATORS
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": {"b": 1}}


async def test_update_of_sibling_paths_is_not_a_conflict(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1})
    await coll.update_one({"_id": 1}, {"$set": {"a.b": 1, "a.bc": 2}, "$inc": {"n": 1}})
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "a": {"b": 1, "bc": 2}, "n": 1}


async def test_update_past_16_mib_is_rejected_and_changes_nothing(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1, "blob": "x" * (10 * MIB)})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$set": {"more": "y" * (7 * MIB)}})
    assert raised.value.code == UPDATE_TOO_LARGE
    stored = await coll.find_one({"_id": 1})
    assert set(stored) == {"_id", "blob"}


async def test_upsert_past_16_mib_is_rejected_and_inserts_nothing(coll: EmbeddedCollection) -> None:
    # A 9 MiB command (PyMongo refuses one past 16 MiB itself) that builds an 18 MiB document.
    doubling = [{"$set": {"a": "x" * (9 * MIB)}}, {"$set": {"b": "$a"}}]
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 2}, doubling, upsert=True)
    assert raised.value.code == UPSERT_TOO_LARGE
    assert await coll.count_documents({}) == 0


async def test_insert_past_16_mib_is_rejected(coll: EmbeddedCollection) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.insert_one({"_id": 3, "blob": "x" * (16 * MIB + 1000)})
    assert raised.value.code == BSON_OBJECT_TOO_LARGE
    assert await coll.count_documents({}) == 0


async def test_a_command_past_16_mib_is_refused_before_it_is_sent() -> None:
    counts = CommandCounts()
    coll = EmbeddedEngine(counts)["test"]["things"]
    with pytest.raises(DocumentTooLarge, match="BSON document too large"):
        await coll.insert_one({"_id": 3, "blob": "x" * (17 * MIB)})
    with pytest.raises(DocumentTooLarge, match="findAndModify command document too large"):
        await coll.find_one_and_update({"_id": 3}, {"$set": {"blob": "x" * (17 * MIB)}})
    assert counts.count == 0  # as PyMongo raises it: no round trip


async def test_a_value_bson_cannot_hold_is_refused_before_it_is_sent(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(UnicodeEncodeError):
        await coll.find_one({"name": "\ud800"})
    with pytest.raises(OverflowError):
        await coll.insert_one({"_id": 2**64})


async def test_insert_deeper_than_100_levels_is_rejected(coll: EmbeddedCollection) -> None:
    nested: dict[str, object] = {}
    for _ in range(150):
        nested = {"n": nested}
    with pytest.raises(WriteError) as raised:
        await coll.insert_one({"_id": 4, "deep": nested})
    assert raised.value.code == OVERFLOW


async def test_upsert_copies_equalities_but_never_a_regex_or_a_range(
    coll: EmbeddedCollection,
) -> None:
    await coll.update_one(
        {"_id": {"$regex": "^123_"}, "count": {"$lt": 10}, "customerId": 123},
        {"$set": {"touched": True}},
        upsert=True,
    )
    [doc] = await coll.find({}).to_list()
    assert doc["customerId"] == 123
    assert doc["touched"] is True
    assert "count" not in doc
    assert not isinstance(doc["_id"], str)  # the regex was not copied; a new ObjectId was made


async def test_upsert_copies_equalities_inside_and(coll: EmbeddedCollection) -> None:
    await coll.update_one(
        {"$and": [{"userId": "u9"}, {"kind": {"$eq": "C"}}, {"n": {"$in": [1, 2]}}]},
        {"$set": {"name": "x"}},
        upsert=True,
    )
    [doc] = await coll.find({}, {"_id": 0}).to_list()
    assert doc == {"userId": "u9", "kind": "C", "name": "x"}


async def test_upsert_may_not_change_an_id_taken_from_the_filter(coll: EmbeddedCollection) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": "a"}, {"$setOnInsert": {"_id": "b"}}, upsert=True)
    assert raised.value.code == IMMUTABLE_FIELD
    assert await coll.count_documents({}) == 0


async def test_pipeline_update_may_not_change_the_id(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": "a"})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": "a"}, [{"$set": {"_id": "b"}}])
    assert raised.value.code == IMMUTABLE_FIELD
    assert await coll.find_one({}) == {"_id": "a"}


async def test_expr_in_an_upsert_filter_is_rejected(coll: EmbeddedCollection) -> None:
    with pytest.raises(WriteError):
        await coll.update_one({"$expr": {"$eq": ["$a", 1]}}, {"$set": {"b": 1}}, upsert=True)


async def test_pipeline_with_a_forbidden_stage_is_rejected(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1})
    with pytest.raises(WriteError):
        await coll.update_one({"_id": 1}, [{"$match": {"_id": 1}}])


async def test_inc_of_a_string_is_a_write_error(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1, "count": "three"})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$inc": {"count": 1}})
    assert raised.value.code == TYPE_MISMATCH
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "count": "three"}


async def test_inc_past_int64_is_rejected(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1, "count": 2**63 - 1})
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"_id": 1}, {"$inc": {"count": 1}})
    assert raised.value.code == BAD_VALUE
    assert str(raised.value).startswith(
        "Failed to apply $inc operations to current value ((NumberLong)9223372036854775807)"
        " for document {_id: 1}"
    )
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "count": 2**63 - 1}


async def test_upsert_against_a_unique_index_raises_duplicate_key(coll: EmbeddedCollection) -> None:
    await coll.create_indexes([IndexModel([("userId", 1)], unique=True)])
    await coll.insert_one({"_id": 1, "userId": "u1", "kind": "A"})
    with pytest.raises(DuplicateKeyError):
        await coll.update_one({"userId": "u1", "kind": "B"}, {"$set": {"x": 1}}, upsert=True)


async def test_unordered_bulk_write_reports_each_failed_operation(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 1, "count": "text"})
    await coll.insert_one({"_id": 2, "count": 1})
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write(
            [
                UpdateOne({"_id": 1}, {"$inc": {"count": 1}}),
                UpdateOne({"_id": 2}, {"$inc": {"count": 1}}),
            ],
            ordered=False,
        )
    [error] = raised.value.details["writeErrors"]
    assert error["index"] == 0
    assert (await coll.find_one({"_id": 2}))["count"] == 2


async def test_each_command_is_counted_once() -> None:
    counts = CommandCounts()
    coll = EmbeddedEngine(counts)["test"]["things"]
    await coll.insert_one({"_id": 1})
    await coll.find({}).to_list()
    await coll.update_one({"_id": 1}, {"$set": {"a": 1}})
    await coll.bulk_write([UpdateOne({"_id": 1}, {"$inc": {"n": 1}})] * 5)
    assert counts.count == 4
    assert counts.by_name["update"] == 2


async def test_a_unique_index_that_documents_break_is_refused_with_e11000(
    coll: EmbeddedCollection,
) -> None:
    await coll.insert_many([{"_id": 1, "page": 1}, {"_id": 2, "page": 1}])
    with pytest.raises(DuplicateKeyError) as raised:
        await coll.create_indexes([IndexModel([("page", 1)], unique=True)])
    assert (raised.value.details or {})["keyValue"] == {"page": 1}
    assert "Index build failed" in str(raised.value)


async def test_drop_database_drops_every_collection(engine: EmbeddedEngine) -> None:
    await engine["test"]["a"].insert_one({"_id": 1})
    await engine["test"]["b"].insert_one({"_id": 1})
    assert await engine["test"].command("dropDatabase") == {"ok": 1.0, "dropped": "test"}
    assert await engine["test"]["a"].count_documents({}) == 0
    assert await engine["test"]["b"].find({}).to_list() == []


async def test_a_missing_field_in_a_duplicate_key_is_null(coll: EmbeddedCollection) -> None:
    await coll.insert_many([{"_id": 1, "owner": 1}, {"_id": 2, "owner": 1}])
    with pytest.raises(DuplicateKeyError) as raised:
        await coll.create_indexes([IndexModel([("owner", 1), ("page", 1)], unique=True)])
    assert (raised.value.details or {})["keyValue"] == {"owner": 1, "page": None}
    assert "dup key: { owner: 1, page: null }" in str(raised.value)
