"""recordTrades rejects bad input whole, and writes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import Api, assert_rejected
from tests.trades.support import RECORD, trade


@pytest.mark.parametrize(
    ("customer_id", "trades", "argument"),
    [
        (0, [trade(1)], "customerId"),
        (-5, [trade(1)], "customerId"),
        (7, [], "trades"),
        (7, [trade(i + 1) for i in range(101)], "trades"),
        (7, [trade(1), trade(0)], "trades[1].qty"),
        (7, [trade(1, ticker="msft")], "trades[0].ticker"),
        (7, [trade(1, ticker="")], "trades[0].ticker"),
        (7, [trade(1, ticker="ABCDEFGHIJKLM")], "trades[0].ticker"),
        (7, [trade(1, ticker="A.*")], "trades[0].ticker"),
        (7, [trade(1, ticker="A B")], "trades[0].ticker"),
        (7, [{**trade(1), "date": "1969-12-31T23:59:59Z"}], "trades[0].date"),
    ],
)
async def test_record_trades_rejects_bad_input(
    api: Api, customer_id: int, trades: list[dict[str, Any]], argument: str
) -> None:
    await api.data(RECORD, {"c": 7, "t": [trade(100)]})  # something that must stay as it is
    variables = {"c": customer_id, "t": trades}
    await assert_rejected(api, RECORD, variables, code="BAD_USER_INPUT", argument=argument)


async def test_record_trades_rejects_an_unknown_trade_type(api: Api) -> None:
    variables = {"c": 7, "t": [{**trade(1), "type": "HOLD"}]}
    await assert_rejected(api, RECORD, variables, code="BAD_USER_INPUT")


async def test_record_trades_accepts_tickers_with_dots_and_dashes(api: Api) -> None:
    data = await api.data(RECORD, {"c": 7, "t": [trade(1, ticker="BRK.B"), trade(2, ticker="X-1")]})
    assert data["recordTrades"]["pageNumbers"] == [1, 1]
