"""`bench/cores.py`: the benchmark's servers run on a core of their own, apart from the load."""

from __future__ import annotations

import subprocess
import sys

import pytest

from bench.cores import LOAD_CPUS, SERVER_CPUS, on_server_core
from tests.tools.support import REPO_ROOT

needs_two_cores = pytest.mark.skipif(not SERVER_CPUS, reason="one core: nothing is pinned")
# A thread started by the command reports the cores it may run on.
SHOW_AFFINITY = (
    "import os, threading\n"
    "thread = threading.Thread(target=lambda: print(sorted(os.sched_getaffinity(0))))\n"
    "thread.start()\n"
    "thread.join()"
)


@needs_two_cores
def test_on_server_core_runs_a_command_and_its_threads_on_the_servers_core_alone() -> None:
    command = on_server_core([sys.executable, "-c", SHOW_AFFINITY])
    shown = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, text=True, check=True)
    assert shown.stdout.strip() == str(sorted(SERVER_CPUS))


@needs_two_cores
def test_load_and_servers_never_share_a_core() -> None:
    assert LOAD_CPUS and SERVER_CPUS and not LOAD_CPUS & SERVER_CPUS


def test_on_server_core_refuses_a_call_without_its_separator() -> None:
    refused = subprocess.run(
        [sys.executable, "-m", "bench.cores", "0", "python"], cwd=REPO_ROOT, capture_output=True
    )
    assert refused.returncode != 0
    assert b"usage" in refused.stderr
