"""`recordTrades` counts each trade it is given, whatever it answers: a trade is written into
one bucket, so the trades a request writes are at most the units it is charged."""

from __future__ import annotations

from schema.trades import UNITS_PER_TRADE
from settings import Settings
from tests.limits.support import cost_of
from tests.support import ApiFactory
from tests.trades.support import RECORD, trade


async def test_the_cost_counts_every_trade(make_api: ApiFactory, settings: Settings) -> None:
    trades = [trade(n + 1) for n in range(7)]
    # The payload, `pageNumbers` (one per trade), and the trades written.
    assert await cost_of(make_api, settings, RECORD, {"c": 1, "t": trades}) == (
        1 + 7 + 7 * UNITS_PER_TRADE
    )
