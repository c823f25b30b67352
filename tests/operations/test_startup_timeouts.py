"""`arraygraph serve` against a database it cannot use: it gives up after
ARRAYGRAPH_STARTUP_TIMEOUT_S with one line naming the host and the cause, and SIGTERM stops it
while it waits."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

from tests.operations.faults import closed_port, hanging_server
from tests.support import free_port


def serve(uri: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--port", str(free_port())],
        env={**os.environ, "MONGODB_URI": uri, **env},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def test_startup_against_a_server_that_never_answers_gives_up_in_one_line() -> None:
    with hanging_server() as port:
        started = time.monotonic()
        process = serve(f"mongodb://127.0.0.1:{port}/", ARRAYGRAPH_STARTUP_TIMEOUT_S="2")
        _, stderr = process.communicate(timeout=60)
    assert process.returncode == 1
    assert time.monotonic() - started < 30
    lines = [line for line in stderr.splitlines() if line.startswith("arraygraph: cannot")]
    assert len(lines) == 1, stderr
    assert f"127.0.0.1:{port}" in lines[0] and "within 2 s" in lines[0]
    assert "Traceback" not in stderr


def test_startup_against_a_closed_port_names_the_refusal() -> None:
    port = closed_port()
    process = serve(f"mongodb://u:secret@127.0.0.1:{port}/", ARRAYGRAPH_STARTUP_TIMEOUT_S="1")
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 1
    assert f"cannot reach MongoDB at 127.0.0.1:{port} within 1 s" in stderr
    assert "refused" in stderr.lower() or "failed" in stderr.lower()
    assert "secret" not in stderr  # the URI's password never reaches a log line


def test_startup_wait_stops_on_sigterm() -> None:
    with hanging_server() as port:
        process = serve(f"mongodb://127.0.0.1:{port}/", ARRAYGRAPH_STARTUP_TIMEOUT_S="120")
        time.sleep(1.5)  # waiting for the database by now
        assert process.poll() is None
        stopped = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=20)
    assert process.returncode != 0
    assert time.monotonic() - stopped < 5
