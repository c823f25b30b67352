"""The runs of one costliest request (bench/costliest/): its slice, its CPU, and /healthz
beside it.

First one alias, unarmed, tells how long the whole request would take (when it has more than
one). The whole request is then sent with the loop probe armed (bench/loop_slices.py) and
/healthz asked from a thread of this process every 50 ms on a new connection, as a load
balancer would: that run gives the longest slice and the slowest /healthz answer (the probe and
the thread cost the server some CPU, so this run's CPU is not counted). Then the request again,
unarmed, for its CPU: the median of REPETITIONS runs, or of one for a request of seconds. A
request whose one alias tells that the whole would take over BUDGET_SECONDS is measured on one
alias: its figures are lower bounds.
"""

from __future__ import annotations

import asyncio
import http.client
import threading
from dataclasses import dataclass, field
from types import TracebackType

import orjson

from bench.client import GraphQLFailure
from bench.costliest.fit import (
    Answer,
    Costs,
    NoAnswer,
    OneAlias,
    Refused,
    most_accepted,
    one_alias,
    send,
)
from bench.costliest.requests import Costliest, Fixtures, Request
from bench.health_probe import INTERVAL_SECONDS, probe_once
from bench.load import request_once
from bench.loop_slices import LOOP_PROBE_PATH
from bench.server import Server, cpu_seconds

REPETITIONS = 3
SLOW_SECONDS = 3.0  # a request that took longer is run once more for its CPU, not three times
BUDGET_SECONDS = 20.0
# After a request that failed, the database may still be working: until its CPU rests.
QUIET_CPU_SECONDS = 0.05
QUIET_MAX_SECONDS = 120.0


class HealthWatch:
    """/healthz every INTERVAL_SECONDS from a thread, each on a new connection, while open."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.latencies: list[float] = []
        self.failures = 0
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)

    def _watch(self) -> None:
        while not self._stopped.is_set():
            try:
                self.latencies.append(probe_once(self.port))
            except (OSError, http.client.HTTPException, RuntimeError):
                self.failures += 1
            self._stopped.wait(INTERVAL_SECONDS)

    def restart(self) -> None:
        self.latencies, self.failures = [], 0

    def __enter__(self) -> HealthWatch:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._stopped.set()
        self._thread.join()


async def _loop_probe(port: int, method: str) -> dict[str, float]:
    head = f"{method} {LOOP_PROBE_PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
    answer: dict[str, float] = orjson.loads(
        await request_once(port, f"{head}Content-Length: 0\r\n\r\n".encode())
    )
    return answer


@dataclass
class Row:
    entry: Costliest
    aliases: int = 0  # run
    allowed: int = 0  # the most the limits allow
    size: int = 0
    cost: int = 0  # of the aliases run
    cpu_ms: list[float] = field(default_factory=list)
    slice_ms: float = 0.0
    slice_cpu_ms: float = 0.0  # the loop thread's CPU over its longest slice
    gc_ms: float = 0.0  # the longest garbage collection meanwhile
    health_ms: float | None = None
    health_failures: int = 0
    seconds: float = 0.0  # the wall time of the armed run
    note: str | None = None  # what was wrong with an answer
    failure: str | None = None  # why there are no figures
    lower_bound: bool = False  # measured on one alias of those allowed


async def _armed(
    fx: Fixtures, row: Row, server: Server, one: OneAlias, pilot: Answer | None
) -> None:
    """The run with the probe armed: the whole request, or one alias when the whole would
    take too long by the `pilot` run of one alias."""
    with HealthWatch(server.port) as health:

        async def attempt(request: Request) -> Answer:
            await _loop_probe(server.port, "PUT")
            health.restart()
            return await send(fx.client, server, request)

        if pilot is not None and pilot.seconds * one.aliases > BUDGET_SECONDS:
            row.aliases, answer = 1, await attempt(await row.entry.build(fx, 1, one.size))
            row.cpu_ms.append(pilot.cpu * 1e3)
            row.lower_bound = True
        else:
            row.aliases, answer = await most_accepted(fx, row.entry, one, attempt)
            row.allowed = row.aliases
        longest = await _loop_probe(server.port, "DELETE")
        row.slice_ms, row.slice_cpu_ms = longest["longest_ms"], longest["longest_cpu_ms"]
        row.gc_ms = longest["longest_gc_ms"]
        row.health_ms = max(health.latencies, default=None)
        row.health_failures = health.failures
    row.seconds, row.cost = answer.seconds, row.aliases * one.cost
    row.note = answer.problem(row.entry.expect)


async def _runs(fx: Fixtures, entry: Costliest, costs: Costs, server: Server) -> Row:
    one = await one_alias(fx, entry, costs)
    row = Row(entry, allowed=one.aliases, size=one.size)
    pilot = None
    if one.aliases > 1:
        pilot = await send(fx.client, server, await entry.build(fx, 1, one.size))
    await _armed(fx, row, server, one, pilot)
    if row.lower_bound:
        return row
    for _ in range(REPETITIONS if row.seconds <= SLOW_SECONDS else 1):
        answer = await send(fx.client, server, await entry.build(fx, row.aliases, row.size))
        row.cpu_ms.append(answer.cpu * 1e3)
        row.note = row.note or answer.problem(entry.expect)
    return row


async def quiet(server: Server) -> None:
    """Until the database process rests."""
    if server.database_pid is None:
        return
    loop = asyncio.get_running_loop()
    deadline = loop.time() + QUIET_MAX_SECONDS
    before = cpu_seconds(server.database_pid)
    while loop.time() < deadline:
        await asyncio.sleep(0.5)
        now = cpu_seconds(server.database_pid)
        if now - before < QUIET_CPU_SECONDS:
            return
        before = now


async def measure(fx: Fixtures, entry: Costliest, costs: Costs, server: Server) -> Row:
    """The entry's row; what went wrong in its place, should anything."""
    try:
        row = await _runs(fx, entry, costs, server)
    except Refused as refused:
        return Row(entry, failure=f"refused: {refused}")
    except NoAnswer as missing:
        row = Row(entry, failure=f"{missing}, {missing.cpu * 1e3:,.0f} ms of CPU meanwhile")
    except (GraphQLFailure, RuntimeError, OSError) as error:
        row = Row(entry, failure=f"failed: {error}")
    if row.note or row.failure:
        await quiet(server)
    return row
