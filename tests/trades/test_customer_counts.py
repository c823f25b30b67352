"""Customer counts come from one aggregation, whatever the number of customers asked."""

from __future__ import annotations

from tests.support import Api
from tests.trades.support import RECORD, trade


async def test_five_aliased_customers_cost_one_command_for_their_counts(api: Api) -> None:
    for customer_id in range(1, 5):  # customer 5 has no trades
        trades = [trade(q) for q in range(1, customer_id * 7 + 1)]
        await api.data(RECORD, {"c": customer_id, "t": trades})
    fields = " ".join(
        f"c{i}: customer(customerId: {i}) {{ tradeCount pageCount }}" for i in range(1, 6)
    )
    query = f"{{ {fields} }}"
    assert await api.round_trips(query) == 1
    assert api.commands.by_name == {"aggregate": 1}
    data = await api.data(query)
    assert data == {
        "c1": {"tradeCount": 7, "pageCount": 1},
        "c2": {"tradeCount": 14, "pageCount": 2},
        "c3": {"tradeCount": 21, "pageCount": 3},
        "c4": {"tradeCount": 28, "pageCount": 3},
        "c5": None,
    }
