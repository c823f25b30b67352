"""A JWKS answer is read within bounds: one over MAX_JWKS_BYTES, or one that trickles in past
JWKS_FETCH_TIMEOUT_SECONDS (each read quick enough for a socket's timeout), is a failed fetch:
the server starts, unready, and counts it, as when the JWKS is down. So is a redirect."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from settings.identity import MAX_JWKS_BYTES
from tests.support import ApiFactory
from tests.support.jwks import jwt_settings, key_set, signing_key
from web.identity import key_set as key_set_module

KEY = signing_key(kid="k1")


@contextmanager
def answering(head: bytes, body: Iterator[bytes]) -> Iterator[str]:
    """A JWKS URL whose server sends `head`, then `body`'s parts until they end or the test."""
    listener = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        listener.settimeout(0.05)
        while not done.is_set():  # never called (a redirect not followed): done all the same
            try:
                peer = listener.accept()[0]
            except TimeoutError:
                continue
            break
        else:
            listener.close()
            return
        peer.settimeout(None)
        # The client hangs up once it has had enough: a send after that fails, as it may.
        with listener, peer, contextlib.suppress(OSError):
            peer.recv(65536)
            peer.sendall(head)
            for part in body:
                if done.is_set():
                    return
                peer.sendall(part)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}/jwks.json"
    finally:
        done.set()
        thread.join()


def trickle(done_after: int) -> Iterator[bytes]:
    """A byte at a time, each well within a socket's timeout, for far longer than a fetch."""
    for _ in range(done_after):
        threading.Event().wait(0.05)
        yield b" "


def json_answer(document: object) -> bytes:
    body = json.dumps(document).encode()
    return b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\r\n" + body


async def fails_at_start_up(make_api: ApiFactory, url: str) -> None:
    # A safety bound: on a fetch without one, the start-up waits as long as the answer lasts.
    async with asyncio.timeout(10), make_api(jwt_settings(jwks_url=url)) as api:
        ready = await api.client.get("/readyz")
        assert ready.status_code == 503
        metrics = (await api.client.get("/metrics")).text
        assert 'arraygraph_jwks_fetches_total{outcome="error"} 1.0' in metrics


async def test_an_answer_over_the_size_bound_is_a_failed_fetch(make_api: ApiFactory) -> None:
    body = json.dumps(key_set(KEY)).encode()
    padded = body[:-1] + b" " * MAX_JWKS_BYTES + body[-1:]
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n"
    with answering(head, iter([padded])) as url:
        await fails_at_start_up(make_api, url)


async def test_an_answer_trickling_past_the_deadline_is_a_failed_fetch(
    make_api: ApiFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(key_set_module, "JWKS_FETCH_TIMEOUT_SECONDS", 0.5)
    head = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n{"
    with answering(head, trickle(done_after=1200)) as url:  # a minute of it
        await fails_at_start_up(make_api, url)


async def test_a_redirect_is_a_failed_fetch(make_api: ApiFactory) -> None:
    with answering(json_answer(key_set(KEY)), iter(())) as elsewhere:
        head = f"HTTP/1.1 302 Found\r\nlocation: {elsewhere}\r\ncontent-length: 0\r\n\r\n"
        with answering(head.encode(), iter(())) as url:
            await fails_at_start_up(make_api, url)
