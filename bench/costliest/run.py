"""`python -m bench.costliest` (and the last part of `make bench`): for each root field, the
costliest request the default limits allow, the server's CPU time to answer it and the longest
slice of its event loop meanwhile, against the targets of "work bounded by what is charged":
at most 250 ms of CPU and 100 ms of slice.

One uvicorn process serves the app with the demo data and the default limits (bench/apps.py:
`demo_probed`), its database the embedded engine behind its wire front in a process of its own
(bench/database_process.py), on the load generator's core as a database on another machine
would be: the server's core and CPU are its own. The requests are bench/costliest/requests.py's
and bench/costliest/writes.py's, with as many aliases as the server accepts
(bench/costliest/fit.py); writes name fresh ids on every run, so that each run writes. CPU is
the server process's utime + stime (/proc/<pid>/stat, in clock ticks) around a request; how
the runs go is bench/costliest/runs.py's to say. Like the ratios, the lines print OK or ABOVE
and do not decide the exit status.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time

from bench.apps import BENCH_TOKEN
from bench.client import GraphQLClient
from bench.cores import pin_load_generator
from bench.costliest.fit import Costs
from bench.costliest.requests import QUERIES, fixtures
from bench.costliest.runs import Row, measure
from bench.costliest.writes import MUTATIONS
from bench.server import running, running_database

CPU_TARGET_MS = 250.0
SLICE_TARGET_MS = 100.0
# A garbage collection this long during a run is named on its line: it may be the slice.
GC_NOTED_MS = 20.0
HEADER = (
    "    root field                    aliases      cost   CPU ms  slice ms (CPU) /healthz ms"
    "                  request (wall time of the slice's run)"
)


def _verdict(value: float, target: float) -> str:
    return "OK" if value <= target else "ABOVE"


def line(row: Row, operation: str) -> str:
    """One root field's figures; `>=` marks a lower bound, the request measured on one alias
    of those allowed."""
    label = f"{operation}.{row.entry.name}"
    what = row.entry.what.format(size=row.size)
    if row.failure is not None or not row.cpu_ms:
        return f"    {label:<29} {what}: {row.failure}"
    cpu = statistics.median(row.cpu_ms)
    at_least = ">=" if row.lower_bound else "  "
    aliases = f"{row.aliases} of {row.allowed}" if row.lower_bound else str(row.aliases)
    health = "-" if row.health_ms is None else f"{row.health_ms:.0f}"
    if row.health_failures:
        health += f" ({row.health_failures} failed)"
    slices = f"{at_least}{row.slice_ms:6.0f} ({row.slice_cpu_ms:.0f})"
    figures = f"{at_least}{cpu:6.0f} {slices:>16} {health:>11}"
    verdicts = (
        f"CPU {_verdict(cpu, CPU_TARGET_MS):<5} slice {_verdict(row.slice_ms, SLICE_TARGET_MS):<5}"
    )
    collected = f"; a collection of {row.gc_ms:.0f} ms" if row.gc_ms >= GC_NOTED_MS else ""
    found = (
        f"    {label:<29} {aliases:>7} {row.cost:>9,} {figures}  {verdicts}  {what} "
        f"({row.seconds:.2f} s{collected})"
    )
    return found if row.note is None else f"{found}\n        answer: {row.note}"


async def run() -> None:
    print(
        "work bounded by what is charged: per root field, the costliest request the default\n"
        "limits allow on the demo data (as many aliases as the server accepts), the server's\n"
        f"CPU for it (target <= {CPU_TARGET_MS:g} ms; /proc/<pid>/stat, median of the runs),\n"
        f"the longest event-loop slice while it runs (target <= {SLICE_TARGET_MS:g} ms; a probe\n"
        "in the server; in brackets the loop thread's CPU over it: less when other processes\n"
        "took the server's core meanwhile) and the slowest /healthz answer meanwhile; the\n"
        "database a process of its own; >= marks figures of one alias of those allowed"
    )
    started = time.perf_counter()
    async with (
        running_database(off_server_core=True) as database,
        running("demo_probed", database=database) as server,
    ):
        client = GraphQLClient(server.port, token=BENCH_TOKEN)
        fx = await fixtures(client)
        costs = Costs.on(client, server)
        print(HEADER)
        for operation, entries in (("Query", QUERIES), ("Mutation", MUTATIONS)):
            for entry in entries:
                print(line(await measure(fx, entry, costs, server), operation), flush=True)
        await client.close()
    print(f"    ({time.perf_counter() - started:.0f} s)")


def main() -> None:
    argparse.ArgumentParser(prog="python -m bench.costliest", description=__doc__).parse_args()
    pin_load_generator()
    asyncio.run(run())
