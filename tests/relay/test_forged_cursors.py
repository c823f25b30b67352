"""A cursor the server did not make is BAD_USER_INPUT "not a cursor of this list", for every
connection, and never reaches a query as anything but a value of the expected type."""

from __future__ import annotations

import base64
import json

import pytest

from tests.support import Api, assert_rejected


def forge(*elements: object) -> str:
    raw = json.dumps(list(elements)).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


SENSORS = "query($a: String, $o: SensorOrder) { sensors(after: $a, orderBy: $o) { totalCount } }"
ORDERS = """query($a: String, $b: String) { user(userId: "u") {
    orders(after: $a, before: $b) { totalCount } } }"""
TRADES = """query($a: String, $b: String) { customer(customerId: 7) {
    trades(after: $a, before: $b) { totalCount } } }"""
OBJECT_ID = "5a934e000102030405000000"


async def _seed(api: Api) -> None:
    await api.data('mutation { createSensor(title: "S") { id } }')
    await api.data(
        'mutation { upsertOrders(userId: "u", orders: [{id: "1", createTime: '
        '"2024-01-01T00:00:00Z"}]) { orderCount } }'
    )
    await api.data(
        'mutation { recordTrades(customerId: 7, trades: [{type: BUY, ticker: "T", qty: 1, '
        'date: "2024-01-01T00:00:00Z"}]) { pageNumbers } }'
    )


@pytest.mark.parametrize(
    ("order", "cursor"),
    [
        ("TITLE", forge("sensor:title", {"$ne": None}, OBJECT_ID)),
        ("TITLE", forge("sensor:title", {"$foo": 1}, OBJECT_ID)),
        ("TITLE", forge("sensor:title", 5, OBJECT_ID)),
        ("TITLE", forge("sensor:title", "", OBJECT_ID)),
        ("TITLE", forge("sensor:title", "S", "not-an-id")),
        ("TITLE", forge("sensor:title", "S", {"$gt": ""})),
        ("TITLE", forge("sensor:count24h", 1, OBJECT_ID)),  # a cursor of the other order
        ("COUNT_24H_DESC", forge("sensor:count24h", "5", OBJECT_ID)),
        ("COUNT_24H_DESC", forge("sensor:count24h", 1.5, OBJECT_ID)),
        ("COUNT_24H_DESC", forge("sensor:count24h", True, OBJECT_ID)),
        ("COUNT_24H_DESC", forge("sensor:count24h", -1, OBJECT_ID)),
        ("COUNT_24H_DESC", forge("sensor:count24h", {"$ne": None}, OBJECT_ID)),
        ("TITLE", "not base64!"),
        ("TITLE", base64.urlsafe_b64encode(b"[not json").decode()),
        ("TITLE", forge({"kind": "sensor:title"})),
        ("TITLE", base64.urlsafe_b64encode(b"[" * 700 + b"]" * 700).decode()),  # deep
        ("TITLE", base64.urlsafe_b64encode(b"[" * 6_000 + b"]" * 6_000).decode()),  # and long
        ("TITLE", forge("sensor:title", "x" * 2_000, OBJECT_ID)),
    ],
)
async def test_sensors_rejects_a_forged_cursor(api: Api, order: str, cursor: str) -> None:
    await _seed(api)
    body = await assert_rejected(
        api, SENSORS, {"a": cursor, "o": order}, code="BAD_USER_INPUT", argument="after"
    )
    assert "not a cursor of this list" in body["errors"][0]["message"]


@pytest.mark.parametrize(
    "cursor",
    [
        forge("order", 1e20, "x"),
        forge("order", 10**20, "x"),
        forge("order", 1704067200000.5, "1"),
        forge("order", "1704067200000", "1"),
        forge("order", 1704067200000, ""),
        forge("order", 1704067200000, "x" * 65),
        forge("order", 1704067200000, {"$gt": ""}),
        forge("order", 1704067200000, "\u0000"),
        forge("order", 1704067200000),
        forge("trade", 1, 0),
    ],
)
@pytest.mark.parametrize("argument", ["a", "b"])
async def test_orders_rejects_a_forged_cursor(api: Api, cursor: str, argument: str) -> None:
    await _seed(api)
    expected = {"a": "after", "b": "before"}[argument]
    await assert_rejected(api, ORDERS, {argument: cursor}, code="BAD_USER_INPUT", argument=expected)


@pytest.mark.parametrize(
    "cursor",
    [
        forge("trade", 2, 0),  # a page this customer does not have
        forge("trade", 1, 5),  # the page exists; it has one trade
        forge("trade", 0, 0),  # pages start at 1
        forge("trade", 1, -1),
        forge("trade", 1, 1.0),
        forge("trade", "7_1704067200", 0),  # a bucket id is not a page
        forge("trade", {"$gte": 1}, 0),
        forge("trade", True, 0),
        forge("order", 1704067200000, "1"),
    ],
)
@pytest.mark.parametrize("argument", ["a", "b"])
async def test_trades_rejects_a_forged_cursor(api: Api, cursor: str, argument: str) -> None:
    await _seed(api)
    expected = {"a": "after", "b": "before"}[argument]
    await assert_rejected(api, TRADES, {argument: cursor}, code="BAD_USER_INPUT", argument=expected)


async def test_a_real_cursor_of_each_list_is_accepted(api: Api) -> None:
    await _seed(api)
    await api.data(
        'mutation { recordTrades(customerId: 7, trades: [{type: BUY, ticker: "T", qty: 2, '
        'date: "2024-01-01T00:00:00Z"}]) { pageNumbers } }'
    )
    first = await api.data("{ customer(customerId: 7) { trades(first: 1) { edges { cursor } } } }")
    [edge] = first["customer"]["trades"]["edges"]
    after = await api.data(TRADES, {"a": edge["cursor"]})
    assert after["customer"]["trades"]["totalCount"] == 2


async def test_a_forged_trade_offset_does_not_make_the_page_read_more(api: Api) -> None:
    trades = [
        {"type": "BUY", "ticker": "T", "qty": q, "date": "2024-01-01T00:00:00Z"}
        for q in range(1, 101)
    ]
    await api.data(
        "mutation($t: [TradeInput!]!) { recordTrades(customerId: 7, trades: $t) { pageNumbers } }",
        {"t": trades},
    )
    first = await api.data("{ customer(customerId: 7) { trades(first: 1) { edges { cursor } } } }")
    [edge] = first["customer"]["trades"]["edges"]
    page = json.loads(base64.urlsafe_b64decode(edge["cursor"] + "=="))[1]
    api.commands.reset()
    await assert_rejected(
        api, TRADES, {"a": forge("trade", page, 2**31 - 1)}, code="BAD_USER_INPUT"
    )
    api.commands.reset()
    api.commands.count_reply_bytes = True
    body = await api.post(TRADES, {"a": forge("trade", page, 2**31 - 1)})
    assert body["errors"][0]["extensions"]["code"] == "BAD_USER_INPUT"
    assert api.commands.by_name["find"] == 1
    assert api.commands.reply_bytes < 5 * 1_000  # a few buckets of ten trades, not all ten
