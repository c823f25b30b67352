"""The positional `$` of an update names the element the filter matched, as on MongoDB 8.0: in
process (update_one, find_one_and_update, bulk UpdateOne) and over the wire front (update,
update_many, findAndModify, bulk writes). Where no condition matched an element, BadValue (2)
and nothing stored; where a server's answer cannot be told exactly, a refusal, never a guess."""

from __future__ import annotations

from typing import Any

import pytest
from bson import ObjectId
from pymongo import ReturnDocument, UpdateMany, UpdateOne
from pymongo.errors import BulkWriteError, OperationFailure, WriteError

from embedded import EmbeddedCollection, EmbeddedEngine
from embedded.rules import BAD_VALUE, CONFLICTING_UPDATE_OPERATORS
from embedded.writes.positional import NO_MATCH, UnresolvedPositional
from tests.engine.wire_support import Client, Collection

A, B, C = ObjectId(), ObjectId(), ObjectId()


def _session(session_id: int = 1, ids: tuple[ObjectId, ...] = (A, B, C)) -> dict[str, Any]:
    messages = [{"id": oid, "seq": seq} for seq, oid in enumerate(ids, start=1)]
    return {"_id": session_id, "sessionId": session_id, "messages": messages, "tags": ["a", "b"]}


def _texts(doc: dict[str, Any]) -> list[Any]:
    return [message.get("text") for message in doc["messages"]]


@pytest.fixture
async def coll(engine: EmbeddedEngine) -> EmbeddedCollection:
    sessions = engine["test"]["sessions"]
    await sessions.insert_one(_session())
    return sessions


@pytest.fixture
async def wire_coll(client: Client) -> Collection:
    sessions = client["test"]["sessions"]
    await sessions.insert_many([_session(1), _session(2, ids=(C, A, B))])
    return sessions


async def test_update_one_equality_on_a_subfield_sets_the_matched_element(
    coll: EmbeddedCollection,
) -> None:
    await coll.update_one({"sessionId": 1, "messages.id": C}, {"$set": {"messages.$.text": "x"}})
    assert _texts(await coll.find_one({"_id": 1})) == [None, None, "x"]


async def test_update_one_elem_match_sets_the_matched_element(coll: EmbeddedCollection) -> None:
    await coll.update_one(
        {"messages": {"$elemMatch": {"id": B, "seq": 2}}}, {"$set": {"messages.$.text": "x"}}
    )
    assert _texts(await coll.find_one({"_id": 1})) == [None, "x", None]


async def test_update_one_comparison_sets_the_first_element_that_passes(
    coll: EmbeddedCollection,
) -> None:
    await coll.update_one({"messages.seq": {"$gt": 1}}, {"$inc": {"messages.$.seq": 10}})
    doc = await coll.find_one({"_id": 1})
    assert [m["seq"] for m in doc["messages"]] == [1, 12, 3]


async def test_update_one_on_a_scalar_array_sets_the_matched_value(
    coll: EmbeddedCollection,
) -> None:
    await coll.update_one({"tags": "b"}, {"$set": {"tags.$": "B"}})
    assert (await coll.find_one({"_id": 1}))["tags"] == ["a", "B"]


async def test_update_one_unset_of_the_matched_element_sets_it_to_null(
    coll: EmbeddedCollection,
) -> None:
    await coll.update_one({"tags": {"$in": ["b"]}}, {"$unset": {"tags.$": ""}})
    assert (await coll.find_one({"_id": 1}))["tags"] == ["a", None]


async def test_find_one_and_update_returns_the_matched_element_updated(
    coll: EmbeddedCollection,
) -> None:
    after = await coll.find_one_and_update(
        {"messages.id": B}, {"$set": {"messages.$.text": "x"}}, return_document=ReturnDocument.AFTER
    )
    assert _texts(after) == [None, "x", None]
    assert _texts(await coll.find_one({"_id": 1})) == [None, "x", None]


async def test_bulk_update_one_sets_the_matched_element(coll: EmbeddedCollection) -> None:
    await coll.bulk_write([UpdateOne({"messages.id": C}, {"$set": {"messages.$.text": "x"}})])
    assert _texts(await coll.find_one({"_id": 1})) == [None, None, "x"]


async def test_update_one_without_a_condition_on_the_array_is_bad_value(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"sessionId": 1}, {"$set": {"messages.$.text": "x"}})
    assert raised.value.code == BAD_VALUE
    assert raised.value.details is not None and raised.value.details["errmsg"] == NO_MATCH


async def test_update_one_without_a_match_for_the_positional_stores_nothing(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(WriteError):
        await coll.update_one({"_id": 1}, {"$set": {"messages.$.text": "x", "seen": True}})
    assert await coll.find_one({"_id": 1}) == _session()


async def test_update_one_upsert_with_a_positional_is_bad_value_and_inserts_nothing(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"tags": "z"}, {"$set": {"tags.$": "y"}}, upsert=True)
    assert raised.value.code == BAD_VALUE
    assert await coll.count_documents({}) == 1


