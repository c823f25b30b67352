"""Each identity has its own budget, and each client address for anonymous callers (and for
callers whose credential was not accepted): one caller's spending leaves the others'."""

from __future__ import annotations

import pytest

from tests.limits.budgets import TWENTY, budgeted, fake_ticks, post
from tests.support.backends import Backend
from tests.support.clock import FakeClock
from tests.support.jwks import bearer

TOKENS = ("ingest:ingest-token", "reader:reader-token")


def codes(body: dict[str, object]) -> list[str]:
    errors = body.get("errors") or []
    assert isinstance(errors, list)
    return [error["extensions"]["code"] for error in errors]


async def test_each_identity_spends_its_own_budget(
    backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ticks(monkeypatch)
    async with budgeted(backend, clock, 60, api_tokens=TOKENS) as app, app.client() as client:
        reader, ingest = bearer("reader-token"), bearer("ingest-token")
        for _ in range(3):
            assert codes((await post(client, TWENTY, headers=reader)).json()) == []
        assert codes((await post(client, TWENTY, headers=reader)).json()) == ["LIMIT_EXCEEDED"]
        assert codes((await post(client, TWENTY, headers=ingest)).json()) == []
        assert codes((await post(client, TWENTY)).json()) == []  # anonymous: its address's


async def test_anonymous_callers_spend_their_address_budget(
    backend: Backend, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_ticks(monkeypatch)
    async with (
        budgeted(backend, clock, 60, api_tokens=TOKENS) as app,
        app.client("10.0.0.1") as first,
        app.client("10.0.0.2") as second,
    ):
        refused_token = bearer("not-a-listed-token")
        for _ in range(2):
            assert codes((await post(first, TWENTY)).json()) == []
        # Not accepted: the address's budget, not a fresh one per token sent.
        assert codes((await post(first, TWENTY, headers=refused_token)).json()) == []
        assert codes((await post(first, TWENTY)).json()) == ["LIMIT_EXCEEDED"]
        assert codes((await post(second, TWENTY)).json()) == []
