"""Run every benchmark: `make bench` (or `python -m bench [--seconds N] [--soak-seconds N]`).

After the ratios, a short soak (`bench/soak.py`) and the memory bound (`bench/memory_bound.py`);
either failing makes the run exit 1, once everything has printed."""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from datetime import UTC, datetime

from bench import chat, memory_bound, orders, series, soak
from bench.load import post_request, request_once, throughput
from bench.server import serve


def graphql(query: str, variables: dict[str, object] | None = None, *, port: int) -> bytes:
    return post_request("/graphql", {"query": query, "variables": variables or {}}, port=port)


async def requests_per_second(seconds: float, connections: int, rounds: int) -> None:
    """Both servers run side by side; rounds alternate between them and the best of each counts,
    so a burst of background load on this 2-core machine does not decide the ratio."""
    async with serve("bare") as bare_port, serve("full") as full_port:
        requests = {
            "bare": (bare_port, post_request("/json", {"query": "{ __typename }"}, port=bare_port)),
            "typename": (full_port, graphql("{ __typename }", port=full_port)),
            "sensors": (full_port, graphql(SENSORS_PAGE, port=full_port)),
        }
        best = dict.fromkeys(requests, 0.0)
        for _ in range(rounds):
            for name, (port, request) in requests.items():
                rate = await throughput(port, request, connections=connections, seconds=seconds)
                best[name] = max(best[name], rate)
    print(f"bare Starlette JSON endpoint      {best['bare']:9.0f} req/s")
    print(f"{{ __typename }} through the app    {best['typename']:9.0f} req/s")
    print(f"sensors(first: 20) with count24h  {best['sensors']:9.0f} req/s")
    ratio = best["typename"] / best["bare"]
    print(f"ratio __typename / bare           {ratio:9.2f}   (target >= 0.30)")
    print(f"ratio sensors / bare              {best['sensors'] / best['bare']:9.2f}   (reported)")


SENSORS_PAGE = "{ sensors(first: 20) { edges { node { title count24h } } } }"
RECORD = "mutation($e: [SensorEventInput!]!) { recordSensorEvents(events: $e) { accepted } }"
SENSOR_IDS = ["5a934e000102030405000000", "5a934e000102030405000001"]


async def events_per_second(seconds: float) -> None:
    async with serve("full") as port:
        at = datetime.now(UTC).isoformat()

        def call(n: int) -> bytes:
            events = [
                {"sensorId": SENSOR_IDS[i % 2], "at": at, "value": float(i)} for i in range(n)
            ]
            return graphql(RECORD, {"e": events}, port=port)

        rates = {}
        for batch in (1, 1000):
            request = await asyncio.to_thread(call, batch)
            calls, start = 0, time.perf_counter()
            while time.perf_counter() - start < seconds:
                await request_once(port, request)
                calls += 1
            rates[batch] = calls * batch / (time.perf_counter() - start)
    print(f"events/s, one event per call      {rates[1]:9.0f}")
    print(f"events/s, batches of 1,000        {rates[1000]:9.0f}")
    print(f"ratio batch / single              {rates[1000] / rates[1]:9.1f}   (target >= 50)")


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--soak-seconds", type=float, default=20.0)
    args = parser.parse_args()
    asyncio.run(requests_per_second(args.seconds, args.connections, args.rounds))
    asyncio.run(events_per_second(args.seconds))
    asyncio.run(orders.run())
    asyncio.run(series.run())
    asyncio.run(chat.run())
    soaked = asyncio.run(soak.soak(args.soak_seconds, connections=64))
    bounded = asyncio.run(memory_bound.memory_bound())
    if not (soaked and bounded):
        sys.exit(1)


if __name__ == "__main__":
    main()
