"""2. What must not grow with the sensors: a page by title, a sensor by id and a one-event
write, each on servers of 100, 1,000 and 10,000 sensors, interleaved.
3. Batches: `recordSensorEvents` of 1,000 events over 2 and over 100 sensors against one event
per call, in events per second: on the embedded engine in the server's process, and on a
database process of its own (the engine's wire front, as MongoDB), interleaved in one run; only
the latter is judged against the target: a load measured both ways is judged as MongoDB runs."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bench.fleet import LARGE, MIDDLE, SMALL, Options, Servers
from bench.measure import (
    Load,
    Samples,
    cost_ratio,
    figures,
    interleave,
    rate_ratio,
    ratio_line,
    ratio_text,
)
from bench.overhead import graphql
from bench.seed import Seed
from bench.server import Server

SENSORS_PAGE = (
    "{ sensors(first: 20, orderBy: TITLE) { edges { cursor node { title count24h lastEventAt } }"
    " pageInfo { hasNextPage } } }"
)
SENSOR = "query($id: ID!) { sensor(id: $id) { title count24h lastEventAt } }"
RECORD = "mutation($e: [SensorEventInput!]!) { recordSensorEvents(events: $e) { accepted } }"
BATCH = 1_000
IN_PROCESS = "engine in the server's process (the default)"
APART = "database in a process of its own (the engine's wire front, as MongoDB)"
# A load measured both ways is judged with the database in a process of its own, as MongoDB runs.
UNJUDGED = "not judged: the database shares the server's process"


def _events(seed: Seed, sensors: list[int], count: int, at: str) -> list[dict[str, Any]]:
    return [
        {"sensorId": str(seed.sensor_id(sensors[i % len(sensors)])), "at": at, "value": float(i)}
        for i in range(count)
    ]


def _kinds(seed: Seed, server: Server, at: str) -> dict[str, bytes]:
    busy = seed.busy_sensor()
    return {
        "sensors(first: 20, orderBy: TITLE)": graphql(server, SENSORS_PAGE),
        "sensor(id)": graphql(server, SENSOR, {"id": str(seed.sensor_id(busy))}),
        "recordSensorEvents, one event": graphql(
            server, RECORD, {"e": _events(seed, [busy], 1, at)}
        ),
    }


def _print_kind(kind: str, found: dict[str, Samples]) -> None:
    print(f"    {kind}")
    for name, samples in found.items():
        print(f"      {name:>6} sensors {'':<36} {figures(samples)}")
    small, large = found["100"], found["10,000"]
    by_cpu, by_rate = cost_ratio(large, small), rate_ratio(small, large)
    print(ratio_line("  10,000 / 100 sensors, CPU per request", by_cpu, by_rate, "<=", 2))


async def flat(servers: Servers, options: Options, at: str) -> None:
    print("2. at 100, 1,000 and 10,000 sensors (one server each)")
    seeded = {"100": (SMALL, servers.small), "1,000": (MIDDLE, servers.middle)}
    seeded["10,000"] = (LARGE, servers.large)
    requests = {name: _kinds(seed, server, at) for name, (seed, server) in seeded.items()}
    for kind in requests["100"]:
        loads = [Load(name, seeded[name][1], requests[name][kind]) for name in seeded]
        found = await interleave(
            loads, rounds=options.rounds, seconds=options.seconds, connections=options.connections
        )
        _print_kind(kind, found)


def _batch_loads(server: Server, where: str, at: str) -> list[Load]:
    every = list(range(SMALL.sensors))
    spreads = {"one event per call": ([0], 1), "1,000 events over 2 sensors": ([0, 1], BATCH)}
    spreads["1,000 events over 100 sensors"] = (every, BATCH)
    return [
        Load(
            f"{where}: {name}",
            server,
            graphql(server, RECORD, {"e": _events(SMALL, *spread, at)}),
            units=spread[1],
        )
        for name, spread in spreads.items()
    ]


async def batches(servers: Servers, options: Options, at: str) -> None:
    """Measured on the embedded engine in the server's process (the default) and on a
    database process of its own (as on MongoDB), in one interleaved run."""
    sides = {IN_PROCESS: servers.small, APART: servers.small_apart}
    loads = [load for where, server in sides.items() for load in _batch_loads(server, where, at)]
    found = await interleave(
        loads, rounds=options.rounds, seconds=options.seconds, connections=options.connections
    )
    print("3. recordSensorEvents: batches of 1,000 against one event per call (100 sensors)")
    for where in sides:
        print(f"    {where}")
        mine = {
            name.split(": ", 1)[1]: samples
            for name, samples in found.items()
            if name.startswith(where)
        }
        for name, samples in mine.items():
            print(f"      {name:<50} {figures(samples, 'event')}")
        single = mine["one event per call"]
        for name in ("1,000 events over 2 sensors", "1,000 events over 100 sensors"):
            batch = mine[name]
            label = f"  events/s, {name.split(' over ')[1]} / single"
            by_cpu, by_rate = cost_ratio(single, batch), rate_ratio(batch, single)
            if where == APART:
                print(ratio_line(label, by_cpu, by_rate, ">=", 50))
            else:  # the stand-in's own speed, which no deployment runs: shown, never judged
                print(ratio_text(label, by_cpu, by_rate, UNJUDGED))


async def run(servers: Servers, options: Options) -> None:
    at = datetime.now(UTC).isoformat()
    await flat(servers, options, at)
    await batches(servers, options, at)
