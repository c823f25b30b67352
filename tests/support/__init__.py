"""Test helpers: the GraphQL client on the real app, clocks, servers and their clients, Relay
walks."""

from tests.support.api import Api, ApiFactory, assert_rejected, error_codes
from tests.support.clock import FakeClock
from tests.support.live_client import live_client
from tests.support.relay import walk
from tests.support.servers import free_port, live_server, running

__all__ = [
    "Api",
    "ApiFactory",
    "FakeClock",
    "assert_rejected",
    "error_codes",
    "free_port",
    "live_client",
    "live_server",
    "running",
    "walk",
]
