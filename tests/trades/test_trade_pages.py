"""Pages by number, and the trades connection walking buckets by page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import Api, error_codes
from tests.trades.support import PAGE, RECORD, TRADES, trade


async def _customer(api: Api, count: int, customer_id: int = 7) -> None:
    for start in range(0, count, 100):
        batch = [trade(q) for q in range(start + 1, min(start + 100, count) + 1)]
        await api.data(RECORD, {"c": customer_id, "t": batch})


async def _page(api: Api, **variables: Any) -> dict[str, Any]:
    data = await api.data(TRADES, {"c": 7, **variables})
    connection: dict[str, Any] = data["customer"]["trades"]
    return connection


def _qtys(connection: dict[str, Any]) -> list[int]:
    return [edge["node"]["qty"] for edge in connection["edges"]]


async def test_page_by_number_and_past_the_end(api: Api) -> None:
    await _customer(api, 25)
    third = (await api.data(PAGE, {"c": 7, "n": 3}))["customer"]["page"]
    assert [t["qty"] for t in third["trades"]] == [21, 22, 23, 24, 25]
    assert third["hasNextPage"] is False
    second = (await api.data(PAGE, {"c": 7, "n": 2}))["customer"]["page"]
    assert (second["number"], second["hasNextPage"]) == (2, True)
    assert (await api.data(PAGE, {"c": 7, "n": 4}))["customer"]["page"] is None


async def test_page_number_below_1_is_bad_input(api: Api) -> None:
    await _customer(api, 1)
    assert error_codes(await api.post(PAGE, {"c": 7, "n": 0})) == ["BAD_USER_INPUT"]


async def test_customer_without_trades_is_null(api: Api) -> None:
    assert (await api.data(PAGE, {"c": 8, "n": 1}))["customer"] is None


async def test_trades_walk_forward_sees_each_trade_once_in_insertion_order(api: Api) -> None:
    await _customer(api, 237)
    seen: list[int] = []
    after = None
    while True:
        page = await _page(api, first=30, after=after)
        assert page["totalCount"] == 237
        seen += _qtys(page)
        if not page["pageInfo"]["hasNextPage"]:
            break
        after = page["pageInfo"]["endCursor"]
    assert seen == list(range(1, 238))


async def test_trades_walk_backward_reads_newest_first(api: Api) -> None:
    await _customer(api, 95)
    seen: list[int] = []
    before = None
    while True:
        page = await _page(api, last=20, before=before)
        seen = _qtys(page) + seen
        if not page["pageInfo"]["hasPreviousPage"]:
            break
        before = page["pageInfo"]["startCursor"]
    assert seen == list(range(1, 96))


async def test_trades_cursor_survives_new_trades(api: Api) -> None:
    await _customer(api, 15)
    first = await _page(api, first=12)
    await _customer(api, 3)  # three more trades, qty 1..3 again, appended
    rest = await _page(api, first=100, after=first["pageInfo"]["endCursor"])
    assert _qtys(rest) == [13, 14, 15, 1, 2, 3]


@pytest.mark.parametrize("cursor", ["junk", "WyJ0cmFkZSIsIjhfMTcwNDA2NzIwMSIsMF0"])
async def test_trades_rejects_a_malformed_or_foreign_cursor(api: Api, cursor: str) -> None:
    await _customer(api, 3)
    body = await api.post(TRADES, {"c": 7, "after": cursor})
    assert error_codes(body) == ["BAD_USER_INPUT"]
