"""An anonymous IPv6 caller spends its /64's budget: a client given a /64 cannot take a fresh
budget from each of its addresses; another /64 has its own, and an IPv4 address mapped into
IPv6 is that IPv4 address."""

from __future__ import annotations

import pytest

from resolvers.access.cost_budget import address_key
from tests.limits.budgets import TWENTY, budgeted, fake_ticks, post
from tests.limits.test_cost_budget_per_caller import codes
from tests.support.backends import Backend
from tests.support.clock import FakeClock


async def test_addresses_of_one_ipv6_prefix_share_a_budget(
    backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ticks(monkeypatch)
    async with (
        budgeted(backend, clock, 60) as app,
        app.client("2001:db8:1:2::1") as first,
        app.client("2001:db8:1:2:ffff:ffff:ffff:ffff") as same_prefix,
        app.client("2001:db8:1:3::1") as other_prefix,
    ):
        for client in (first, same_prefix, first):
            assert codes((await post(client, TWENTY)).json()) == []
        assert codes((await post(same_prefix, TWENTY)).json()) == ["LIMIT_EXCEEDED"]
        assert codes((await post(other_prefix, TWENTY)).json()) == []


def test_an_address_budget_key_is_its_ipv4_address_or_ipv6_prefix() -> None:
    assert address_key("10.0.0.1") == "10.0.0.1"
    assert address_key("::ffff:10.0.0.1") == "10.0.0.1"
    assert address_key("2001:db8::7") == address_key("2001:db8::8") == "2001:db8::/64"
    assert address_key("fe80::1%eth0") == "fe80::/64"
