"""One call of every root field, for the matrix: its document (some through fragments), its
variables from the seeded records, and what record it reaches: every root field of the schema
has one here, or the matrix fails naming it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from resolvers.access.permissions import Permission
from tests.permissions.callers import AT, Seeded

P = Permission
SPAN = f'from: "{AT}", to: "2024-01-02T00:00:00Z"'


@dataclass(frozen=True)
class Call:
    document: str
    variables: Callable[[Seeded], dict[str, object]] = field(default=lambda seeded: {})
    # The record it reaches, when reaching it takes more than the field's permission: what
    # reading it takes, and whose it is ("B": user B's; "session": the seeded chat session's
    # members'; None: every record of the permission's, or none).
    record: Permission | None = None
    owner: str | None = None
    # An argument it sends that only a role reaching every record of `record` may send.
    for_services: str | None = None


def _sensor(seeded: Seeded) -> dict[str, object]:
    return {"s": seeded.sensor}


def _session(seeded: Seeded) -> dict[str, object]:
    return {"s": seeded.session}


def _message(seeded: Seeded) -> dict[str, object]:
    return {"s": seeded.session, "m": seeded.message}


def _user_b(seeded: Seeded) -> dict[str, object]:
    return {"u": "B"}


QUERIES: dict[str, Call] = {
    "node": Call(
        "query($s: ID!) { node(id: $s) { id ...Titled } } "
        "fragment Titled on Sensor { title }",
        _sensor, record=P.SENSORS_READ,
    ),
    "nodes": Call(
        "query($ids: [ID!]!) { nodes(ids: $ids) { id ...Shown } } fragment Shown on Node { "
        "... on Sensor { title } ... on User { name } ... on Order { info } "
        "... on ChatSession { title } ... on Message { text } ... on Trade { ticker } "
        "... on Measurement { measurementName: name } }",
        lambda seeded: {"ids": list(seeded.ids.values())},
    ),
    "sensor": Call(
        "query($s: ID!) { sensor(id: $s) { ...S } } fragment S on Sensor { title count24h }",
        _sensor,
    ),
    "sensors": Call("{ sensors(first: 5) { totalCount edges { node { title } } } }"),
    "user": Call(
        "query($u: String!) { user(userId: $u) { name orders { totalCount "
        "edges { node { info } } pageInfo { hasNextPage } } } }",
        _user_b, record=P.ORDERS_READ, owner="B",
    ),
    "users": Call(
        "query($u: String!) { users(userIds: [$u]) { ...U } } "
        "fragment U on User { name orderCount }",
        _user_b, record=P.ORDERS_READ, owner="B",
    ),
    "customer": Call(
        "{ customer(customerId: 7) { tradeCount trades(first: 5) { edges { node { ticker } } } } }"
    ),
    "series": Call(f'{{ series(measurement: "mkmeasure", {SPAN}, granularity: DAY) {{ start }} }}'),
    "seriesTotal": Call(f'{{ seriesTotal(measurement: "mkmeasure", {SPAN}) {{ name sum }} }}'),
    "measurements": Call("{ measurements { name } }"),
    "measurement": Call('{ measurement(name: "mkmeasure") { name tagKeys } }'),
    "chatSession": Call(
        "query($s: ID!) { chatSession(id: $s) { title "
        "messages(last: 5) { totalCount edges { node { text } } } } }",
        _session, record=P.CHAT_READ, owner="session",
    ),
    "chatSessions": Call(
        "{ chatSessions(first: 5) { totalCount edges { node { title } } "
        "pageInfo { hasNextPage } } }",
        record=P.CHAT_READ, owner="session",
    ),
}  # fmt: skip

# In the order they run: those that delete what others use, last.
MUTATIONS: dict[str, Call] = {
    "createSensor": Call('mutation { createSensor(title: "made") { id title } }'),
    "renameSensor": Call(
        'mutation($s: ID!) { renameSensor(id: $s, title: "renamed") { title } }', _sensor
    ),
    "recordSensorEvents": Call(
        "mutation($s: ID!, $at: DateTime!) { recordSensorEvents(events: [{sensorId: $s, "
        "at: $at}]) { accepted sensors { sensorId } } }",
        lambda seeded: {"s": seeded.sensor, "at": seeded.now},
    ),
    "upsertOrders": Call(
        "mutation($u: String!) { upsertOrders(userId: $u, orders: "
        f'[{{id: "new", createTime: "{AT}"}}]) {{ userId }} }}',
        _user_b, record=P.ORDERS_WRITE, owner="B",
    ),
    "deleteOrders": Call(
        'mutation($u: String!) { deleteOrders(userId: $u, orderIds: ["new"]) { userId } }',
        _user_b, record=P.ORDERS_WRITE, owner="B",
    ),
    "recordTrades": Call(
        'mutation { recordTrades(customerId: 7, trades: [{type: SELL, ticker: "T", qty: 1, '
        f'date: "{AT}"}}]) {{ pageNumbers customer {{ tradeCount }} }} }}'
    ),
    "recordObservations": Call(
        'mutation { recordObservations(observations: [{measurement: "other", '
        f'at: "{AT}", tags: [], fields: [{{name: "v", value: 2}}]}}]) {{ applied }} }}'
    ),
    "createChatSession": Call('mutation { createChatSession(title: "new") { title } }'),
    "postMessage": Call(
        'mutation($s: ID!) { postMessage(sessionId: $s, author: "bridge", text: "hi") '
        "{ seq text } }",
        _session, record=P.CHAT_WRITE, owner="session", for_services="author",
    ),
    "editMessage": Call(
        "mutation($s: ID!, $m: ID!) { editMessage(sessionId: $s, messageId: $m, "
        'text: "edited") { text } }',
        _message, record=P.CHAT_WRITE, owner="session",
    ),
    "deleteMessage": Call(
        "mutation($s: ID!, $m: ID!) { deleteMessage(sessionId: $s, messageId: $m) { deleted } }",
        _message, record=P.CHAT_WRITE, owner="session",
    ),
    "addChatMember": Call(
        'mutation($s: ID!) { addChatMember(sessionId: $s, member: "C") { title } }',
        _session, record=P.CHAT_OWN, owner="session",
    ),
    "removeChatMember": Call(
        'mutation($s: ID!) { removeChatMember(sessionId: $s, member: "C") { ...T } } '
        "fragment T on ChatSession { title }",
        _session, record=P.CHAT_OWN, owner="session",
    ),
    "deleteChatSession": Call(
        "mutation($s: ID!) { deleteChatSession(id: $s) }",
        _session, record=P.CHAT_OWN, owner="session",
    ),
    "deleteSensor": Call("mutation($s: ID!) { deleteSensor(id: $s) }", _sensor),
}  # fmt: skip
