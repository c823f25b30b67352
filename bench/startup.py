"""`python -m bench.startup` (and the last part of `make bench`): how long a developer waits for
a first answer, against the targets of the issue "front door": at most 30 s from a fresh clone
and 3 s for a restart.

(a) `git clone` of this repository (its committed HEAD) into a temporary directory, then
`make run PORT=<free port>` there: the virtual environment made and installed (pip's cache is
warm: `make bench` installed the same packages), the demo seeded, until the example query
GraphiQL opens with is answered. (b) `make run` again in that clone, until the same answer. Each
line gives the seed's own time, from the line `serve` prints once it answers ("demo data
loaded in N s"). The lines print OK or ABOVE and do not decide the exit status: on a shared
machine they are measurements, not tests. The servers run on every core, as on a developer's
machine, not pinned as the ratios' are.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

from bench.load import free_port
from web.graphiql.example import EXAMPLE_QUERY

ROOT = Path(__file__).resolve().parents[1]
FRESH_TARGET_S = 30.0
RESTART_TARGET_S = 3.0
FRESH_TIMEOUT_S = 900.0  # a cold pip may download for minutes: measured, not waited forever
RESTART_TIMEOUT_S = 120.0
SEEDED = re.compile(r"demo data loaded in ([\d.]+) s")
EVERY_CORE = frozenset(os.sched_getaffinity(0))  # before `make bench` pins itself


@dataclass(frozen=True)
class Start:
    seconds: float  # from the command's start to the first answer
    cpu_seconds: float  # of make and every process it started (pip, the server), meanwhile
    seed_seconds: float | None  # what the ready line says


class Lines:
    """A process's stderr, read as it comes (so that its pipe never fills)."""

    def __init__(self, process: subprocess.Popen[str]) -> None:
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, args=(process,), daemon=True)
        self._reader.start()

    def _read(self, process: subprocess.Popen[str]) -> None:
        assert process.stderr is not None
        for line in process.stderr:
            self.lines.append(line.rstrip("\n"))

    def seed_seconds(self) -> float | None:
        found = [SEEDED.search(line) for line in self.lines]
        seeded = [float(match[1]) for match in found if match]
        return seeded[-1] if seeded else None


def _answered(port: int) -> bool:
    try:
        response = httpx.post(
            f"http://127.0.0.1:{port}/graphql", json={"query": EXAMPLE_QUERY}, timeout=5
        )
    except httpx.HTTPError:
        return False
    return response.status_code == 200 and "errors" not in response.json()


def _every_core() -> None:
    os.sched_setaffinity(0, EVERY_CORE)


def group_cpu_seconds(group: int) -> float:
    """utime + stime of the processes of a process group, and of their children waited for
    (cutime, cstime: pip's runs under make): the work a start took, whatever else ran."""
    ticks = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # exited meanwhile
            continue
        if int(stat[2]) == group:
            ticks += sum(int(value) for value in stat[11:15])
    return ticks / os.sysconf("SC_CLK_TCK")


def make_run(clone: Path, timeout_s: float) -> Start:
    """`make run PORT=<free>` in `clone` until the example query is answered; then stopped
    (its process group: make and the server it started)."""
    port = free_port()
    began = time.monotonic()
    process = subprocess.Popen(
        ["make", "--no-print-directory", "run", f"PORT={port}"],
        cwd=clone,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        preexec_fn=_every_core,
    )
    lines = Lines(process)
    try:
        while not _answered(port):
            if process.poll() is not None or time.monotonic() - began > timeout_s:
                tail = "\n".join(lines.lines[-20:])
                raise RuntimeError(f"make run did not answer (status {process.poll()}):\n{tail}")
            time.sleep(0.02)
        seconds = time.monotonic() - began
        cpu_seconds = group_cpu_seconds(process.pid)
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=60)
    time.sleep(0.1)  # the reader's last lines
    return Start(seconds, cpu_seconds, lines.seed_seconds())


def _line(label: str, start: Start, target: float, note: str = "") -> str:
    seed = "-" if start.seed_seconds is None else f"{start.seed_seconds:.2f} s"
    verdict = "OK" if start.seconds <= target else "ABOVE"
    return (
        f"    {label:<12} {start.seconds:6.1f} s  CPU {start.cpu_seconds:5.1f} s  seed {seed:>7}  "
        f"target <= {target:g} s  {verdict}{note}"
    )


def run() -> None:
    load = " / ".join(f"{n:.2f}" for n in os.getloadavg())
    print(
        "start-up, to the first answer of GraphiQL's example query: from `git clone` of the\n"
        "committed HEAD then `make run` (pip's cache warm), and from `make run` again; CPU: of\n"
        "make and what it ran (on an idle machine, about the wall time); seed: the demo data's\n"
        f"own time, as `serve` prints it; load average before: {load}"
    )
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        # The install compiled it all (Makefile: --compile-bytecode, compileall).
        print("    (PYTHONDONTWRITEBYTECODE is set: starts use the bytecode the install wrote)")
    workspace = Path(tempfile.mkdtemp(prefix="arraygraph-startup-"))
    try:
        clone = workspace / "arraygraph"
        began = time.monotonic()
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        cloned = time.monotonic() - began
        fresh = make_run(clone, FRESH_TIMEOUT_S)
        fresh = Start(cloned + fresh.seconds, fresh.cpu_seconds, fresh.seed_seconds)
        print(_line("fresh clone", fresh, FRESH_TARGET_S, f"  (git clone {cloned:.1f} s)"))
        restart = make_run(clone, RESTART_TIMEOUT_S)
        print(_line("restart", restart, RESTART_TARGET_S))
    finally:
        shutil.rmtree(workspace, ignore_errors=True)


if __name__ == "__main__":
    run()
