"""How many aliases of a costliest request (bench/costliest/requests.py) the server accepts, and
what they cost, both from the server's own answers: so that the table follows the limits and
the costs as they change.

The cost of a request comes from a refusal: sent with a padding that alone costs more than
ARRAYGRAPH_MAX_COST (a field of no alias, so that the alias limit does not stop it first), it
is refused naming the cost of the two, and the padding's own refusal names the padding's. One
alias's cost, over the limit the refusal names, bounds the aliases; the fields-selected, alias
and token limits are found by sending: a LIMIT_EXCEEDED refusal that names its count and its
limit bounds the next try by proportion, any other steps down by one. Refusals are answered
before anything runs; the first request accepted is the run the loop probe watches
(bench/costliest/runs.py).
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from bson import ObjectId

from bench.client import GraphQLClient
from bench.costliest.requests import Costliest, Fixtures, Request
from bench.server import Server, cpu_seconds
from settings import (
    MAX_ALIASES,
    MAX_BATCH_SIZE,
    MAX_MEASUREMENTS_PAGE,
    MAX_TAG_VALUES_PAGE,
)

# Generous: a request that takes longer is reported as such (series are slow today).
TIMEOUT_SECONDS = 60.0
# The server finishes what follows its answer (the request's log line) before CPU is read.
SETTLE_SECONDS = 0.05
_COUNTED = re.compile(r"^(\d+) .*Allowed: (\d+)")
_SENT = itertools.count()


class Refused(Exception):
    """The limits accept not even one alias of the request at its smallest size."""


class NoAnswer(Exception):
    """No answer within TIMEOUT_SECONDS; the server's CPU meanwhile."""

    def __init__(self, cpu: float) -> None:
        super().__init__(f"no answer within {TIMEOUT_SECONDS:g} s")
        self.cpu = cpu


@dataclass(frozen=True)
class Answer:
    status: int
    body: dict[str, Any]
    seconds: float  # wall time, from sending to the whole answer
    cpu: float  # the server process's CPU seconds over the same span (and the settling)

    def limits(self) -> list[dict[str, Any]]:
        """The LIMIT_EXCEEDED errors of a refusal (nothing ran): none when it was accepted."""
        if self.status == 413:
            return [{"message": "the request's body is over ARRAYGRAPH_MAX_REQUEST_BYTES"}]
        if self.body.get("data") is not None:
            return []
        errors: list[dict[str, Any]] = self.body.get("errors") or []
        return [
            e
            for e in errors
            if "path" not in e and (e.get("extensions") or {}).get("code") == "LIMIT_EXCEEDED"
        ]

    def problem(self, expect: str | None) -> str | None:
        """What is wrong with an accepted answer: an error other than the one expected."""
        errors: list[dict[str, Any]] = self.body.get("errors") or []
        codes = {(e.get("extensions") or {}).get("code") for e in errors}
        if self.status != 200 or codes != ({expect} if expect else set()):
            return f"HTTP {self.status}: {orjson.dumps(self.body)[:300]!r}"
        return None


async def send(
    client: GraphQLClient, server: Server, request: Request, padding: Request | None = None
) -> Answer:
    body = request.body(padding, mark=f"costliest request {next(_SENT)}")
    before, start = cpu_seconds(server.pid), time.perf_counter()
    try:
        status, raw = await asyncio.wait_for(client.exchange(body), TIMEOUT_SECONDS)
    except TimeoutError:
        await client.close()  # the answer may still come: this connection is done
        raise NoAnswer(cpu_seconds(server.pid) - before) from None
    seconds = time.perf_counter() - start
    await asyncio.sleep(SETTLE_SECONDS)
    cpu = cpu_seconds(server.pid) - before
    return Answer(status, orjson.loads(raw) if raw else {}, seconds, cpu)


