"""Test helpers: the GraphQL client on the real app, clocks, servers, Relay walks."""

from tests.support.api import Api, ApiFactory, assert_rejected, error_codes
from tests.support.clock import FakeClock
from tests.support.relay import walk
from tests.support.servers import free_port, live_server, running

__all__ = [
    "Api",
    "ApiFactory",
    "FakeClock",
    "assert_rejected",
    "error_codes",
    "free_port",
    "live_server",
    "running",
    "walk",
]
