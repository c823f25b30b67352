"""A kept-alive connection waits `ARRAYGRAPH_KEEP_ALIVE_S` (75 s) for its next request, longer
than the load balancers in front keep theirs (AWS ALB and nginx: 60 s), so the balancer closes
an idle connection first and never reuses one the server is closing (a 502). uvicorn's default,
5 s, stood; the per-request deadlines do not cut the wait short either."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time

from store.database import Database
from tests.operations.served import close_all, served, status_of, wait_until_serving
from tests.support import free_port

UVICORN_DEFAULT_S = 5
HEALTHZ = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


def _status(sock: socket.socket) -> bytes:
    """The status line of the next answer (its body read whole), or b"" once closed."""
    received = b""
    try:
        while b"\r\n\r\n" not in received:
            chunk = sock.recv(65536)
            if not chunk:
                return b""
            received += chunk
    except OSError:
        return b""
    head, _, body = received.partition(b"\r\n\r\n")
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    while len(body) < length:
        body += sock.recv(65536)
    return head.split(b"\r\n")[0]


def test_keep_alive_of_serve_outlasts_uvicorns_default() -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k != "ARRAYGRAPH_KEEP_ALIVE_S"}
    env["MONGODB_URI"] = "memory://"
    command = [sys.executable, "-m", "cli", "serve", "--port", str(port)]
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        wait_until_serving(f"http://127.0.0.1:{port}", process)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            sock.sendall(HEALTHZ)
            first = _status(sock)
            time.sleep(UVICORN_DEFAULT_S + 1)
            with contextlib.suppress(OSError):  # closed: the answer below is b""
                sock.sendall(HEALTHZ)
            second = _status(sock)
    finally:
        process.terminate()
        process.communicate(timeout=30)
    assert (first, second) == (b"HTTP/1.1 200 OK", b"HTTP/1.1 200 OK")


async def test_keep_alive_wait_is_not_cut_by_the_request_deadlines(database: Database) -> None:
    async with served(database, head_timeout_s=1, request_read_timeout_s=1) as (host, port):
        connection = await asyncio.open_connection(host, port)
        answers = []
        for _ in range(2):
            connection[1].write(HEALTHZ)
            answers.append(await status_of(connection))
            await asyncio.sleep(2.5)  # idle past both deadlines
        close_all([connection])
    assert answers == [b"HTTP/1.1 200 OK"] * 2
