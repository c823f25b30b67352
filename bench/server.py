"""The server under test: one uvicorn process serving an app of `bench/apps.py`, and what the
benchmarks read about that process from /proc."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.cores import on_load_cores, on_server_core
from bench.load import free_port

# The `full` app seeds the demo data before it listens: about a second, many more on a busy
# 2-core machine.
STARTUP_SECONDS = 120.0
# The database a seeded app (bench/apps.py) runs on, when not the embedded engine.
DATABASE_VARIABLE = "ARRAYGRAPH_BENCH_DATABASE"


@dataclass(frozen=True)
class Server:
    port: int
    pid: int
    database_pid: int | None = None  # the process of its database, when not in its own


def database_uri(database: Server) -> str:
    return f"mongodb://127.0.0.1:{database.port}/?directConnection=true"


async def _wait_listening(process: asyncio.subprocess.Process, port: int) -> None:
    deadline = time.monotonic() + STARTUP_SECONDS
    while time.monotonic() < deadline:
        if process.returncode is not None:
            raise RuntimeError(f"the server exited at start-up with status {process.returncode}")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        return
    raise RuntimeError(f"the server did not listen on port {port} within {STARTUP_SECONDS:g} s")


@asynccontextmanager
async def running(
    factory: str,
    *,
    python: str = sys.executable,
    module: str = "bench.apps",
    env: Mapping[str, str] | None = None,
    database: Server | None = None,
) -> AsyncIterator[Server]:
    """One uvicorn process serving `<module>:<factory>` on a free loopback port, run by
    `python` (another environment's, for a peer) with `env` added to this one's; on
    `database` (`running_database`) when given, else on the embedded engine in its own
    process. Every server gets the same uvicorn options, and runs on the servers' core
    (`bench.cores`)."""
    port = free_port()
    uri = {} if database is None else {DATABASE_VARIABLE: database_uri(database)}
    command = [
        python, "-m", "uvicorn", f"{module}:{factory}", "--factory",
        "--port", str(port), "--log-level", "warning", "--no-access-log",
    ]  # fmt: skip
    process = await asyncio.create_subprocess_exec(
        *on_server_core(command), env={**os.environ, **(env or {}), **uri}
    )
    async with _stopping(process):
        await _wait_listening(process, port)
        yield Server(port, process.pid, None if database is None else database.pid)


@asynccontextmanager
async def running_database(*, off_server_core: bool = False) -> AsyncIterator[Server]:
    """The embedded engine behind its wire front in a process of its own
    (bench/database_process.py), standing in for a MongoDB server: on the servers' core, or
    beside the load generator (`off_server_core`), as a database on another machine."""
    port = free_port()
    command = [sys.executable, "-m", "bench.database_process", str(port)]
    placed = on_load_cores(command) if off_server_core else on_server_core(command)
    process = await asyncio.create_subprocess_exec(*placed)
    async with _stopping(process):
        await _wait_listening(process, port)
        yield Server(port, process.pid)


@asynccontextmanager
async def _stopping(process: asyncio.subprocess.Process) -> AsyncIterator[None]:
    try:
        yield
    finally:
        if process.returncode is None:
            process.terminate()
        await asyncio.wait_for(process.wait(), 30)


@asynccontextmanager
async def serve(factory: str) -> AsyncIterator[int]:
    """The port of `running(factory)`, for benchmarks that need nothing else of the process."""
    async with running(factory) as server:
        yield server.port


def _status_kib(pid: int, field: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name == field:
            return int(value.split()[0])  # "123456 kB"
    raise RuntimeError(f"/proc/{pid}/status has no {field}")


def rss_mib(pid: int) -> float:
    """The resident set size of the process now (VmRSS)."""
    return _status_kib(pid, "VmRSS") / 1024


def peak_rss_mib(pid: int) -> float:
    """The highest resident set size the process has had (VmHWM): it catches peaks that fall
    between two samples."""
    return _status_kib(pid, "VmHWM") / 1024


def cpu_seconds(pid: int) -> float:
    """User and system CPU time the process has used (/proc/<pid>/stat)."""
    stat = Path(f"/proc/{pid}/stat").read_text()
    # The command name, in parentheses, may hold spaces: count fields after its closing one.
    fields = stat[stat.rindex(")") + 2 :].split()
    user, system = int(fields[11]), int(fields[12])  # utime and stime, fields 14 and 15
    return (user + system) / os.sysconf("SC_CLK_TCK")
