"""`$rand` gives each evaluation a double in [0, 1), as MongoDB 8.0 does (in a stage and as a
`let` value), and takes no argument."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo.errors import OperationFailure

from tests.engine.fronts import Front


async def _coll(front: Front) -> Any:
    coll = front.collection("dice")
    await coll.insert_many([{"_id": n} for n in range(20)])
    return coll


async def test_rand_is_a_double_in_zero_to_one_for_each_document(front: Front) -> None:
    coll = await _coll(front)
    found = await (await coll.aggregate([{"$project": {"r": {"$rand": {}}}}])).to_list()
    values = [doc["r"] for doc in found]
    assert all(type(value) is float and 0 <= value < 1 for value in values)
    assert len(set(values)) > 1


async def test_rand_as_a_let_value_is_one_double(front: Front) -> None:
    coll = await _coll(front)
    stages = [{"$limit": 2}, {"$project": {"_id": 0, "r": "$$r"}}]
    found = await (await coll.aggregate(stages, let={"r": {"$rand": {}}})).to_list()
    [first, second] = [doc["r"] for doc in found]
    assert type(first) is float and 0 <= first < 1
    assert first == second


async def test_rand_with_an_argument_fails(front: Front) -> None:
    coll = await _coll(front)
    with pytest.raises(OperationFailure) as raised:
        await (await coll.aggregate([{"$project": {"r": {"$rand": {"seed": 1}}}}])).to_list()
    assert "$rand does not currently accept arguments" in str(raised.value)
