"""Writes in flight when the server is stopped. SIGTERM: every call that was received
finishes, whole, and its client gets the answer; nothing is half-applied. kill -9: a call is
cut where it was, so a recordTrades spanning buckets may keep its first buckets (docs/operating.md,
"Timeouts"), but nothing is stored twice and what a call stored is a prefix of it, in order."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from pymongo import MongoClient

from embedded.wire import WireServer, start_wire_server
from tests.support import free_port
from tests.trades.support import RECORD, trade

CALLS = 40
TRADES_PER_CALL = 25  # three buckets of 10 at least: several writes per call


@pytest.fixture
def front() -> Iterator[WireServer]:
    server = start_wire_server()
    yield server
    server.stop()


def start_server(front: WireServer) -> tuple[subprocess.Popen[str], str]:
    port = free_port()
    env = {**os.environ, "MONGODB_URI": front.uri, "ARRAYGRAPH_DB": "signals"}
    process = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--port", str(port)],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(300):
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return process, url
        except httpx.HTTPError:
            time.sleep(0.05)
    process.kill()
    raise AssertionError(process.communicate()[1])


def calls() -> list[list[dict[str, Any]]]:
    return [
        [trade(call * 1_000 + n + 1, seconds=call + 1) for n in range(TRADES_PER_CALL)]
        for call in range(CALLS)
    ]


async def send_all(url: str, stop: signal.Signals, process: subprocess.Popen[str]) -> list[Any]:
    limits = httpx.Limits(max_connections=CALLS)
    async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:

        async def one(trades: list[dict[str, Any]]) -> Any:
            try:
                response = await client.post(
                    "/graphql", json={"query": RECORD, "variables": {"c": 5, "t": trades}}
                )
                return response.json()
            except httpx.HTTPError as exc:
                return exc

        tasks = [asyncio.create_task(one(t)) for t in calls()]
        await asyncio.sleep(0.3)  # some calls in flight, some done, some not yet sent
        process.send_signal(stop)
        return await asyncio.gather(*tasks)


def stored_quantities(front: WireServer) -> list[int]:
    client: MongoClient[dict[str, Any]]
    with MongoClient(front.uri) as client:
        buckets: Any = client["signals"]["trades"].find({"customerId": 5}, sort=[("page", 1)])
        return [t["qty"] for b in buckets for t in b["history"]]


def test_signals_sigterm_finishes_every_received_call_whole(front: WireServer) -> None:
    process, url = start_server(front)
    replies = asyncio.run(send_all(url, signal.SIGTERM, process))
    process.communicate(timeout=60)
    stored = stored_quantities(front)
    assert len(stored) == len(set(stored))  # nothing twice
    for call, trades in enumerate(calls()):
        mine = [q for q in stored if q // 1_000 == call]
        assert mine in ([], [t["qty"] for t in trades]), f"call {call} half-applied"
        reply = replies[call]
        if isinstance(reply, dict) and "errors" not in reply:
            assert mine, f"call {call} answered but not stored"


def test_signals_kill_leaves_prefixes_and_no_duplicates(front: WireServer) -> None:
    process, url = start_server(front)
    asyncio.run(send_all(url, signal.SIGKILL, process))
    process.communicate(timeout=60)
    stored = stored_quantities(front)
    assert len(stored) == len(set(stored))
    for call, trades in enumerate(calls()):
        mine = sorted(q for q in stored if q // 1_000 == call)
        assert mine == [t["qty"] for t in trades][: len(mine)], f"call {call} not a prefix"
