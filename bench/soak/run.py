"""Load and soak: `python -m bench.soak --seconds N --connections 64` (`make soak`).

Starts the real server (uvicorn, the `full` app: the embedded engine with the demo data),
makes one sensor, one chat session, one customer and one user's orders per group of workers
(bench/soak/workload.py), then for N seconds sends a mix of reads and writes over keep-alive
HTTP/1.1 connections. Every write carries an identity of its own (an idempotency key, an order
id, a trade's quantity, a client message id), and what the server acknowledged is recorded;
afterwards each is read back through GraphQL and must be there exactly once
(bench/soak/verify.py). Meanwhile a separate process polls /healthz (bench/health_probe.py),
and the server's RSS is read from /proc before and after the load.

Prints requests/s, p50/p99 latency per kind, errors, /healthz latency and RSS; exits 1 when any
request failed, any /healthz poll failed, or any acknowledged write is missing or doubled."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from bench.client import GraphQLClient, GraphQLFailure
from bench.cores import pin_load_generator
from bench.server import Server, cpu_seconds, peak_rss_mib, rss_mib, running
from bench.soak.verify import Found, verify
from bench.soak.workload import GROUPS, WRITES, Ledger, Targets, Workload

CREATE_SENSOR = "mutation($t: String!) { createSensor(title: $t) { sensorId } }"
CREATE_SESSION = "mutation($t: String!) { createChatSession(title: $t) { sessionId } }"
FIRST_CUSTOMER = 900_001  # no demo customer is near it
# What a request can fail with: a refused or dropped connection, an answer that is not 200 or
# carries errors, one that is not JSON, or one without the fields the write asked for.
REQUEST_ERRORS = (GraphQLFailure, OSError, asyncio.IncompleteReadError, ValueError, KeyError)


@dataclass
class Results:
    latencies: defaultdict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: Counter[str] = field(default_factory=Counter)
    first_errors: list[str] = field(default_factory=list)

    def fail(self, kind: str, error: BaseException) -> None:
        self.errors[kind] += 1
        if len(self.first_errors) < 10:
            self.first_errors.append(f"{kind}: {error!r}"[:400])


@dataclass(frozen=True)
class Health:
    latencies_ms: list[float]
    failures: list[str]


async def make_targets(client: GraphQLClient) -> Targets:
    sensors, sessions = [], []
    for group in range(GROUPS):
        created = await client.call(CREATE_SENSOR, {"t": f"soak group {group}"})
        sensors.append(created["createSensor"]["sensorId"])
        opened = await client.call(CREATE_SESSION, {"t": f"soak group {group}"})
        sessions.append(opened["createChatSession"]["sessionId"])
    return Targets(sensors, sessions, [FIRST_CUSTOMER + group for group in range(GROUPS)])


async def _worker(
    worker: int, port: int, workload: Workload, deadline: float, results: Results
) -> None:
    client = GraphQLClient(port)
    try:
        while time.perf_counter() < deadline:
            kind = workload.pick()
            body, acknowledge = workload.operation(kind, worker)
            start = time.perf_counter()
            try:
                data = await client.post(body)
                if acknowledge is not None:
                    acknowledge(data)
            except REQUEST_ERRORS as error:
                results.fail(kind, error)
                if acknowledge is not None:  # it may be stored or not: nobody knows
                    workload.ledger.unacknowledged[kind] += 1
                continue
            results.latencies[kind].append(time.perf_counter() - start)
    finally:
        await client.close()


async def _probe_health(port: int, seconds: float) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.health_probe", str(port), str(seconds),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip


@dataclass(frozen=True)
class Load:
    results: Results
    health: Health
    elapsed: float
    # CPU seconds the server and this load generator used: on a shared 2-core machine they
    # tell a server that was busy from one that waited.
    server_cpu: float
    generator_cpu: float


async def _load(server: Server, workload: Workload, seconds: float, connections: int) -> Load:
    """The load, with /healthz polled beside it."""
    results = Results()
    probe = await _probe_health(server.port, seconds)
    cpu = cpu_seconds(server.pid), time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    await asyncio.gather(
        *(_worker(n, server.port, workload, deadline, results) for n in range(connections))
    )
    elapsed = time.perf_counter() - start
    server_cpu, generator_cpu = cpu_seconds(server.pid) - cpu[0], time.process_time() - cpu[1]
    polled, _ = await probe.communicate()
    parsed: dict[str, Any] = json.loads(polled) if polled else {"latencies_ms": [], "failures": []}
    if probe.returncode:
        parsed["failures"].append(f"the probe exited with status {probe.returncode}")
    health = Health(parsed["latencies_ms"], parsed["failures"])
    return Load(results, health, elapsed, server_cpu, generator_cpu)


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


@dataclass(frozen=True)
class Run:
    connections: int
    load: Load
    rss: tuple[float, float, float]  # before, after, peak (MiB)
    found: dict[str, Found]
    unacknowledged: Counter[str]


def _print_requests(run: Run) -> None:
    results, elapsed = run.load.results, run.load.elapsed
    total = sum(len(v) for v in results.latencies.values()) + sum(results.errors.values())
    print(f"soak: {elapsed:.1f} s, {run.connections} keep-alive connections, "
          f"embedded engine with the demo data")  # fmt: skip
    print(f"  requests        {total:,} in all, {total / elapsed:,.0f} req/s, "
          f"{sum(results.errors.values())} errors")  # fmt: skip
    print(f"  CPU             server {run.load.server_cpu / elapsed:.0%} of a core, "
          f"load generator {run.load.generator_cpu / elapsed:.0%}")  # fmt: skip
    print(f"  {'kind':<20}{'answered':>6}{'p50 ms':>10}{'p99 ms':>10}{'errors':>8}")
    for kind in sorted(
        set(results.latencies) | set(results.errors), key=lambda k: (k in WRITES, k)
    ):
        times = results.latencies[kind]
        label = f"{'write' if kind in WRITES else 'read'} {kind}"
        print(f"  {label:<20}{len(times):>6}{percentile(times, 0.5) * 1e3:>10.1f}"
              f"{percentile(times, 0.99) * 1e3:>10.1f}{results.errors[kind]:>8}")  # fmt: skip
    for line in results.first_errors:
        print(f"    error: {line}")


def _print_health_and_memory(run: Run) -> None:
    health = run.load.health
    polls = health.latencies_ms
    print(f"  /healthz        from a separate process, every 50 ms: {len(polls)} answered, "
          f"{len(health.failures)} failed")  # fmt: skip
    if polls:
        print(f"                  p50 {percentile(polls, 0.5):.1f} ms, "
              f"p99 {percentile(polls, 0.99):.1f} ms, max {max(polls):.1f} ms")  # fmt: skip
    for failure in health.failures[:5]:
        print(f"    failed: {failure}")
    before, after, peak = run.rss
    print(f"  server RSS      before the load {before:.1f} MiB, after it {after:.1f} MiB "
          f"(peak {peak:.1f} MiB)")  # fmt: skip


def report(run: Run) -> bool:
    """Print the summary; whether the run passed."""
    _print_requests(run)
    _print_health_and_memory(run)
    print("  every acknowledged write read back, exactly once?")
    problems = 0
    for name, (found, issues) in run.found.items():
        print(f"    {name:<15} {found}: {'ok' if not issues else 'FAILED'}")
        for issue in issues[:10]:
            print(f"      {issue}")
        problems += len(issues)
    if run.unacknowledged:
        print(
            f"    unacknowledged writes (errors; may be stored or not): {dict(run.unacknowledged)}"
        )
    passed = not problems and not run.load.results.errors and not run.load.health.failures
    print(f"soak {'OK' if passed else 'FAILED'}")
    return passed


async def soak(seconds: float, connections: int) -> bool:
    async with running("full") as server:
        setup = GraphQLClient(server.port)
        targets = await make_targets(setup)
        await setup.close()  # idle through the load, uvicorn would close it
        workload = Workload(targets, Ledger(), seed=int(time.time()))
        before = rss_mib(server.pid)
        started = datetime.now(UTC)
        load = await _load(server, workload, seconds, connections)
        after, peak = rss_mib(server.pid), peak_rss_mib(server.pid)
        checker = GraphQLClient(server.port)
        found = await verify(checker, workload.ledger, started)
        await checker.close()
    rss = (before, after, peak)
    return report(Run(connections, load, rss, found, workload.ledger.unacknowledged))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.soak")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--connections", type=int, default=64)
    args = parser.parse_args(argv)
    pin_load_generator()
    if not asyncio.run(soak(args.seconds, args.connections)):
        sys.exit(1)
