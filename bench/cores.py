"""Which cores the load generator and the servers run on: apart, as the issue measured
(uvicorn pinned to one core, the load generator beside it).

With two cores or more, every process under test (servers, peers, database processes) runs on
the last one and the benchmark's own process, the load generator, on the others: a server then
never shares its core with the load, and its threads (the embedded engine's worker beside the
event loop) never move between cores, whose caches they would otherwise pass back and forth
(on the development machine, unpinned, the engine's writes cost a third more CPU). On one core
nothing is pinned.

`python -m bench.cores <cpus> -- <command...>` runs a command on `<cpus>` (comma-separated):
the affinity is set before the command starts, so every thread it starts inherits it.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

_AVAILABLE = sorted(os.sched_getaffinity(0))
SERVER_CPUS = frozenset(_AVAILABLE[-1:]) if len(_AVAILABLE) > 1 else frozenset()
LOAD_CPUS = frozenset(_AVAILABLE[:-1]) if len(_AVAILABLE) > 1 else frozenset()


def pin_load_generator() -> None:
    """Keep this process (the load generator) off the servers' core."""
    if LOAD_CPUS:
        os.sched_setaffinity(0, LOAD_CPUS)


def on_server_core(command: Sequence[str]) -> list[str]:
    """`command`, run on the servers' core (as it is, on one core)."""
    if not SERVER_CPUS:
        return list(command)
    cpus = ",".join(str(cpu) for cpu in sorted(SERVER_CPUS))
    return [sys.executable, "-m", "bench.cores", cpus, "--", *command]


def on_load_cores(command: Sequence[str]) -> list[str]:
    """`command`, run beside the load generator, off the servers' core (as it is, on one
    core): for a database that must not take the measured server's core."""
    if not LOAD_CPUS:
        return list(command)
    cpus = ",".join(str(cpu) for cpu in sorted(LOAD_CPUS))
    return [sys.executable, "-m", "bench.cores", cpus, "--", *command]


def main(arguments: Sequence[str]) -> None:
    cpus, separator, *command = arguments
    if separator != "--" or not command:
        raise SystemExit("usage: python -m bench.cores <cpus> -- <command...>")
    os.sched_setaffinity(0, {int(cpu) for cpu in cpus.split(",")})
    os.execvp(command[0], command)


if __name__ == "__main__":
    main(sys.argv[1:])
