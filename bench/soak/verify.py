"""After the soak: every acknowledged write read back through GraphQL, and found exactly once.

Each check returns one line of what it found and the problems (an empty list: all there)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.client import GraphQLClient
from bench.soak.workload import OBSERVED_MEASUREMENT, Ledger, iso

Found = tuple[str, list[str]]

SENSOR_COUNT = "query($id: ID!) { sensor(id: $id) { count24h } }"
USER_ORDERS = """query($u: String!, $after: String) { user(userId: $u) { orderCount
    orders(first: 100, after: $after) { edges { node { orderId } }
    pageInfo { hasNextPage endCursor } } } }"""
CUSTOMER_TRADES = """query($c: Int!, $after: String) { customer(customerId: $c) { tradeCount
    trades(first: 100, after: $after) { edges { node { qty } }
    pageInfo { hasNextPage endCursor } } } }"""
SESSION_MESSAGES = """query($id: ID!, $after: String) { chatSession(id: $id) { messageCount
    messages(first: 100, after: $after) { edges { node { messageId seq } }
    pageInfo { hasNextPage endCursor } } } }"""
SERIES_TOTAL = """query($m: String!, $from: DateTime!, $to: DateTime!, $g: String!) {
    seriesTotal(measurement: $m, from: $from, to: $to, fields: ["n"],
    tags: [{key: "group", value: $g}]) { name count sum } }"""


def _compare(what: str, acknowledged: Iterable[object], stored: Iterable[object]) -> list[str]:
    """Problems unless every acknowledged identity is stored once and nothing else is."""
    expected, found = Counter(acknowledged), Counter(stored)
    missing = sorted(str(key) for key in expected if key not in found)
    doubled = sorted(str(key) for key, times in found.items() if times > 1)
    unknown = sorted(str(key) for key in found if key not in expected)
    problems = []
    for label, keys in (("missing", missing), ("stored twice", doubled), ("never sent", unknown)):
        if keys:
            problems.append(f"{what}: {len(keys)} {label}, e.g. {', '.join(keys[:5])}")
    return problems


async def _walk(
    client: GraphQLClient, query: str, variables: dict[str, Any], root: str, connection: str
) -> tuple[dict[str, Any] | None, list[dict[str, Any]]]:
    """The root object and every node of its connection, page after page."""
    nodes: list[dict[str, Any]] = []
    after: str | None = None
    while True:
        data = await client.call(query, {**variables, "after": after})
        owner: dict[str, Any] | None = data[root]
        if owner is None:
            return None, nodes
        page = owner[connection]
        nodes.extend(edge["node"] for edge in page["edges"])
        if not page["pageInfo"]["hasNextPage"]:
            return owner, nodes
        after = page["pageInfo"]["endCursor"]


async def sensor_events(client: GraphQLClient, ledger: Ledger) -> Found:
    problems = []
    for sensor, acknowledged in ledger.events.items():
        stored = (await client.call(SENSOR_COUNT, {"id": sensor}))["sensor"]["count24h"]
        if stored != acknowledged:
            problems.append(f"sensor {sensor}: count24h {stored}, acknowledged {acknowledged}")
    total = sum(ledger.events.values())
    return f"{len(ledger.events)} sensors, {total:,} acknowledged events", problems


async def orders(client: GraphQLClient, ledger: Ledger) -> Found:
    problems = []
    for user, acknowledged in ledger.orders.items():
        owner, nodes = await _walk(client, USER_ORDERS, {"u": user}, "user", "orders")
        if owner is None:
            problems.append(f"user {user}: not found")
            continue
        stored = [node["orderId"] for node in nodes]
        problems += _compare(f"user {user} orders", acknowledged, stored)
        if owner["orderCount"] != len(acknowledged):
            problems.append(f"user {user}: orderCount {owner['orderCount']}, "
                            f"acknowledged {len(acknowledged)}")  # fmt: skip
    total = sum(len(ids) for ids in ledger.orders.values())
    return f"{len(ledger.orders)} users, {total:,} acknowledged orders", problems


async def trades(client: GraphQLClient, ledger: Ledger) -> Found:
    problems = []
    for customer, acknowledged in ledger.trades.items():
        owner, nodes = await _walk(client, CUSTOMER_TRADES, {"c": customer}, "customer", "trades")
        if owner is None:
            problems.append(f"customer {customer}: not found")
            continue
        problems += _compare(f"customer {customer} trades", acknowledged, [n["qty"] for n in nodes])
        if owner["tradeCount"] != len(acknowledged):
            problems.append(f"customer {customer}: tradeCount {owner['tradeCount']}, "
                            f"acknowledged {len(acknowledged)}")  # fmt: skip
    total = sum(len(quantities) for quantities in ledger.trades.values())
    return f"{len(ledger.trades)} customers, {total:,} acknowledged trades", problems


async def messages(client: GraphQLClient, ledger: Ledger) -> Found:
    problems = []
    for session, acknowledged in ledger.messages.items():
        variables = {"id": session}
        owner, nodes = await _walk(client, SESSION_MESSAGES, variables, "chatSession", "messages")
        if owner is None:
            problems.append(f"session {session}: not found")
            continue
        problems += _compare(
            f"session {session} messages", acknowledged, [n["messageId"] for n in nodes]
        )
        if [node["seq"] for node in nodes] != list(range(1, len(nodes) + 1)):
            problems.append(f"session {session}: seq is not 1, 2, 3... without gaps")
        if owner["messageCount"] != len(acknowledged):
            problems.append(f"session {session}: messageCount {owner['messageCount']}, "
                            f"acknowledged {len(acknowledged)}")  # fmt: skip
    total = sum(len(ids) for ids in ledger.messages.values())
    return f"{len(ledger.messages)} sessions, {total:,} acknowledged messages", problems


async def observations(client: GraphQLClient, ledger: Ledger, since: datetime) -> Found:
    problems = []
    arguments = {
        "from": iso(since - timedelta(hours=1)),
        "to": iso(datetime.now(UTC) + timedelta(hours=1)),
        "m": OBSERVED_MEASUREMENT,
    }
    for tag, acknowledged in ledger.observations.items():
        (total,) = (await client.call(SERIES_TOTAL, {**arguments, "g": tag}))["seriesTotal"]
        # Each observation adds 1 to `n`: its count and its sum both say how many were stored.
        if (total["count"], total["sum"]) != (acknowledged, float(acknowledged)):
            problems.append(f"group {tag}: count {total['count']}, sum {total['sum']}, "
                            f"acknowledged {acknowledged}")  # fmt: skip
    total_acknowledged = sum(ledger.observations.values())
    return (
        f"{len(ledger.observations)} tag sets, {total_acknowledged:,} acknowledged observations",
        problems,
    )


async def verify(client: GraphQLClient, ledger: Ledger, since: datetime) -> dict[str, Found]:
    return {
        "sensor events": await sensor_events(client, ledger),
        "orders": await orders(client, ledger),
        "trades": await trades(client, ledger),
        "chat messages": await messages(client, ledger),
        "observations": await observations(client, ledger, since),
    }
