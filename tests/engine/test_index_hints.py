"""A `hint` that names no index fails as on a server (BadValue, "hint provided does not
correspond to an existing index") in every operation that takes one; a hint naming an index, by
name or by key pattern, or `$natural`, reads as any other."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from pymongo import DeleteOne, IndexModel, UpdateOne
from pymongo.errors import BulkWriteError, OperationFailure

from embedded.rules import BAD_VALUE
from tests.engine.fronts import Front

MESSAGE = "hint provided does not correspond to an existing index"
# Each operation on the document `{x: 1}` with a hint, answering how many it matched.
Operation = Callable[[Any, Any], Awaitable[int]]


async def _find(coll: Any, hint: Any) -> int:
    return len(await coll.find({"x": 1}, hint=hint).to_list())


async def _aggregate(coll: Any, hint: Any) -> int:
    return len(await (await coll.aggregate([{"$match": {"x": 1}}], hint=hint)).to_list())


async def _count(coll: Any, hint: Any) -> int:
    return int(await coll.count_documents({"x": 1}, hint=hint))


async def _update(coll: Any, hint: Any) -> int:
    return int((await coll.update_one({"x": 1}, {"$set": {"y": 1}}, hint=hint)).matched_count)


async def _delete(coll: Any, hint: Any) -> int:
    return int((await coll.delete_one({"x": 1}, hint=hint)).deleted_count)


async def _find_and_modify(coll: Any, hint: Any) -> int:
    found = await coll.find_one_and_update({"x": 1}, {"$set": {"y": 1}}, hint=hint)
    return int(found is not None)


OPERATIONS = [_find, _aggregate, _count, _update, _delete, _find_and_modify]
MISSING = ["y_1", [("y", 1)], [("x", -1)]]
EXISTING = ["x_1", [("x", 1)], "_id_", [("_id", 1)], [("$natural", 1)]]


async def _coll(front: Front) -> Any:
    coll = front.collection("hinted")
    await coll.create_indexes([IndexModel([("x", 1)])])
    await coll.insert_one({"_id": 1, "x": 1})
    return coll


@pytest.mark.parametrize("hint", MISSING, ids=str)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.__name__[1:])
async def test_a_hint_naming_no_index_is_bad_value(
    front: Front, operation: Operation, hint: Any
) -> None:
    coll = await _coll(front)
    with pytest.raises(OperationFailure) as raised:
        await operation(coll, hint)
    assert raised.value.code == BAD_VALUE
    assert MESSAGE in str(raised.value)
    assert await coll.find_one({"_id": 1}) == {"_id": 1, "x": 1}


@pytest.mark.parametrize("request_", ["update", "delete"])
async def test_a_bulk_operation_hinting_no_index_is_a_write_error(
    front: Front, request_: str
) -> None:
    coll = await _coll(front)
    op: Any = DeleteOne({"x": 1}, hint="y_1")
    if request_ == "update":
        op = UpdateOne({"x": 1}, {"$set": {"y": 1}}, hint="y_1")
    with pytest.raises(BulkWriteError) as raised:
        await coll.bulk_write([op])
    [error] = raised.value.details["writeErrors"]
    assert (error["code"], error["errmsg"]) == (BAD_VALUE, MESSAGE)


@pytest.mark.parametrize("hint", EXISTING, ids=str)
@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: op.__name__[1:])
async def test_a_hint_naming_an_index_reads_as_any_other(
    front: Front, operation: Operation, hint: Any
) -> None:
    coll = await _coll(front)
    assert await operation(coll, hint) == 1
