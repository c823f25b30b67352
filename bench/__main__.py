"""Run every benchmark: `make bench` (or `python -m bench [--seconds N] [--rounds N]
[--connections N] [--soak-seconds N]`).

First the ratios of performance issue 15 on real servers (bench/fleet.py: the server's CPU time
per request beside throughput, interleaved rounds; bench/overhead.py, bench/scaling.py,
bench/stored.py) and of bearer JWTs (issue 35: bench/identity/), then the embedded engine's
comparisons (bench/engine/: orders, time series, chat), a short soak (`bench/soak/`) and the
memory bound (`bench/memory_bound.py`); either of those two failing makes the run exit 1, once
everything has printed. Last, per root field, the server's CPU and longest event-loop slice for
the costliest request the default limits allow (`bench/costliest/`), and how long `make run`
takes to answer from a fresh clone and on a restart (`bench/startup.py`). The ratios, the
costliest requests and the start-up print OK, BELOW or ABOVE against their targets and do not
decide the exit status: on a shared machine they are measurements, not tests."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

import uvloop

from bench import memory_bound, overhead, scaling, startup, stored
from bench.cores import pin_load_generator
from bench.costliest import run as costliest
from bench.engine import chat, orders, series
from bench.fleet import Options, started
from bench.identity import run as identity
from bench.soak.run import soak


async def ratios(options: Options) -> None:
    load = " / ".join(f"{n:.2f}" for n in os.getloadavg())
    print(
        "performance issue 15: the server's CPU time per request (/proc/<pid>/stat utime +\n"
        f"stime) beside throughput; {options.rounds} interleaved rounds of {options.seconds:g} s "
        f"per load, {options.connections} keep-alive connections;\n"
        "each server its own uvicorn process, same options; figures are medians of the rounds,\n"
        "ratios medians of the rounds' ratios, judged on CPU per request (the ratio of rates\n"
        f"beside it); load average before: {load}"
    )
    async with started() as servers:
        await overhead.run(servers, options)
        await scaling.run(servers, options)
        await stored.run(servers, options)
    await identity.run(options)  # a server of its own, once the others are stopped


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench")
    parser.add_argument("--seconds", type=float, default=1.5, help="per load and round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--connections", type=int, default=16)
    parser.add_argument("--soak-seconds", type=float, default=20.0)
    args = parser.parse_args()
    pin_load_generator()  # off the servers' core (bench.cores)
    # uvloop for the load generator: one core must keep the servers busy.
    uvloop.run(ratios(Options(args.seconds, args.rounds, args.connections)))
    asyncio.run(orders.run())
    asyncio.run(series.run())
    asyncio.run(chat.run())
    soaked = asyncio.run(soak(args.soak_seconds, connections=64))
    bounded = asyncio.run(memory_bound.memory_bound())
    asyncio.run(costliest.run())
    startup.run()
    if not (soaked and bounded):
        sys.exit(1)


if __name__ == "__main__":
    main()
