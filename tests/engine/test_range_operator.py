"""`$range` as a server evaluates it (`embedded/expressions/range_operator.py`): its numbers, and
its errors for bounds or steps that are no 32-bit integers."""

from __future__ import annotations

from typing import Any

import pytest
from pymongo.errors import OperationFailure

from tests.engine.fronts import Front


async def _range(front: Front, arguments: list[Any]) -> Any:
    things = front.collection("things")
    await things.insert_one({"_id": 1, "n": 4})
    pipeline = [{"$project": {"_id": 0, "r": {"$range": arguments}}}]
    [found] = await (await things.aggregate(pipeline)).to_list()
    return found["r"]


@pytest.mark.parametrize(
    ("arguments", "numbers"),
    [
        ([0, "$n"], [0, 1, 2, 3]),
        ([0, 10, 3], [0, 3, 6, 9]),
        ([5, 0, -2], [5, 3, 1]),
        ([2.0, 4], [2, 3]),
        ([3, 3], []),
    ],
)
async def test_range_operator_gives_its_numbers(
    front: Front, arguments: list[Any], numbers: list[int]
) -> None:
    assert await _range(front, arguments) == numbers


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        (["a", 3], 34443),
        ([0.5, 3], 34444),
        ([0, None], 34445),
        ([0, 2**31], 34446),
        ([0, 3, "1"], 34447),
        ([0, 3, 0], 34449),
        ([0], 28667),
    ],
)
async def test_range_operator_refuses_what_a_server_refuses(
    front: Front, arguments: list[Any], code: int
) -> None:
    with pytest.raises(OperationFailure) as raised:
        await _range(front, arguments)
    assert raised.value.code == code
