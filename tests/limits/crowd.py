"""A crowded database and, for every root field, a request at its limits' edges over it:
pages at their largest, lists of ids at their longest, batches at their biggest, over more
documents than any one request may name (`tests/limits/test_examined_within_charge.py`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from settings import MAX_NODES_PER_QUERY, MAX_PAGE_SIZE, MAX_TRADES_PER_CALL, MAX_USERS_PER_QUERY
from tests.orders.support import order, seed_orders
from tests.support import Api

SENSORS, USERS, CUSTOMERS, SESSIONS, TAG_SETS = 120, 120, 12, 12, 60
MESSAGES = 30  # in pages of MESSAGES_PER_PAGE: many pages
MESSAGES_PER_PAGE = 5
ORDERS = 600  # the user "u"'s: more than a page, and than a call may write
NOW = "2022-09-12T12:30:00Z"  # within the last 24 hours of the tests' clock


@dataclass
class Crowd:
    """The ids the requests name."""

    sensors: list[str] = field(default_factory=list)
    user_node: str = ""
    order_nodes: list[str] = field(default_factory=list)
    session: str = ""
    message_ids: list[str] = field(default_factory=list)


async def _sensors(api: Api, crowd: Crowd) -> None:
    for batch in range(0, SENSORS, 20):  # within the aliases a request may have
        titles = range(batch, min(batch + 20, SENSORS))
        made = " ".join(f's{i}: createSensor(title: "t{i:03}") {{ sensorId }}' for i in titles)
        data = await api.data(f"mutation {{ {made} }}")
        crowd.sensors += [data[f"s{i}"]["sensorId"] for i in titles]
    events = [{"sensorId": s, "value": 1.0, "at": NOW} for s in crowd.sensors]
    await api.data(
        "mutation($e: [SensorEventInput!]!) { recordSensorEvents(events: $e) { accepted } }",
        {"e": events},
    )


async def _users(api: Api, crowd: Crowd) -> None:
    await seed_orders(api, "u", ORDERS)
    orders = [order(str(n), n) for n in range(3)]
    await api.collection("users").insert_many(
        [{"userId": f"user{n}", "userType": "C", "orderList": []} for n in range(USERS)]
    )
    for n in range(3):  # a few through the API, so that they read as it writes them
        await api.data(
            "mutation($u: String!, $o: [OrderInput!]!) { upsertOrders(userId: $u, orders: $o) "
            "{ orderCount } }",
            {"u": f"user{n}", "o": orders},
        )
    data = await api.data(
        f'{{ user(userId: "u") {{ id orders(first: {MAX_NODES_PER_QUERY}) '
        "{ edges { node { id } } } } }"
    )
    crowd.user_node = data["user"]["id"]
    crowd.order_nodes = [e["node"]["id"] for e in data["user"]["orders"]["edges"]]


async def _trades(api: Api) -> None:
    trades = [
        {"type": "BUY", "ticker": "MDB", "qty": n + 1, "date": "2024-01-01T00:00:00Z"}
        for n in range(MAX_TRADES_PER_CALL)
    ]
    call = (
        "mutation($c: Int!, $t: [TradeInput!]!) { recordTrades(customerId: $c, trades: $t) "
        "{ pageNumbers } }"
    )
    for customer in range(1, CUSTOMERS + 1):
        await api.data(call, {"c": customer, "t": trades[: 100 if customer == 1 else 3]})


async def _series(api: Api) -> None:
    observations = [
        {
            "measurement": "m",
            "at": f"2024-01-0{1 + n % 2}T{n % 24:02}:30:00Z",
            "tags": [{"key": "site", "value": f"s{n}"}],
            "fields": [{"name": "v", "value": 1.0}, {"name": "w", "value": 2.0}],
        }
        for n in range(TAG_SETS)
    ]
    observations += [
        {"measurement": f"other{n}", "at": "2024-01-01T00:00:00Z", "tags": [],
         "fields": [{"name": "v", "value": 1.0}]}
        for n in range(20)
    ]  # fmt: skip
    await api.data(
        "mutation($o: [ObservationInput!]!) { recordObservations(observations: $o) { applied } }",
        {"o": observations},
    )


async def _chat(api: Api, crowd: Crowd) -> None:
    create = "mutation($t: String!) { createChatSession(title: $t) { sessionId } }"
    for n in range(SESSIONS):
        data = await api.data(create, {"t": f"session {n}"})
        crowd.session = crowd.session or data["createChatSession"]["sessionId"]
    post = (
        'mutation($s: ID!, $x: String!) { postMessage(sessionId: $s, author: "ada", '
        "text: $x) { messageId } }"
    )
    for n in range(MESSAGES):
        data = await api.data(post, {"s": crowd.session, "x": f"message {n}"})
        crowd.message_ids.append(data["postMessage"]["messageId"])


async def seed_crowd(api: Api) -> Crowd:
    crowd = Crowd()
    await _sensors(api, crowd)
    await _users(api, crowd)
    await _trades(api)
    await _series(api)
    await _chat(api, crowd)
    return crowd


Request = tuple[str, dict[str, Any]]
SENSOR = "sensorId title count24h stats24h { count sum } hourly { hour count sum }"
ORDERS_PAGE = f"orders(first: {MAX_PAGE_SIZE}) {{ edges {{ node {{ orderId info }} }} }}"
MESSAGES_PAGE = f"messages(last: {MAX_PAGE_SIZE}) {{ edges {{ node {{ seq text }} }} }}"
STATS = "name sum count"
FULL_RANGE = 'from: "1900-01-01T00:00:00Z", to: "3000-01-01T00:00:00Z"'


def _queries(c: Crowd) -> dict[str, Request]:
    return {
        "node": (f'{{ node(id: "{c.user_node}") {{ ... on User {{ {ORDERS_PAGE} }} }} }}', {}),
        "nodes": ("query($i: [ID!]!) { nodes(ids: $i) { id } }", {"i": c.order_nodes}),
        "sensor": (f'{{ sensor(id: "{c.sensors[-1]}") {{ {SENSOR} }} }}', {}),
        "sensors": (
            f"{{ sensors(first: {MAX_PAGE_SIZE}, orderBy: TITLE) {{ edges {{ node {{ {SENSOR} "
            "} } } }",
            {},
        ),
        "user": (f'{{ user(userId: "u") {{ {ORDERS_PAGE} }} }}', {}),
        "users": (
            "query($u: [String!]!) { users(userIds: $u) { userId orders(first: 3) "
            "{ edges { node { orderId } } } } }",
            {"u": [f"user{n}" for n in range(MAX_USERS_PER_QUERY)]},
        ),
        "customer": (
            f"{{ customer(customerId: 1) {{ page(number: 5) {{ number }} trades(first: "
            f"{MAX_PAGE_SIZE}) {{ edges {{ node {{ qty }} }} }} }} }}",
            {},
        ),
        "series": (
            '{ series(measurement: "m", from: "2024-01-01T00:00:00Z", '
            'to: "2024-01-03T00:00:00Z", granularity: HOUR, fields: ["v", "w"]) '
            f"{{ start values {{ {STATS} }} }} }}",
            {},
        ),
        "seriesTotal": (f'{{ seriesTotal(measurement: "m", {FULL_RANGE}) {{ {STATS} }} }}', {}),
        "measurements": (
            '{ measurements(first: 40) { name tagValues(key: "site", first: 1000) } }',
            {},
        ),
        "measurement": ('{ measurement(name: "m") { fields tagKeys } }', {}),
        "chatSession": (f'{{ chatSession(id: "{c.session}") {{ {MESSAGES_PAGE} }} }}', {}),
        "chatSessions": (
            f"{{ chatSessions(first: {MAX_PAGE_SIZE}) {{ edges {{ node {{ title }} }} }} }}",
            {},
        ),
    }


def _batches(c: Crowd) -> dict[str, Request]:
    """The ingestion mutations, each with its largest batch."""
    events = [
        {"sensorId": c.sensors[n % len(c.sensors)], "value": 2.0, "at": NOW} for n in range(1_000)
    ]
    many = [order(f"n{n}", n) for n in range(500)]
    trades = [
        {"type": "SELL", "ticker": "X", "qty": n + 1, "date": "2024-02-01T00:00:00Z"}
        for n in range(MAX_TRADES_PER_CALL)
    ]
    observations = [
        {"measurement": "m", "at": f"2024-01-01T{n % 24:02}:00:00Z",
         "tags": [{"key": "site", "value": f"s{n % TAG_SETS}"}],
         "fields": [{"name": "v", "value": 1.0}]}
        for n in range(1_000)
    ]  # fmt: skip
    return {
        "recordSensorEvents": (
            "mutation($e: [SensorEventInput!]!) { recordSensorEvents(events: $e) "
            f"{{ accepted sensors {{ {SENSOR} }} }} }}",
            {"e": events},
        ),
        "upsertOrders": (
            'mutation($o: [OrderInput!]!) { upsertOrders(userId: "u", orders: $o) { orderCount } }',
            {"o": many},
        ),
        "deleteOrders": (
            'mutation($i: [ID!]!) { deleteOrders(userId: "u", orderIds: $i) { orderCount } }',
            {"i": [f"o{n:06}" for n in range(500)]},
        ),
        "recordTrades": (
            "mutation($t: [TradeInput!]!) { recordTrades(customerId: 1, trades: $t) "
            "{ pageNumbers } }",
            {"t": trades},
        ),
        "recordObservations": (
            "mutation($o: [ObservationInput!]!) { recordObservations(observations: $o) "
            "{ applied } }",
            {"o": observations},
        ),
    }


def _mutations(c: Crowd) -> dict[str, Request]:
    """Every mutation; those that delete last, as each runs over what the others left."""
    session, oldest = c.session, c.message_ids[0]
    return {
        "createSensor": ('mutation { createSensor(title: "new") { sensorId } }', {}),
        "renameSensor": (
            f'mutation {{ renameSensor(id: "{c.sensors[0]}", title: "z") {{ title }} }}',
            {},
        ),
        **_batches(c),
        "createChatSession": ('mutation { createChatSession(title: "x") { sessionId } }', {}),
        "postMessage": (
            f'mutation {{ postMessage(sessionId: "{session}", author: "a", text: "x") {{ seq }} }}',
            {},
        ),
        "editMessage": (
            f'mutation {{ editMessage(sessionId: "{session}", messageId: "{oldest}", '
            'text: "y") { seq } }',
            {},
        ),
        "deleteMessage": (
            f'mutation {{ deleteMessage(sessionId: "{session}", messageId: "{oldest}") '
            "{ seq } }",
            {},
        ),
        "addChatMember": (
            f'mutation {{ addChatMember(sessionId: "{session}", member: "m") {{ title }} }}',
            {},
        ),
        "removeChatMember": (
            f'mutation {{ removeChatMember(sessionId: "{session}", member: "m") {{ title }} }}',
            {},
        ),
        "deleteSensor": (f'mutation {{ deleteSensor(id: "{c.sensors[1]}") }}', {}),
        "deleteChatSession": (f'mutation {{ deleteChatSession(id: "{session}") }}', {}),
    }


REQUESTS: dict[str, Callable[[Crowd], dict[str, Request]]] = {
    "Query": _queries,
    "Mutation": _mutations,
}
