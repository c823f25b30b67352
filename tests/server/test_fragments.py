"""Every connection and payload answers the same through named and inline fragments.

Resolvers decide what to fetch from the selection (`totalCount`, a payload's `sensors`, an
`orders` page brought along with its user); each case below selects the same fields plainly,
through a named fragment, and through an inline fragment, and the three answers must be equal.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from bson import ObjectId

from settings import Settings
from tests.support import Api, ApiFactory

SENSOR_ID = ObjectId("5a934e000102030405000009")
BASE = datetime(2022, 9, 12, 12, 0, tzinfo=UTC)


def _three_ways(operation: str, type_name: str, fields: str) -> list[str]:
    """The operation with `{ ... }` selecting `fields` plainly, by `...F`, by `... on T`."""
    return [
        operation.replace("SELECTION", fields),
        operation.replace("SELECTION", "...F") + f" fragment F on {type_name} {{ {fields} }}",
        operation.replace("SELECTION", f"... on {type_name} {{ {fields} }}"),
    ]


async def _seed(api: Api) -> None:
    await api.collection("sensors").insert_one({"_id": SENSOR_ID, "title": "S", "totals": []})
    orders = [
        {"_id": f"o{i:02}", "info": "x", "createTime": BASE - timedelta(minutes=i)}
        for i in range(30)
    ]
    await api.collection("users").insert_one({"userId": "u", "orderList": orders})
    trades = [
        {"type": "BUY", "ticker": "T", "qty": q, "date": f"2024-01-01T00:00:{q:02}Z"}
        for q in range(1, 26)
    ]
    await api.data(
        "mutation($t: [TradeInput!]!) { recordTrades(customerId: 7, trades: $t) { pageNumbers } }",
        {"t": trades},
    )


CONNECTION = "totalCount edges { cursor node { __typename } } pageInfo { hasNextPage endCursor }"
QUERIES = [
    (
        '{ user(userId: "u") { orders(first: 2, maxCreateTime: "2022-09-12T11:50:00Z") '
        "{ SELECTION } } }",
        "OrderConnection",
        CONNECTION,
    ),
    ('{ user(userId: "u") { orders(last: 3) { SELECTION } } }', "OrderConnection", CONNECTION),
    (
        "{ customer(customerId: 7) { trades(first: 4) { SELECTION } } }",
        "TradeConnection",
        CONNECTION,
    ),
    (
        "{ customer(customerId: 7) { trades(last: 4) { SELECTION } } }",
        "TradeConnection",
        CONNECTION,
    ),
    ("{ customer(customerId: 7) { SELECTION } }", "Customer", "tradeCount pageCount"),
    ("{ sensors(first: 1) { SELECTION } }", "SensorConnection", CONNECTION),
    (
        '{ users(userIds: ["u", "v"]) { SELECTION } }',
        "User",
        "userId orderCount orders(first: 3) { totalCount edges { node { id } } }",
    ),
    (
        '{ user(userId: "u") { SELECTION } }',
        "User",
        'orders(first: 2, maxCreateTime: "2022-09-12T11:40:00Z") { totalCount }',
    ),
]


@pytest.mark.parametrize(("operation", "type_name", "fields"), QUERIES)
async def test_query_through_fragments_answers_as_the_plain_selection(
    api: Api, operation: str, type_name: str, fields: str
) -> None:
    await _seed(api)
    plain, named, inline = [await api.data(q) for q in _three_ways(operation, type_name, fields)]
    assert plain == named == inline
    if "totalCount" in fields:  # every seeded list has orders, trades or sensors
        assert _totals(plain)
        assert all(total > 0 for total in _totals(plain))


def _totals(value: Any) -> list[Any]:
    """Every totalCount in an answer (none of the seeded lists is empty)."""
    if isinstance(value, dict):
        found = [value["totalCount"]] if "totalCount" in value else []
        return found + [t for v in value.values() for t in _totals(v)]
    if isinstance(value, list):
        return [t for v in value for t in _totals(v)]
    return []


async def test_user_page_selected_through_a_fragment_is_read_with_the_user(api: Api) -> None:
    await _seed(api)
    operation = '{ user(userId: "u") { SELECTION } }'
    for query in _three_ways(operation, "User", "orders(first: 5) { totalCount }"):
        assert await api.round_trips(query) == 1


MUTATIONS = [
    (
        'mutation { recordSensorEvents(events: [{sensorId: "5a934e000102030405000009", '
        'at: "2022-09-12T12:30:00Z", count: 3}]) { SELECTION } }',
        "RecordSensorEventsPayload",
        "accepted rejected { index } sensors { id count24h }",
        "'count24h': 3",
    ),
    (
        'mutation { recordTrades(customerId: 7, trades: [{type: SELL, ticker: "T", qty: 9, '
        'date: "2024-02-01T00:00:00Z"}]) { SELECTION } }',
        "RecordTradesPayload",
        "pageNumbers customer { tradeCount pageCount trades(last: 2) { totalCount } }",
        "'trades': {'totalCount': 26}",
    ),
    (
        'mutation { upsertOrders(userId: "u", orders: [{id: "new", '
        'createTime: "2022-09-12T12:05:00Z"}]) { SELECTION } }',
        "User",
        "orderCount orders(first: 2) { totalCount edges { node { orderId } } }",
        "'totalCount': 31, 'edges': [{'node': {'orderId': 'new'}}",
    ),
    (
        'mutation { deleteOrders(userId: "u", orderIds: ["o00"]) { SELECTION } }',
        "User",
        "orderCount orders(last: 1) { totalCount edges { node { orderId } } }",
        "'totalCount': 29, 'edges': [{'node': {'orderId': 'o29'}}",
    ),
]


@pytest.mark.parametrize(("operation", "type_name", "fields", "evidence"), MUTATIONS)
async def test_payload_through_fragments_answers_as_the_plain_selection(
    make_api: ApiFactory, operation: str, type_name: str, fields: str, evidence: str
) -> None:
    answers = []
    for query in _three_ways(operation, type_name, fields):
        async with make_api(Settings()) as api:  # the same data for each, written once each
            await _seed(api)
            answers.append(await api.data(query))
    assert answers[0] == answers[1] == answers[2]
    assert evidence in str(answers[0])


async def test_fragment_spread_inside_a_fragment_is_seen(api: Api) -> None:
    await _seed(api)
    query = """
      { user(userId: "u") { orders(first: 1) { ...Outer } } }
      fragment Outer on OrderConnection { ... on OrderConnection { ...Inner } }
      fragment Inner on OrderConnection { totalCount }
    """
    assert await api.data(query) == {"user": {"orders": {"totalCount": 30}}}
