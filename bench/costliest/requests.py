"""The costliest request of each root field of Query the default limits allow, on the demo data
(bench/costliest/); those of Mutation are in bench/costliest/writes.py.

Each is written by hand: the field's widest selection at its largest arguments, repeated under
aliases. How many aliases is the server's to say (bench/costliest/fit.py); where even one alias
costs more than ARRAYGRAPH_MAX_COST, the entry's `size` (a page, the ids of a list) shrinks
until one fits. Every alias of a request costs the same, so the cost of n is n times one's.
Every run sends a text the server has not seen (a comment marks it), as a client defeating
the server's cache of parsed documents would: parsing and validating it are part of its cost.
"""

from __future__ import annotations

import itertools
import secrets
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.client import GraphQLClient
from settings import (
    MAX_MEASUREMENTS_PAGE,
    MAX_NODES_PER_QUERY,
    MAX_PAGE_SIZE,
    MAX_SERIES_POINTS,
    MAX_TAG_VALUES_PAGE,
    MAX_USERS_PER_QUERY,
)

# Selections: every field of the type, lists at their largest pages.
PAGE_INFO = "pageInfo { hasNextPage hasPreviousPage startCursor endCursor }"
SENSOR = (
    "id sensorId title count24h stats24h { count sum min max mean } "
    "hourly { hour count sum min max mean } lastEventAt"
)
ORDER = "id orderId userId info createTime"
MESSAGE = "id messageId seq author text sentAt editedAt deleted"
TRADE = "id type ticker qty date"
FIELD_STATS = "name sum count min max mean"
# Past every order, so that the filter runs over all of them and keeps them all.
LATEST = "2999-01-01T00:00:00Z"


def user_selection(orders: int = MAX_PAGE_SIZE) -> str:
    page = f'orders(first: {orders}, maxCreateTime: "{LATEST}")'
    return (
        f"id userId userType name orderCount {page} "
        f"{{ edges {{ cursor node {{ {ORDER} }} }} {PAGE_INFO} totalCount }}"
    )


SESSION = (
    "id sessionId title createdAt lastMessageAt messageCount pageCount "
    f"messages(last: {MAX_PAGE_SIZE}) {{ edges {{ cursor node {{ {MESSAGE} }} }} "
    f"{PAGE_INFO} totalCount }}"
)
CUSTOMER = (
    f"id customerId tradeCount pageCount page(number: 1) {{ number trades {{ {TRADE} }} "
    f"hasNextPage }} trades(first: {MAX_PAGE_SIZE}) {{ edges {{ cursor node {{ {TRADE} }} }} "
    f"{PAGE_INFO} totalCount }}"
)
MEASUREMENT = f'id name fields tagKeys tagValues(key: "station", first: {MAX_TAG_VALUES_PAGE})'
# The longest hourly series (MAX_SERIES_POINTS) in Africa/Monrovia, whose offset was
# -0:43:08 (local mean time) then: its points start off the hour.
SERIES_FROM = datetime(1900, 1, 1, tzinfo=UTC)
SERIES_TO = SERIES_FROM + timedelta(hours=MAX_SERIES_POINTS - 1)
SERIES_ZONE = "Africa/Monrovia"
# seriesTotal over every year a range may span.
TOTAL_FROM, TOTAL_TO = "1900-01-01T00:00:00Z", "3000-01-01T00:00:00Z"
UNKNOWN_MEASUREMENT = "no_such_measurement"
OLD_MESSAGE_PAGES = 5


@dataclass(frozen=True)
class Request:
    """One operation: `fields[i]` under alias `a{i}`, with the variables they share."""

    operation: str  # "query" or "mutation"
    fields: Sequence[str]
    definitions: Sequence[str] = ()  # "$ids: [ID!]!"
    variables: Mapping[str, Any] = field(default_factory=dict)

    def body(self, padding: Request | None = None, *, mark: str = "") -> dict[str, Any]:
        """The request's JSON body; `padding`'s fields added unaliased; `mark` in a comment
        first, so that a new mark makes a text the server has not parsed yet."""
        definitions = [*self.definitions, *(padding.definitions if padding else ())]
        head = f"{self.operation}({', '.join(definitions)})" if definitions else self.operation
        selections = [f"a{i}: {f}" for i, f in enumerate(self.fields)]
        selections += padding.fields if padding else []
        variables = {**self.variables, **(padding.variables if padding else {})}
        document = f"# {mark}\n{head} {{ {' '.join(selections)} }}"
        return {"query": document, "variables": variables}