async def test_find_one_and_update_without_a_match_fails_as_a_command(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(OperationFailure) as raised:
        await coll.find_one_and_update({"_id": 1}, {"$set": {"tags.$": "y"}})
    assert not isinstance(raised.value, WriteError)
    assert raised.value.code == BAD_VALUE


async def test_bulk_update_one_without_a_match_is_a_write_error(coll: EmbeddedCollection) -> None:
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write([UpdateOne({"_id": 1}, {"$set": {"tags.$": "y"}})])
    [error] = raised.value.details["writeErrors"]
    assert (error["code"], error["errmsg"]) == (BAD_VALUE, NO_MATCH)


async def test_update_one_positional_and_its_resolved_index_conflict(
    coll: EmbeddedCollection,
) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"tags": "b"}, {"$set": {"tags.$": "B", "tags.1": "C"}})
    assert raised.value.code == CONFLICTING_UPDATE_OPERATORS
    assert (await coll.find_one({"_id": 1}))["tags"] == ["a", "b"]


@pytest.mark.parametrize(
    ("update", "message"),
    [
        ({"$set": {"messages.$.list.$": 1}}, "Too many positional (i.e. '$') elements found"),
        ({"$set": {"$.text": 1}}, "Cannot have positional (i.e. '$') element in the first"),
        ({"$rename": {"messages.$.id": "x"}}, "The source field for $rename may not be dynamic"),
    ],
)
async def test_update_one_malformed_positional_is_bad_value_even_without_a_match(
    coll: EmbeddedCollection, update: dict[str, Any], message: str
) -> None:
    with pytest.raises(WriteError) as raised:
        await coll.update_one({"sessionId": "nobody"}, update)
    assert raised.value.code == BAD_VALUE
    assert message in str(raised.value)


async def test_update_one_conditions_matching_different_elements_are_refused(
    coll: EmbeddedCollection,
) -> None:
    # A server keeps the offset of the condition it evaluates last: not something to rely on.
    with pytest.raises(UnresolvedPositional):
        await coll.update_one({"tags": "b", "messages.id": C}, {"$set": {"messages.$.text": "x"}})
    assert await coll.find_one({"_id": 1}) == _session()


async def test_update_one_through_nested_arrays_is_refused(coll: EmbeddedCollection) -> None:
    await coll.insert_one({"_id": 2, "grid": [[1, 2], [3]]})
    with pytest.raises(UnresolvedPositional):
        await coll.update_one({"grid": [3]}, {"$set": {"grid.$": []}})
    assert (await coll.find_one({"_id": 2}))["grid"] == [[1, 2], [3]]


async def test_wire_update_one_sets_the_matched_element(wire_coll: Collection) -> None:
    await wire_coll.update_one(
        {"sessionId": 1, "messages.id": C}, {"$set": {"messages.$.text": "x"}}
    )
    assert _texts(await wire_coll.find_one({"_id": 1}) or {}) == [None, None, "x"]


async def test_wire_update_many_resolves_each_document_on_its_own(wire_coll: Collection) -> None:
    result = await wire_coll.update_many({"messages.id": C}, {"$set": {"messages.$.text": "x"}})
    assert result.modified_count == 2
    docs = await wire_coll.find({}, sort=[("_id", 1)]).to_list()
    assert [_texts(doc) for doc in docs] == [[None, None, "x"], ["x", None, None]]


async def test_wire_find_one_and_update_returns_the_matched_element_updated(
    wire_coll: Collection,
) -> None:
    after = await wire_coll.find_one_and_update(
        {"_id": 2, "messages": {"$elemMatch": {"id": B, "seq": {"$gte": 3}}}},
        {"$set": {"messages.$.text": "x"}},
        return_document=ReturnDocument.AFTER,
    )
    assert _texts(after or {}) == [None, None, "x"]


async def test_wire_bulk_update_many_resolves_each_document_on_its_own(
    wire_coll: Collection,
) -> None:
    await wire_coll.bulk_write([UpdateMany({"messages.id": A}, {"$set": {"messages.$.text": "x"}})])
    docs = await wire_coll.find({}, sort=[("_id", 1)]).to_list()
    assert [_texts(doc) for doc in docs] == [["x", None, None], [None, "x", None]]


async def test_wire_update_without_a_condition_on_the_array_is_a_write_error(
    wire_coll: Collection,
) -> None:
    with pytest.raises(WriteError) as raised:
        await wire_coll.update_one({"_id": 1}, {"$set": {"messages.$.text": "x"}})
    assert (raised.value.code, raised.value.details) == (
        BAD_VALUE, {"index": 0, "code": BAD_VALUE, "errmsg": NO_MATCH}
    )  # fmt: skip
    assert _texts(await wire_coll.find_one({"_id": 1}) or {}) == [None, None, None]
