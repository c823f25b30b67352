"""What the soak sends: a weighted mix of reads over the demo data, and writes that each carry
an identity of their own, recorded in a ledger once the server acknowledges them.

Workers share GROUPS dedicated sensors, chat sessions, customers and users, so that writes
race on the same documents, which is where a lost or doubled write would come from."""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from bench.client import GraphQLFailure

GROUPS = 8
OBSERVED_MEASUREMENT = "soak"
# Below ARRAYGRAPH_MAX_ORDERS_PER_USER (10,000): a user that fills up moves on to a new one.
ORDERS_PER_USER = 5_000
DEMO_SENSOR = "5a934e000102030405000000"
DEMO_SESSION = "00000000000000000000c4a7"

READ_QUERIES = {
    "sensors page": "{ sensors(first: 20) { edges { node { title count24h } } } }",
    "sensor by id": "query($id: ID!) { sensor(id: $id) { title count24h lastEventAt } }",
    "orders page": """query($u: String!) { user(userId: $u) { orderCount
        orders(first: 20) { edges { node { orderId createTime } } } } }""",
    "trades page": """query($c: Int!) { customer(customerId: $c) { tradeCount
        trades(last: 10) { edges { node { ticker qty date } } } } }""",
    "series": """query($from: DateTime!, $to: DateTime!) { series(measurement: "weather",
        from: $from, to: $to, granularity: HOUR, tags: [{key: "station", value: "north"}])
        { start values { name mean max } } }""",
    "chat page": """query($id: ID!) { chatSession(id: $id) { messageCount
        messages(last: 50) { edges { node { seq author text } } } } }""",
}
RECORD_EVENTS = """mutation($e: [SensorEventInput!]!, $k: String) {
    recordSensorEvents(events: $e, idempotencyKey: $k) { accepted rejected { index } } }"""
UPSERT_ORDERS = """mutation($u: String!, $o: [OrderInput!]!) {
    upsertOrders(userId: $u, orders: $o) { orderCount } }"""
RECORD_TRADES = """mutation($c: Int!, $t: [TradeInput!]!, $k: String) {
    recordTrades(customerId: $c, trades: $t, idempotencyKey: $k) { pageNumbers } }"""
POST_MESSAGE = """mutation($s: ID!, $a: String!, $x: String!, $m: String) {
    postMessage(sessionId: $s, author: $a, text: $x, clientMessageId: $m) { messageId seq } }"""
RECORD_OBSERVATIONS = """mutation($o: [ObservationInput!]!, $k: String) {
    recordObservations(observations: $o, idempotencyKey: $k) { applied } }"""

# Per 1,000 requests: reads about two thirds, writes one third, so that writes race.
WEIGHTS = {
    "sensors page": 130, "sensor by id": 130, "orders page": 130, "trades page": 130,
    "chat page": 130, "series": 60,
    "sensor events": 100, "orders": 70, "trades": 70, "chat post": 70, "observations": 38,
}  # fmt: skip
WRITES = ("sensor events", "orders", "trades", "chat post", "observations")

Acknowledge = Callable[[dict[str, Any]], None]


class WrongAnswer(GraphQLFailure):
    """A write answered, but not with what it sent (fewer events accepted, a page missing)."""


@dataclass(frozen=True)
class Targets:
    """The documents the soak writes to, one of each per group, made before the load."""

    sensors: list[str]  # sensors' own ids
    sessions: list[str]  # chat sessions' own ids
    customers: list[int]


@dataclass
class Ledger:
    """Every acknowledged write, by the identity it carried."""

    events: Counter[str] = field(default_factory=Counter)  # sensor -> events
    orders: defaultdict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    trades: defaultdict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    messages: defaultdict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    observations: Counter[str] = field(default_factory=Counter)  # group tag -> observations
    unacknowledged: Counter[str] = field(default_factory=Counter)  # kind -> calls


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _expect(condition: bool, what: str) -> None:
    if not condition:
        raise WrongAnswer(what)