@dataclass
class Fixtures:
    """The demo data's ids the requests name (read from the server), and fresh names."""

    client: GraphQLClient
    sensor_id: str
    session_id: str
    order_nodes: list[str]  # u1's newest, global ids
    user_node: str
    old_messages: list[str]  # its oldest, own ids: each edited or deleted once
    tag: str = field(default_factory=lambda: secrets.token_hex(3))
    counter: itertools.count[int] = field(default_factory=itertools.count)
    made_sensors: list[str] = field(default_factory=list)  # for the batches of events

    def fresh(self, prefix: str) -> str:
        """A name no earlier call gave: `prefix`, this run's tag and a number."""
        return f"{prefix}{self.tag}_{next(self.counter)}"

    def number(self) -> int:
        return 1_000_000 + next(self.counter)

    def take_messages(self, count: int) -> list[str]:
        taken, self.old_messages = self.old_messages[:count], self.old_messages[count:]
        if len(taken) < count:
            raise RuntimeError("the demo session has no more messages to edit or delete")
        return taken


async def _oldest_messages(client: GraphQLClient, session: str, pages: int) -> list[str]:
    ids: list[str] = []
    after = None
    for _ in range(pages):
        data = await client.call(
            "query($s: ID!, $after: String) { chatSession(id: $s) { messages(first: "
            f"{MAX_PAGE_SIZE}, after: $after) {{ edges {{ node {{ messageId }} }} "
            "pageInfo { endCursor } } } }",
            {"s": session, "after": after},
        )
        page = data["chatSession"]["messages"]
        ids += [edge["node"]["messageId"] for edge in page["edges"]]
        after = page["pageInfo"]["endCursor"]
    return ids


async def fixtures(client: GraphQLClient) -> Fixtures:
    data = await client.call(
        '{ sensors(first: 1) { edges { node { sensorId } } } user(userId: "u1") { id '
        f"orders(first: {MAX_NODES_PER_QUERY}) {{ edges {{ node {{ id }} }} }} }} "
        "chatSessions(first: 1) { edges { node { sessionId } } } }"
    )
    session = data["chatSessions"]["edges"][0]["node"]
    return Fixtures(
        client,
        sensor_id=data["sensors"]["edges"][0]["node"]["sensorId"],
        session_id=session["sessionId"],
        user_node=data["user"]["id"],
        order_nodes=[e["node"]["id"] for e in data["user"]["orders"]["edges"]],
        # Enough for every run of deleteMessage, each taking its own.
        old_messages=await _oldest_messages(client, session["sessionId"], OLD_MESSAGE_PAGES),
    )


Build = Callable[[Fixtures, int, int], Awaitable[Request]]


@dataclass(frozen=True)
class Costliest:
    """A root field's costliest request: `build(fixtures, aliases, size)`."""

    name: str  # the root field, and what sets this request apart when it has two
    what: str  # what one alias asks, `{size}` standing for the size
    build: Build
    size: int = 1  # the largest the limits accept of what `{size}` counts
    expect: str | None = None  # the error code the answer carries by design (NOT_FOUND)


def repeated(operation: str, selection: Callable[[Fixtures, int], str]) -> Build:
    """A request of the same selection under every alias, no variables."""

    async def build(fx: Fixtures, aliases: int, size: int) -> Request:
        return Request(operation, [selection(fx, size)] * aliases)

    return build


async def _nodes(fx: Fixtures, aliases: int, size: int) -> Request:
    one = f"nodes(ids: $ids) {{ id ... on Order {{ {ORDER} }} }}"
    ids = fx.order_nodes[:size]
    return Request("query", [one] * aliases, ["$ids: [ID!]!"], {"ids": ids})