def padding(operation: str) -> Request:
    """A field of no alias costing more than the limit alone."""
    if operation == "query":
        field = (
            f"measurements(first: {MAX_MEASUREMENTS_PAGE}) "
            f'{{ tagValues(key: "padding", first: {MAX_TAG_VALUES_PAGE}) }}'
        )
        return Request(operation, [field])
    # Each distinct sensor of a batch counts its 24 hours.
    now = datetime.now(UTC).isoformat()
    events = [{"sensorId": str(ObjectId()), "at": now} for _ in range(MAX_BATCH_SIZE)]
    field = (
        "recordSensorEvents(events: $padding) { sensors { hourly { hour count sum min max avg } } }"
    )
    return Request(operation, [field], ["$padding: [SensorEventInput!]!"], {"padding": events})


@dataclass
class Costs:
    """What one alias of a request costs, read from refusals."""

    client: GraphQLClient
    server: Server
    _paddings: dict[str, tuple[Request, int, int]]

    @classmethod
    def on(cls, client: GraphQLClient, server: Server) -> Costs:
        return cls(client, server, {})

    async def _padding(self, operation: str) -> tuple[Request, int, int]:
        """The padding of `operation`, its cost and the server's limit."""
        if operation not in self._paddings:
            pad = padding(operation)
            extensions = await self._refusal(Request(operation, []), pad)
            self._paddings[operation] = (pad, extensions["cost"], extensions["maxCost"])
        return self._paddings[operation]

    async def _refusal(self, request: Request, pad: Request) -> dict[str, Any]:
        answer = await send(self.client, self.server, request, pad)
        for error in answer.limits():
            extensions: dict[str, Any] = error.get("extensions") or {}
            if "cost" in extensions:
                return extensions
        raise RuntimeError(f"the padding was not refused for its cost: {answer.body}")

    async def max_cost(self, operation: str) -> int:
        return (await self._padding(operation))[2]

    async def of(self, request: Request) -> int:
        pad, pad_cost, _ = await self._padding(request.operation)
        return int((await self._refusal(request, pad))["cost"]) - pad_cost


@dataclass(frozen=True)
class OneAlias:
    size: int  # the largest at which one alias fits the cost limit
    cost: int  # one alias's, at that size
    limit: int  # ARRAYGRAPH_MAX_COST, as the server named it

    @property
    def aliases(self) -> int:
        """The most aliases the cost limit allows (the alias limit too)."""
        return min(MAX_ALIASES, self.limit // self.cost)


def _bound(limits: list[dict[str, Any]], aliases: int) -> int:
    """The most aliases the refusal's limits leave, by proportion where they say how many."""
    bound = aliases - 1
    for error in limits:
        extensions = error.get("extensions") or {}
        counted = _COUNTED.match(error.get("message", ""))
        if "cost" in extensions and "maxCost" in extensions:
            bound = min(bound, aliases * extensions["maxCost"] // extensions["cost"])
        elif counted:
            bound = min(bound, aliases * int(counted[2]) // int(counted[1]))
    return bound


async def one_alias(fx: Fixtures, entry: Costliest, costs: Costs) -> OneAlias:
    size = entry.size
    while True:
        request = await entry.build(fx, 1, size)
        cost = await costs.of(request)
        limit = await costs.max_cost(request.operation)
        if cost <= limit:
            return OneAlias(size, cost, limit)
        if size == 1:
            raise Refused(f"one alias costs {cost}, over ARRAYGRAPH_MAX_COST {limit}")
        size = max(1, min(size - 1, size * limit // cost))


Attempt = Callable[[Request], Awaitable[Answer]]


async def most_accepted(
    fx: Fixtures, entry: Costliest, one: OneAlias, attempt: Attempt
) -> tuple[int, Answer]:
    """The most aliases the server accepts (from what the cost allows down), and the answer
    to them: `attempt` sends each try."""
    aliases = one.aliases
    while aliases >= 1:
        answer = await attempt(await entry.build(fx, aliases, one.size))
        refused = answer.limits()
        if not refused:
            return aliases, answer
        aliases = _bound(refused, aliases)
    raise Refused("the limits accept not one alias")
