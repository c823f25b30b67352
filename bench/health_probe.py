"""`python -m bench.health_probe PORT SECONDS`: GET /healthz every 50 ms, each on a new
connection as a load balancer's check makes it, and print one JSON object: the latencies in
milliseconds and the failures.

A process of its own, so that what it measures is the server's answer time, not the wait for
the load generator's event loop (which is as busy as the server during a soak)."""

from __future__ import annotations

import argparse
import http.client
import json
import time

INTERVAL_SECONDS = 0.05
TIMEOUT_SECONDS = 10.0


def probe_once(port: int) -> float:
    """Milliseconds from connecting to the end of a 200 answer; raises on anything else."""
    start = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT_SECONDS)
    try:
        connection.request("GET", "/healthz")
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            raise RuntimeError(f"HTTP {response.status}")
    finally:
        connection.close()
    return (time.perf_counter() - start) * 1e3


def probe(port: int, seconds: float) -> dict[str, object]:
    latencies: list[float] = []
    failures: list[str] = []
    deadline = time.perf_counter() + seconds
    while (now := time.perf_counter()) < deadline:
        try:
            latencies.append(probe_once(port))
        except (OSError, http.client.HTTPException, RuntimeError) as error:
            failures.append(repr(error))
        time.sleep(max(0.0, INTERVAL_SECONDS - (time.perf_counter() - now)))
    return {"latencies_ms": latencies, "failures": failures}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.health_probe")
    parser.add_argument("port", type=int)
    parser.add_argument("seconds", type=float)
    args = parser.parse_args()
    print(json.dumps(probe(args.port, args.seconds)))


if __name__ == "__main__":
    main()