class Workload:
    def __init__(self, targets: Targets, ledger: Ledger, *, seed: int) -> None:
        self.targets, self.ledger = targets, ledger
        self.random = random.Random(seed)
        self.identity = itertools.count(1)  # unique across workers: one event loop runs them
        self.orders_sent: Counter[int] = Counter()
        self.kinds, self.weights = list(WEIGHTS), list(WEIGHTS.values())

    def pick(self) -> str:
        return self.random.choices(self.kinds, self.weights)[0]

    def operation(self, kind: str, worker: int) -> tuple[dict[str, Any], Acknowledge | None]:
        """The request body of one `kind` call, and for a write what records its answer."""
        if kind in READ_QUERIES:
            variables = self._read_variables(kind, worker)
            return {"query": READ_QUERIES[kind], "variables": variables}, None
        group = worker % GROUPS
        makers = {
            "sensor events": self._sensor_events,
            "orders": self._orders,
            "trades": self._trades,
            "chat post": self._chat_post,
            "observations": self._observations,
        }
        return makers[kind](group)

    def _read_variables(self, kind: str, worker: int) -> dict[str, Any]:
        group = worker % GROUPS
        now = datetime.now(UTC)
        variables: dict[str, dict[str, Any]] = {
            "sensors page": {},
            "sensor by id": {"id": self.random.choice([DEMO_SENSOR, self.targets.sensors[group]])},
            "orders page": {"u": self.random.choice(["u1", self._user(group)])},
            "trades page": {"c": self.random.choice([123, self.targets.customers[group]])},
            "series": {"from": iso(now - timedelta(days=1)), "to": iso(now)},
            "chat page": {"id": self.random.choice([DEMO_SESSION, self.targets.sessions[group]])},
        }
        return variables[kind]

    def _user(self, group: int) -> str:
        return f"soak-g{group}-{self.orders_sent[group] // ORDERS_PER_USER}"

    def _sensor_events(self, group: int) -> tuple[dict[str, Any], Acknowledge]:
        sensor, at = self.targets.sensors[group], iso(datetime.now(UTC))
        events = [
            {"sensorId": sensor, "at": at, "value": float(n)}
            for n in range(self.random.randint(1, 5))
        ]
        variables = {"e": events, "k": f"soak-e{next(self.identity)}"}

        def acknowledge(data: dict[str, Any]) -> None:
            answer = data["recordSensorEvents"]
            _expect(answer["accepted"] == len(events) and not answer["rejected"], str(answer))
            self.ledger.events[sensor] += len(events)

        return {"query": RECORD_EVENTS, "variables": variables}, acknowledge

    def _orders(self, group: int) -> tuple[dict[str, Any], Acknowledge]:
        user, at = self._user(group), iso(datetime.now(UTC))
        ids = [f"o{next(self.identity)}" for _ in range(self.random.randint(1, 3))]
        self.orders_sent[group] += len(ids)
        orders = [{"id": order_id, "createTime": at, "info": "soak"} for order_id in ids]

        def acknowledge(data: dict[str, Any]) -> None:
            _expect(data["upsertOrders"]["orderCount"] >= len(ids), str(data))
            self.ledger.orders[user].extend(ids)

        return {"query": UPSERT_ORDERS, "variables": {"u": user, "o": orders}}, acknowledge

    def _trades(self, group: int) -> tuple[dict[str, Any], Acknowledge]:
        customer, at = self.targets.customers[group], iso(datetime.now(UTC))
        # Each trade's quantity is its identity: the verification finds it back by it.
        quantities = [next(self.identity) for _ in range(self.random.randint(1, 5))]
        trades = [{"type": "BUY", "ticker": "SOAK", "qty": q, "date": at} for q in quantities]
        variables = {"c": customer, "t": trades, "k": f"soak-t{next(self.identity)}"}

        def acknowledge(data: dict[str, Any]) -> None:
            pages = data["recordTrades"]["pageNumbers"]
            _expect(len(pages) == len(trades) and all(p >= 1 for p in pages), str(data))
            self.ledger.trades[customer].extend(quantities)

        return {"query": RECORD_TRADES, "variables": variables}, acknowledge

    def _chat_post(self, group: int) -> tuple[dict[str, Any], Acknowledge]:
        session, identity = self.targets.sessions[group], next(self.identity)
        variables = {"s": session, "a": f"soak{group}", "x": f"soak message {identity}",
                     "m": f"soak-m{identity}"}  # fmt: skip

        def acknowledge(data: dict[str, Any]) -> None:
            message = data["postMessage"]
            _expect(message["seq"] >= 1, str(data))
            self.ledger.messages[session].append(message["messageId"])

        return {"query": POST_MESSAGE, "variables": variables}, acknowledge

    def _observations(self, group: int) -> tuple[dict[str, Any], Acknowledge]:
        tag, at = f"g{group}", iso(datetime.now(UTC))
        observation = {
            "measurement": OBSERVED_MEASUREMENT, "at": at,
            "tags": [{"key": "group", "value": tag}], "fields": [{"name": "n", "value": 1.0}],
        }  # fmt: skip
        observations = [observation] * self.random.randint(1, 3)
        variables = {"o": observations, "k": f"soak-s{next(self.identity)}"}

        def acknowledge(data: dict[str, Any]) -> None:
            _expect(data["recordObservations"]["applied"] == len(observations), str(data))
            self.ledger.observations[tag] += len(observations)

        return {"query": RECORD_OBSERVATIONS, "variables": variables}, acknowledge
