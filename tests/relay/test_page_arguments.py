"""Every connection checks `first/after/last/before` with one set of rules and messages."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import Api, error_codes

CONNECTIONS = {
    "orders": """query($first: Int, $after: String, $last: Int, $before: String) {
        user(userId: "u") { orders(first: $first, after: $after, last: $last, before: $before)
        { totalCount } } }""",
    "trades": """query($first: Int, $after: String, $last: Int, $before: String) {
        customer(customerId: 7) { trades(first: $first, after: $after, last: $last,
        before: $before) { totalCount } } }""",
}
SENSORS = "query($first: Int) { sensors(first: $first) { totalCount } }"
RULES = [
    ({"first": -1}, "first", "first: must not be negative, got -1"),
    ({"first": 101}, "first", "first: at most 100, got 101"),
    ({"last": 101}, "last", "last: at most 100, got 101"),
    ({"first": 1, "last": 1}, "last", "first and last: give one of them, not both"),
    ({"after": "x", "before": "y"}, "before", "after and before: give one of them, not both"),
    ({"first": 1, "before": "y"}, "first", "first: page forward (first/after) or backward"),
]


async def _seed(api: Api) -> None:
    await api.data(
        'mutation { upsertOrders(userId: "u", orders: [{id: "1", createTime: '
        '"2024-01-01T00:00:00Z"}]) { orderCount } }'
    )
    await api.data(
        'mutation { recordTrades(customerId: 7, trades: [{type: BUY, ticker: "T", qty: 1, '
        'date: "2024-01-01T00:00:00Z"}]) { pageNumbers } }'
    )


@pytest.mark.parametrize("connection", sorted(CONNECTIONS))
@pytest.mark.parametrize(("arguments", "argument", "message"), RULES)
async def test_page_arguments_break_the_same_rule_with_the_same_message(
    api: Api, connection: str, arguments: dict[str, Any], argument: str, message: str
) -> None:
    await _seed(api)
    body = await api.post(CONNECTIONS[connection], arguments)
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["extensions"]["argument"] == argument
    assert body["errors"][0]["message"].startswith(message)


@pytest.mark.parametrize(("first", "message"), [(-1, RULES[0][2]), (101, RULES[1][2])])
async def test_sensors_page_size_follows_the_same_rules(api: Api, first: int, message: str) -> None:
    body = await api.post(SENSORS, {"first": first})
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert body["errors"][0]["message"] == message


@pytest.mark.parametrize("connection", sorted(CONNECTIONS))
async def test_no_page_size_gives_a_page_and_zero_an_empty_one(api: Api, connection: str) -> None:
    await _seed(api)
    empty = await api.data(
        CONNECTIONS[connection].replace("totalCount", "edges { cursor }"), {"first": 0}
    )
    assert str(empty).count("'edges': []") == 1
