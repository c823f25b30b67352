"""Order cursors name a time exactly, to the millisecond, before and after 1970.

A cursor once held `int(timestamp * 1000)`, a float product that is 1 ms early for about 1 %
of millisecond values (late before 1970): orders sharing such a time were skipped walking
forward and repeated forever walking backward.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.orders.support import PAGE, UPSERT
from tests.support import Api, walk

# 1987-02-07T00:30:25.879Z: timestamp() * 1000 is 539656225878.99994.
TIMES = ["1987-02-07T00:30:25.879Z", "1969-07-20T20:17:40.123Z", "1900-01-01T00:00:00.001Z"]


async def _orders_at(api: Api, moment: str) -> None:
    orders = [{"id": order_id, "createTime": moment} for order_id in ("a", "b", "c")]
    orders += [{"id": "later", "createTime": "2030-01-01T00:00:00Z"}]
    await api.data(UPSERT, {"userId": "u", "orders": orders})


def _fetch(api: Api, **arguments: Any) -> Any:
    async def fetch(cursor: str | None) -> dict[str, Any]:
        key = "after" if "first" in arguments else "before"
        data = await api.data(PAGE, {"userId": "u", **arguments, key: cursor})
        connection: dict[str, Any] = data["user"]["orders"]
        return connection

    return fetch


@pytest.mark.parametrize("moment", TIMES)
async def test_orders_walked_forward_one_by_one_are_each_seen_once(api: Api, moment: str) -> None:
    await _orders_at(api, moment)
    nodes = await walk(_fetch(api, first=1))
    assert [n["orderId"] for n in nodes] == ["later", "c", "b", "a"]
    assert {n["createTime"] for n in nodes[1:]} == {moment}


@pytest.mark.parametrize("moment", TIMES)
async def test_orders_walked_backward_one_by_one_are_each_seen_once(api: Api, moment: str) -> None:
    await _orders_at(api, moment)
    nodes = await walk(_fetch(api, last=1), backward=True)
    assert [n["orderId"] for n in nodes] == ["later", "c", "b", "a"]
