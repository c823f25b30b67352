"""The data every fuzz test starts from, written through the API: a few of each kind of object,
so that generated ids, names and cursors hit real objects as well as missing ones.

`World` holds what the generators draw from: every id (domain and global), the names, the
customers, and real cursors of every connection (tests/fuzz/cursors.py forges from them).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.support import Api

NOW = "2022-09-12T13:00:00Z"  # FakeClock's default: sensor events near it count
USER = "u1"
CUSTOMER = 7
MEASUREMENT = "cpu"
# Order times of the millisecond-cursor bug (tests/orders/test_millisecond_cursors.py).
ORDER_TIMES = [
    "1987-02-07T00:30:25.879Z",
    "1987-02-07T00:30:25.879Z",
    "1969-07-20T20:17:40.123Z",
    "1900-01-01T00:00:00.001Z",
    "2024-01-01T00:00:00Z",
]

SENSOR = "mutation($t: String!) { createSensor(title: $t) { id sensorId } }"
EVENTS = """mutation($e: [SensorEventInput!]!) { recordSensorEvents(events: $e) { accepted } }"""
ORDERS = """mutation($o: [OrderInput!]!) { upsertOrders(userId: "u1", name: "Ada", orders: $o) {
    id orders(first: 10) { edges { node { id orderId } } } } }"""
TRADES = """mutation($t: [TradeInput!]!) { recordTrades(customerId: 7, trades: $t) {
    customer { id trades(first: 100) { edges { node { id } } } } } }"""
OBSERVE = (
    """mutation($o: [ObservationInput!]!) { recordObservations(observations: $o) { applied } }"""
)
SESSION = "mutation($t: String!) { createChatSession(title: $t) { id sessionId } }"
MEMBER = "mutation($s: ID!, $m: String!) { addChatMember(sessionId: $s, member: $m) { id } }"
MESSAGE = """mutation($s: ID!, $x: String!) {
    postMessage(sessionId: $s, author: "ada", text: $x, clientMessageId: null) { id messageId } }"""
CURSORS = {
    "SensorConnection": """query($o: SensorOrder) { sensors(first: 3, orderBy: $o) {
        edges { cursor } } }""",
    "OrderConnection": '{ user(userId: "u1") { orders(first: 5) { edges { cursor } } } }',
    "TradeConnection": "{ customer(customerId: 7) { trades(first: 25) { edges { cursor } } } }",
    "ChatSessionConnection": "{ chatSessions(first: 5) { edges { cursor } } }",
    "MessageConnection": """query($s: ID!) { chatSession(id: $s) { messages(last: 5) {
        edges { cursor } } } }""",
    "ChatMemberConnection": """query($s: ID!) { chatSession(id: $s) { members(first: 5) {
        edges { cursor } } } }""",
}


@dataclass(frozen=True)
class World:
    ids: tuple[str, ...]  # every id, of every type, domain and global
    names: tuple[str, ...]
    customers: tuple[int, ...]
    session_id: str
    cursors: dict[str, tuple[str, ...]]  # connection type -> real cursors of it
    by_kind: dict[str, tuple[str, ...]]  # "sensor", "user", "order"... -> its ids, both forms


async def seed(api: Api) -> World:
    kinds: dict[str, list[str]] = {kind: [] for kind in ("sensor", "user", "order", "customer")}
    kinds |= {"trade": [], "session": [], "message": []}
    for title in ("Boiler", "Alpha", "Zeta"):
        sensor = (await api.data(SENSOR, {"t": title}))["createSensor"]
        kinds["sensor"] += [sensor["id"], sensor["sensorId"]]
    events = [{"sensorId": kinds["sensor"][1], "at": NOW, "count": 3, "value": 21.5}]
    events += [{"sensorId": kinds["sensor"][3], "at": "2022-09-12T11:30:00Z", "count": 1}]
    await api.data(EVENTS, {"e": events})
    orders = [{"id": f"o{n}", "createTime": at} for n, at in enumerate(ORDER_TIMES)]
    user = (await api.data(ORDERS, {"o": orders}))["upsertOrders"]
    kinds["user"] += [user["id"], USER]
    kinds["order"] += _nodes(user["orders"], "id", "orderId")
    trades = [
        {"type": "BUY", "ticker": "MDB", "qty": n, "date": f"2024-01-01T00:00:{n:02}Z"}
        for n in range(1, 24)
    ]
    customer = (await api.data(TRADES, {"t": trades}))["recordTrades"]["customer"]
    kinds["customer"].append(customer["id"])
    kinds["trade"] += _nodes(customer["trades"], "id")
    await api.data(OBSERVE, {"o": [_observation(minute) for minute in range(3)]})
    for title in ("support", "sales"):
        session = (await api.data(SESSION, {"t": title}))["createChatSession"]
        kinds["session"] += [session["id"], session["sessionId"]]
        for member in ("ada", "grace"):
            await api.data(MEMBER, {"s": session["sessionId"], "m": member})
        for text in ("hello", "world", "again"):
            variables = {"s": session["sessionId"], "x": text}
            message = (await api.data(MESSAGE, variables))["postMessage"]
            kinds["message"] += [message["id"], message["messageId"]]
    session_id = kinds["session"][-1]
    cursors = {name: await _cursors(api, query, session_id) for name, query in CURSORS.items()}
    names = (USER, "Boiler", "support", MEASUREMENT, "host", "a", "MDB", "ada", "o1", "u2")
    ids = tuple(i for found in kinds.values() for i in found)
    by_kind = {kind: tuple(found) for kind, found in kinds.items()}
    return World(ids, names, (CUSTOMER, 123, 1), session_id, cursors, by_kind)


def _observation(minute: int) -> dict[str, Any]:
    return {
        "measurement": MEASUREMENT,
        "at": f"2022-09-12T12:{minute:02}:00Z",
        "tags": [{"key": "host", "value": "a"}],
        "fields": [{"name": "usage", "value": 0.5 + minute}],
    }


def _nodes(connection: dict[str, Any], *keys: str) -> list[str]:
    return [str(edge["node"][key]) for edge in connection["edges"] for key in keys]


async def _cursors(api: Api, query: str, session_id: str) -> tuple[str, ...]:
    variable_sets: list[dict[str, str]] = [{}]
    if "$s" in query:
        variable_sets = [{"s": session_id}]
    if "$o" in query:  # both orders of the sensors: their cursors differ
        variable_sets = [{"o": "TITLE"}, {"o": "COUNT_24H_DESC"}]
    found: list[str] = []
    for variables in variable_sets:
        data = await api.data(query, variables)
        found += [edge["cursor"] for edge in _edges(data)]
    assert found, f"no cursor to forge from: {query}"
    return tuple(dict.fromkeys(found))


def _edges(data: Any) -> list[dict[str, Any]]:
    """The edges of the one connection somewhere in `data`."""
    while isinstance(data, dict) and "edges" not in data:
        [data] = data.values()
    edges: list[dict[str, Any]] = data["edges"]
    return edges