async def _users(fx: Fixtures, aliases: int, size: int) -> Request:
    one = f"users(userIds: $ids) {{ {user_selection(size)} }}"
    ids = ["u1"] * MAX_USERS_PER_QUERY
    return Request("query", [one] * aliases, ["$ids: [String!]!"], {"ids": ids})


def _series(selection: str) -> Callable[[Fixtures, int], str]:
    return lambda fx, size: (
        f'series(measurement: "weather", from: "{SERIES_FROM.isoformat()}", '
        f'to: "{SERIES_TO.isoformat()}", granularity: HOUR, timeZone: "{SERIES_ZONE}", '
        f'fields: ["temperature", "humidity"]) {{ {selection} }}'
    )


def _total(measurement: str) -> Callable[[Fixtures, int], str]:
    return lambda fx, size: (
        f'seriesTotal(measurement: "{measurement}", from: "{TOTAL_FROM}", to: "{TOTAL_TO}") '
        f"{{ {FIELD_STATS} }}"
    )


QUERIES = [
    Costliest(
        "node",
        "u1 by its global id, 100 of 200 orders",
        repeated(
            "query",
            lambda fx, s: f'node(id: "{fx.user_node}") {{ ... on User {{ {user_selection()} }} }}',
        ),
    ),
    Costliest("nodes", "{size} of u1's orders", _nodes, size=MAX_NODES_PER_QUERY),
    Costliest(
        "sensor",
        "demo sensor",
        repeated("query", lambda fx, s: f'sensor(id: "{fx.sensor_id}") {{ {SENSOR} }}'),
    ),
    Costliest(
        "sensors",
        "first 100 by count24h",
        repeated(
            "query",
            lambda fx, s: (
                f"sensors(first: {MAX_PAGE_SIZE}, orderBy: COUNT_24H_DESC, filter: "
                f"{{ minCount24h: 1 }}) {{ edges {{ cursor node {{ {SENSOR} }} }} {PAGE_INFO} "
                "totalCount }"
            ),
        ),
    ),
    Costliest(
        "user",
        "u1, 100 of 200 orders",
        repeated("query", lambda fx, s: f'user(userId: "u1") {{ {user_selection()} }}'),
    ),
    Costliest("users", "100 x u1, {size} orders each", _users, size=MAX_PAGE_SIZE),
    Costliest(
        "customer",
        "page 1, first 100 trades",
        repeated("query", lambda fx, s: f"customer(customerId: 123) {{ {CUSTOMER} }}"),
    ),
    Costliest(
        "series",
        f"{MAX_SERIES_POINTS:,} hours, 1900, Monrovia, 2 fields",
        repeated("query", _series(f"start values {{ {FIELD_STATS} }}")),
    ),
    Costliest(
        "series",
        f"{MAX_SERIES_POINTS:,} hours, 1900, Monrovia, starts only",
        repeated("query", _series("start")),
    ),
    Costliest("seriesTotal", "weather, 1900 to 3000", repeated("query", _total("weather"))),
    Costliest(
        "seriesTotal",
        "unknown measurement, 1900 to 3000",
        repeated("query", _total(UNKNOWN_MEASUREMENT)),
        expect="NOT_FOUND",
    ),
    Costliest(
        "measurements",
        "first {size}, 1,000 tag values each",
        repeated("query", lambda fx, s: f"measurements(first: {s}) {{ {MEASUREMENT} }}"),
        size=MAX_MEASUREMENTS_PAGE,
    ),
    Costliest(
        "measurement",
        "weather, 1,000 tag values",
        repeated("query", lambda fx, s: f'measurement(name: "weather") {{ {MEASUREMENT} }}'),
    ),
    Costliest(
        "chatSession",
        "demo session, last 100 messages",
        repeated("query", lambda fx, s: f'chatSession(id: "{fx.session_id}") {{ {SESSION} }}'),
    ),
    Costliest(
        "chatSessions",
        "first {size}, last 100 messages each",
        repeated(
            "query",
            lambda fx, s: (
                f"chatSessions(first: {s}) {{ edges {{ cursor node {{ {SESSION} }} }} "
                f"{PAGE_INFO} totalCount }}"
            ),
        ),
        size=MAX_PAGE_SIZE,
    ),
]
