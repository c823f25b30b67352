"""SIGTERM while a request waits on a database that stopped answering: the server stops within
ARRAYGRAPH_SHUTDOWN_TIMEOUT_S, without a second signal."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from embedded.wire import start_wire_server
from tests.operations.faults import StallingProxy
from tests.support import free_port


@pytest.fixture
def stalling_proxy() -> Iterator[StallingProxy]:
    """A proxy to a wire front, on a loop of its own (the server under test is another
    process)."""
    front = start_wire_server()
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    proxy = StallingProxy(front.port)
    asyncio.run_coroutine_threadsafe(proxy.start(), loop).result(timeout=10)
    yield proxy
    asyncio.run_coroutine_threadsafe(proxy.close(), loop).result(timeout=10)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(timeout=10)
    front.stop()


def wait_until_serving(url: str, process: subprocess.Popen[str]) -> None:
    for _ in range(200):
        assert process.poll() is None, process.communicate()
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            time.sleep(0.1)
    raise AssertionError("the server did not start")


def test_shutdown_with_a_stalled_request_ends_within_the_grace(
    stalling_proxy: StallingProxy,
) -> None:
    port = free_port()
    env = {
        **os.environ,
        "MONGODB_URI": stalling_proxy.uri,
        "ARRAYGRAPH_MONGODB_TIMEOUT_MS": "60000",  # the stall outlasts the grace
        "ARRAYGRAPH_SHUTDOWN_TIMEOUT_S": "2",
    }
    command = [sys.executable, "-m", "cli", "serve", "--port", str(port)]
    process = subprocess.Popen(command, env=env, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(url, process)
        stalling_proxy.stall()
        query = {"query": "{ sensors(first: 1) { totalCount } }"}
        stuck = threading.Thread(
            target=lambda: httpx.post(f"{url}/graphql", json=query, timeout=30), daemon=True
        )
        stuck.start()
        time.sleep(0.5)  # the request now waits on the stalled database
        stopped = time.monotonic()
        process.send_signal(signal.SIGTERM)
        process.communicate(timeout=30)
        assert time.monotonic() - stopped < 8
    finally:
        if process.poll() is None:
            process.kill()
