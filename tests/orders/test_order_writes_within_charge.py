"""`upsertOrders` counts each order it is given (`UNITS_PER_ORDER`, and its info by its UTF-8
bytes, one unit per COST_VALUE_BYTES) and `deleteOrders` each order id, whatever they answer:
the orders a request writes are at most the units it is charged, and one alias past the cost
is refused before anything runs."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from schema.orders import UNITS_PER_ORDER
from settings import Settings
from store.orders import users as store
from tests.limits.support import cost_of
from tests.orders.support import DELETE, order
from tests.support import ApiFactory, error_codes

BATCH = [order(f"o{n}", n, "i" * 1_000) for n in range(100)]  # 1,000 bytes: 4 units each
ALIAS_COST = 1 + 1 + len(BATCH) * (UNITS_PER_ORDER + 4)  # the user, `orderCount`, the orders
LIMIT = 10_000
MOST = LIMIT // ALIAS_COST


def _aliases(count: int) -> str:
    fields = " ".join(
        f'a{i}: upsertOrders(userId: "u{i}", orders: $o) {{ orderCount }}' for i in range(count)
    )
    return f"mutation($o: [OrderInput!]!) {{ {fields} }}"


def _written(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The orders each upsert writes, from now on."""
    written: list[int] = []
    original = store.upsert_orders

    async def counting(*args: Any, orders: Any, **kwargs: Any) -> Any:
        written.append(len(orders))
        return await original(*args, orders=orders, **kwargs)

    monkeypatch.setattr(store, "upsert_orders", counting)
    return written


async def test_the_cost_counts_every_order_and_its_info_by_bytes(
    make_api: ApiFactory, settings: Settings
) -> None:
    orders = [order("a", 1, "i" * 300), order("b", 2), order("c", 3, "\u00e9" * 200)]
    infos = 2 + 0 + 2  # 300 bytes; none; 400 bytes
    assert await cost_of(make_api, settings, _aliases(1), {"o": orders}) == (
        1 + 1 + 3 * UNITS_PER_ORDER + infos  # the user, `orderCount`, the orders
    )
    ids = {"userId": "u", "ids": [f"o{n}" for n in range(12)]}
    assert await cost_of(make_api, settings, DELETE, ids) == 1 + 1 + 12  # an id each


async def test_the_most_aliases_allowed_write_no_more_orders_than_charged(
    make_api: ApiFactory, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert 1 <= MOST < 30  # the alias limit would allow thirty
    written = _written(monkeypatch)
    async with make_api(dataclasses.replace(settings, max_cost=LIMIT)) as api:
        data = await api.data(_aliases(MOST), {"o": BATCH})
        assert [data[f"a{i}"]["orderCount"] for i in range(MOST)] == [len(BATCH)] * MOST
        assert sum(written) == MOST * len(BATCH) <= MOST * ALIAS_COST
        written.clear()
        api.commands.reset()
        body = await api.post(_aliases(MOST + 1), {"o": BATCH})
        assert error_codes(body) == ["LIMIT_EXCEEDED"], body
        assert api.commands.count == 0 and written == []
