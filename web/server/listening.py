"""Where `arraygraph serve` listens: the port taken before anything slow, and a word once the
server answers.

The sockets are bound first, before the application is imported and the demo seeded: a port
in use is one line naming it, within a second, instead of uvicorn's `[Errno 98]` after the
whole start-up. Binding early also means no other process can take the port in between (no
check-then-bind race). They listen only when uvicorn starts serving on them, after the app's
start-up: until then a connection is refused rather than left waiting behind the seed or a
database that does not answer. `ReadyServer` says so once it is true.
"""

from __future__ import annotations

import errno
import socket
from collections.abc import Callable

import uvicorn

# Ports after a busy one tried for the line's suggestion.
SUGGESTION_RANGE = 10


class CannotListen(RuntimeError):
    """The address cannot be listened on; the message is one line, saying what to do."""


def address(host: str, port: int) -> str:
    """`host:port` as a URL writes it (an IPv6 address in brackets)."""
    bare = host.strip("[]")
    return f"[{bare}]:{port}" if ":" in bare else f"{bare}:{port}"


def _socket(family: socket.AddressFamily, where: tuple[object, ...]) -> socket.socket:
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        # As uvicorn and asyncio bind: a restart may reuse a port whose old connections are
        # in TIME_WAIT (a port with a listener stays refused), and `::` leaves IPv4 alone.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(where)
    except OSError:
        sock.close()
        raise
    return sock


def _bind_all(host: str, port: int) -> list[socket.socket]:
    """A socket bound to each address `host` names (`localhost`: IPv4 and IPv6, as uvicorn's
    own binding did); OSError, with none left open, when any cannot be bound."""
    found = socket.getaddrinfo(
        host.strip("[]"), port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
    )
    sockets: list[socket.socket] = []
    try:
        for family, _, _, _, where in dict.fromkeys(found):
            sockets.append(_socket(family, where))
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def _suggested_port(host: str, port: int) -> int:
    """The first of the next few ports that is free now, else simply another one."""
    for candidate in range(port + 1, min(port + SUGGESTION_RANGE, 65535) + 1):
        try:
            for sock in _bind_all(host, candidate):
                sock.close()
        except OSError:
            continue
        return candidate
    return port + 1 if port < 65535 else port - 1


def bind(host: str, port: int) -> list[socket.socket]:
    """The sockets `serve` will listen on, bound now and not yet listening; CannotListen
    (one line: the address, and for a busy port how to choose another) when they cannot be."""
    try:
        return _bind_all(host, port)
    except socket.gaierror as exc:
        raise CannotListen(f"cannot listen on {address(host, port)}: {exc.strerror}") from None
    except OSError as exc:
        if exc.errno != errno.EADDRINUSE:
            reason = exc.strerror or str(exc)
            raise CannotListen(f"cannot listen on {address(host, port)}: {reason}") from None
    other = _suggested_port(host, port)
    raise CannotListen(
        f"{address(host, port)} is already in use (another server?); choose another port: "
        f"make run PORT={other}, or arraygraph serve --port {other}"
    )


class ReadyServer(uvicorn.Server):
    """uvicorn's server, calling `on_ready` once a request would be answered: the app's
    start-up (indexes, demo data) finished and every socket listening."""

    def __init__(self, config: uvicorn.Config, on_ready: Callable[[], None]) -> None:
        super().__init__(config)
        self._on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.started:
            self._on_ready()
