"""A mutation whose payload asks for a page it cannot have is refused before it writes: the
client never sees `data: null` for a call that happened (issue 14)."""

from __future__ import annotations

from tests.support import Api, assert_rejected, error_codes

ORDER = '{id: "o1", createTime: "2024-01-01T00:00:00Z", info: "a"}'
TRADE = '{type: BUY, ticker: "A", qty: 1, date: "2024-01-01T00:00:00Z"}'


async def test_create_chat_session_with_a_forged_messages_cursor_writes_nothing(api: Api) -> None:
    body = await assert_rejected(
        api,
        'mutation { createChatSession(title: "x") { messages(before: "nope") { pageInfo '
        "{ hasPreviousPage } } } }",
        code="BAD_USER_INPUT",
        argument="before",
    )
    assert body["data"] is None
    assert body["errors"][0]["path"] == ["createChatSession", "messages"]


async def test_upsert_orders_with_a_page_over_the_maximum_writes_nothing(api: Api) -> None:
    body = await assert_rejected(
        api,
        f'mutation {{ upsertOrders(userId: "u1", orders: [{ORDER}]) '
        "{ orders(first: 1000) { totalCount } } }",
        code="BAD_USER_INPUT",
        argument="first",
    )
    assert body["errors"][0]["message"] == "first: at most 100, got 1000"


async def test_record_trades_payload_checks_through_fragments_and_variables(api: Api) -> None:
    body = await assert_rejected(
        api,
        f"mutation($n: Int!) {{ recordTrades(customerId: 7, trades: [{TRADE}]) "
        "{ ...Placed } } fragment Placed on RecordTradesPayload "
        "{ customer { ... on Customer { p: page(number: $n) { number } } } }",
        {"n": 0},
        code="BAD_USER_INPUT",
        argument="number",
    )
    assert body["errors"][0]["path"] == ["recordTrades", "customer", "p"]


async def test_payload_checks_refuse_before_any_command(api: Api) -> None:
    api.commands.reset()
    body = await api.post(
        f"mutation {{ recordTrades(customerId: 7, trades: [{TRADE}]) "
        '{ customer { trades(after: "nope") { totalCount } } } }'
    )
    assert error_codes(body) == ["BAD_USER_INPUT"]
    assert api.commands.count == 0


async def test_payload_checks_skip_a_field_under_a_false_include(api: Api) -> None:
    data = await api.data(
        f'mutation {{ upsertOrders(userId: "u1", orders: [{ORDER}]) '
        '{ userId orders(after: "nope") @include(if: false) { totalCount } } }'
    )
    assert data == {"upsertOrders": {"userId": "u1"}}


async def test_queries_keep_their_other_fields_beside_a_bad_page(api: Api) -> None:
    await api.data(
        f"mutation {{ recordTrades(customerId: 7, trades: [{TRADE}]) {{ pageNumbers }} }}"
    )
    body = await api.post("{ customer(customerId: 7) { tradeCount page(number: 0) { number } } }")
    assert body["data"] == {"customer": {"tradeCount": 1, "page": None}}
    assert error_codes(body) == ["BAD_USER_INPUT"]
