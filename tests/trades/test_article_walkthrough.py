"""The article's walkthrough on the demo data."""

from __future__ import annotations

from settings import Settings
from store import trades
from tests.support import ApiFactory
from tests.trades.support import PAGE, RECORD

DEMO_TRADES = (trades.COLLECTION,)  # the part of the demo these tests read


async def test_msft_trade_lands_in_the_first_bucket_of_customer_123(
    make_api: ApiFactory,
) -> None:
    async with make_api(Settings(), demo=DEMO_TRADES) as api:
        msft = {"type": "BUY", "ticker": "MSFT", "qty": 42, "date": "2023-11-02T11:43:10Z"}
        data = await api.data(RECORD, {"c": 123, "t": [msft]})
        assert data["recordTrades"]["pageNumbers"] == [1]
        bucket = await api.collection("trades").find_one({"_id": "123_1698349623"})
        assert bucket["count"] == 3
        assert [t["ticker"] for t in bucket["history"]] == ["MDB", "MDB", "MSFT"]
        assert await api.collection("trades").count_documents({"customerId": 123}) == 1


async def test_legacy_quantity_field_reads_back_as_qty(make_api: ApiFactory) -> None:
    async with make_api(Settings(), demo=DEMO_TRADES) as api:
        data = await api.data(PAGE, {"c": 456, "n": 1})
    assert data["customer"]["page"] == {
        "number": 1,
        "hasNextPage": False,
        "trades": [
            {"type": "BUY", "ticker": "GOOG", "qty": 50, "date": "2023-10-31T11:16:02.120Z"}
        ],
    }
