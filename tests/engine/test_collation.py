"""A collation other than the simple one is refused with the engine's clear error (238,
NotImplemented) in every operation that carries one, never answered with binary comparison;
the simple collation (`{locale: "simple"}`, binary comparison) is the engine's own."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from pymongo import DeleteOne, UpdateOne
from pymongo.collation import Collation
from pymongo.errors import BulkWriteError, OperationFailure

from embedded.rules import NOT_IMPLEMENTED, UNSUPPORTED_PREFIX
from tests.engine.fronts import Front

CASELESS = {"locale": "en_US", "strength": 2}
SIMPLE = {"locale": "simple"}
# Each operation on the documents whose `x` is "PING", answering how many it matched.
Operation = Callable[[Any, dict[str, Any]], Awaitable[int]]


async def _find(coll: Any, collation: dict[str, Any]) -> int:
    return len(await coll.find({"x": "PING"}, collation=collation).to_list())


async def _aggregate(coll: Any, collation: dict[str, Any]) -> int:
    cursor = await coll.aggregate([{"$match": {"x": "PING"}}], collation=collation)
    return len(await cursor.to_list())


async def _count(coll: Any, collation: dict[str, Any]) -> int:
    return int(await coll.count_documents({"x": "PING"}, collation=collation))


async def _update(coll: Any, collation: dict[str, Any]) -> int:
    result = await coll.update_one({"x": "PING"}, {"$set": {"y": 1}}, collation=collation)
    return int(result.matched_count)


async def _delete(coll: Any, collation: dict[str, Any]) -> int:
    return int((await coll.delete_many({"x": "PING"}, collation=collation)).deleted_count)


async def _find_and_modify(coll: Any, collation: dict[str, Any]) -> int:
    found = await coll.find_one_and_update({"x": "PING"}, {"$set": {"y": 1}}, collation=collation)
    return int(found is not None)


OPERATIONS = [_find, _aggregate, _count, _update, _delete, _find_and_modify]


async def _coll(front: Front) -> Any:
    coll = front.collection("pings")
    await coll.insert_one({"_id": 1, "x": "ping"})
    return coll


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.__name__[1:])
async def test_a_caseless_collation_is_refused(front: Front, operation: Operation) -> None:
    coll = await _coll(front)
    with pytest.raises(OperationFailure) as raised:
        await operation(coll, CASELESS)
    assert raised.value.code == NOT_IMPLEMENTED
    assert f"{UNSUPPORTED_PREFIX} a collation" in str(raised.value)
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "x": "ping"}


BULK = [
    UpdateOne({"x": "PING"}, {"$set": {"y": 1}}, collation=CASELESS),
    DeleteOne({"x": "PING"}, collation=CASELESS),
]


@pytest.mark.parametrize("request_", BULK, ids=["update", "delete"])
async def test_a_bulk_operation_with_a_collation_is_refused(front: Front, request_: Any) -> None:
    coll = await _coll(front)
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write([request_])
    [error] = raised.value.details["writeErrors"]
    assert error["code"] == NOT_IMPLEMENTED
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "x": "ping"}


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.__name__[1:])
async def test_the_simple_collation_compares_binary(front: Front, operation: Operation) -> None:
    coll = await _coll(front)
    assert await operation(coll, SIMPLE) == 0  # "ping" is not "PING"


async def test_pymongos_collation_class_is_read_as_its_document(front: Front) -> None:
    coll = await _coll(front)
    assert await coll.find({"x": "ping"}, collation=Collation("simple")).to_list() != []
    with pytest.raises(OperationFailure) as raised:
        await coll.find({"x": "PING"}, collation=Collation("en_US", strength=2)).to_list()
    assert raised.value.code == NOT_IMPLEMENTED
