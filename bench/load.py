"""A small keep-alive HTTP/1.1 load generator, fast enough not to be the bottleneck."""

from __future__ import annotations

import asyncio
import itertools
import json
import socket
import time
from collections.abc import Mapping, Sequence
from typing import Any


def free_port() -> int:
    """A port nothing on loopback is listening on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def post_request(
    path: str, body: Any, *, port: int, headers: Mapping[str, str] | None = None
) -> bytes:
    payload = json.dumps(body).encode()
    more = "".join(f"{name}: {value}\r\n" for name, value in (headers or {}).items())
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{more}"
        f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
    )
    return head.encode() + payload


class Rotation:
    """Requests sent in turn, each drive carrying on where the last one stopped (10,000
    tokens, say, each request a different one)."""

    def __init__(self, requests: Sequence[bytes]) -> None:
        self.first = requests[0]
        self.count = len(requests)
        self._turn = itertools.cycle(requests)

    def __next__(self) -> bytes:
        return next(self._turn)


async def read_status_and_body(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """One HTTP/1.1 response with a Content-Length: its status code and its body."""
    head = await reader.readuntil(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n"):
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value)
    body = await reader.readexactly(length)
    return int(head[9:12]), body


async def _read_response(reader: asyncio.StreamReader) -> bytes:
    status, body = await read_status_and_body(reader)
    if status != 200:
        raise RuntimeError(f"unexpected response: HTTP {status} {body[:200]!r}")
    return body


async def request_once(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    body = await _read_response(reader)
    writer.close()
    return body


async def drive(
    port: int, request: bytes | Rotation, *, connections: int, seconds: float
) -> tuple[int, float]:
    """`request` (or a rotation's, in turn) sent over `connections` keep-alive connections for
    `seconds`: how many were answered, and the seconds from the first sent to the last
    answered."""
    deadline = time.perf_counter() + seconds
    done = 0

    async def worker() -> None:
        nonlocal done
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        while time.perf_counter() < deadline:
            writer.write(request if isinstance(request, bytes) else next(request))
            await _read_response(reader)
            done += 1
        writer.close()

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(connections)))
    return done, time.perf_counter() - start


async def throughput(port: int, request: bytes, *, connections: int, seconds: float) -> float:
    """Requests per second over `connections` keep-alive connections for `seconds`."""
    done, elapsed = await drive(port, request, connections=connections, seconds=seconds)
    return done / elapsed
