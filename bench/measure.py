"""Interleaved A/B measurement: throughput and the server's CPU time per request.

A `Load` is one request sent again and again to one server process. `interleave` measures
several loads in rounds, each round running every load once, in an order that rotates from one
round to the next, so that a burst of background work on this shared 2-core machine falls on
every side alike. For each measurement it reads the server's user + system CPU time from
/proc/<pid>/stat before the first request and after the last answer: CPU per request does not
depend on how much of a core the server got (the load generator shares the machine), so it is
the stable figure, and the ratios are judged on it. Every figure printed is the median of the
rounds; a ratio is the median of the per-round ratios (the two sides of a round ran seconds
apart)."""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.load import Rotation, drive, request_once
from bench.server import Server, cpu_seconds

WARM_UP_SECONDS = 0.5


@dataclass(frozen=True)
class Load:
    name: str
    server: Server
    request: bytes | Rotation
    units: int = 1  # what one request carries (events of a batch), for per-unit figures

    @property
    def first_request(self) -> bytes:
        return self.request if isinstance(self.request, bytes) else self.request.first


@dataclass(frozen=True)
class Sample:
    requests: int
    seconds: float
    cpu: float  # server CPU seconds over the sample
    database_cpu: float | None = None  # its database process's, when it has one

    @property
    def rate(self) -> float:
        return self.requests / self.seconds

    @property
    def cpu_per_request(self) -> float:
        return self.cpu / self.requests


@dataclass
class Samples:
    load: Load
    rounds: list[Sample] = field(default_factory=list)

    @property
    def rate(self) -> float:
        """Requests per second, median of the rounds."""
        return statistics.median(s.rate for s in self.rounds)

    @property
    def cpu_per_request(self) -> float:
        """Server CPU seconds per request, median of the rounds."""
        return statistics.median(s.cpu_per_request for s in self.rounds)

    @property
    def database_cpu_per_request(self) -> float | None:
        """The database process's CPU seconds per request (median), when it has one."""
        if any(s.database_cpu is None for s in self.rounds):
            return None
        return statistics.median((s.database_cpu or 0.0) / s.requests for s in self.rounds)

    @property
    def busy(self) -> float:
        """The share of one core the server used while measured (median)."""
        return statistics.median(s.cpu / s.seconds for s in self.rounds)


async def sample(load: Load, *, seconds: float, connections: int) -> Sample:
    pid, database = load.server.pid, load.server.database_pid
    before = cpu_seconds(pid)
    database_before = None if database is None else cpu_seconds(database)
    requests, elapsed = await drive(
        load.server.port, load.request, connections=connections, seconds=seconds
    )
    database_cpu = None
    if database is not None and database_before is not None:
        database_cpu = cpu_seconds(database) - database_before
    return Sample(requests, elapsed, cpu_seconds(pid) - before, database_cpu)


async def interleave(
    loads: Sequence[Load], *, rounds: int, seconds: float, connections: int
) -> dict[str, Samples]:
    """Every load once per round (after a check and an unmeasured warm-up of each), the order
    rotating."""
    for load in loads:
        answer = await request_once(load.server.port, load.first_request)
        if b'"errors"' in answer or b'"data"' not in answer:
            raise RuntimeError(f"{load.name}: not a clean answer: {answer[:300]!r}")
        await sample(load, seconds=WARM_UP_SECONDS, connections=connections)
    found = {load.name: Samples(load) for load in loads}
    for number in range(rounds):
        shift = number % len(loads)
        for load in [*loads[shift:], *loads[:shift]]:
            found[load.name].rounds.append(
                await sample(load, seconds=seconds, connections=connections)
            )
    return found


def cost_ratio(a: Samples, b: Samples) -> float:
    """Server CPU per unit of `a` over `b`'s: the median of the rounds' ratios. As a ratio of
    throughputs, `cost_ratio(a, b)` is `b`'s over `a`'s, on a core each had whole."""
    return statistics.median(
        (x.cpu_per_request / a.load.units) / (y.cpu_per_request / b.load.units)
        for x, y in zip(a.rounds, b.rounds, strict=True)
    )


def rate_ratio(a: Samples, b: Samples) -> float:
    """Units per second of `a` over `b`'s: the median of the rounds' ratios."""
    return statistics.median(
        (x.rate * a.load.units) / (y.rate * b.load.units)
        for x, y in zip(a.rounds, b.rounds, strict=True)
    )


def verdict(value: float, op: str, target: float) -> str:
    """`target >= 0.6  OK`; BELOW when a lower bound (>=, >) is missed, ABOVE an upper one."""
    met = {">=": value >= target, ">": value > target, "<=": value <= target}[op]
    return f"target {op} {target:g}  " + ("OK" if met else "ABOVE" if op == "<=" else "BELOW")


def figures(samples: Samples, unit: str = "req") -> str:
    """`  12,345 req/s    81.0 us CPU/req (92 % of a core)`, per unit when the load has units."""
    units = samples.load.units
    rate = samples.rate * units
    cpu = samples.cpu_per_request / units * 1e6
    found = f"{rate:9,.0f} {unit}/s {cpu:9.1f} us CPU/{unit} ({samples.busy:4.0%} of a core)"
    database = samples.database_cpu_per_request
    if database is not None:
        found += f"; database process {database / units * 1e6:.1f} us/{unit}"
    return found


def ratio_line(label: str, by_cpu: float, by_rate: float, op: str, target: float) -> str:
    """A ratio judged on CPU per unit, the ratio of rates beside it."""
    return ratio_text(label, by_cpu, by_rate, verdict(by_cpu, op, target))


def ratio_text(label: str, by_cpu: float, by_rate: float, note: str) -> str:
    """A ratio as the bench prints one: by CPU, by rate beside it, then `note` (its verdict, or
    why it has none)."""
    return f"    {label:<40} {by_cpu:8.2f} by CPU  ({by_rate:6.2f} by rate)  {note}"
