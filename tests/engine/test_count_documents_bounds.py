"""count_documents counts as PyMongo's aggregation does (`$match`, `$skip`, `$limit`, `$group`):
`skip` and `limit` bound the count, and a server's `$skip`/`$limit` refuse what they refuse."""

from __future__ import annotations

import pytest
from pymongo.errors import OperationFailure

from tests.engine.fronts import Front


@pytest.fixture
async def numbers(front: Front) -> object:
    coll = front.collection("numbers")
    await coll.insert_many([{"_id": i, "even": i % 2 == 0} for i in range(10)])
    return coll


async def test_skip_and_limit_bound_the_count(front: Front, numbers: object) -> None:
    coll = front.collection("numbers")
    assert await coll.count_documents({}) == 10
    assert await coll.count_documents({}, skip=3) == 7
    assert await coll.count_documents({}, limit=4) == 4
    assert await coll.count_documents({"even": True}, skip=1, limit=2) == 2
    assert await coll.count_documents({"even": True}, skip=4, limit=2) == 1
    assert await coll.count_documents({"even": True}, skip=20) == 0


async def test_a_limit_of_zero_is_refused_as_the_limit_stage_refuses_it(
    front: Front, numbers: object
) -> None:
    with pytest.raises(OperationFailure) as raised:
        await front.collection("numbers").count_documents({}, limit=0)
    assert raised.value.code == 15958


async def test_a_negative_skip_is_refused(front: Front, numbers: object) -> None:
    with pytest.raises(OperationFailure):
        await front.collection("numbers").count_documents({}, skip=-1)
