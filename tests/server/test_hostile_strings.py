"""A NUL or an unpaired surrogate in any string argument is BAD_USER_INPUT, never a failure
inside: BSON cannot hold a lone surrogate (PyMongo refuses to encode it) and a server refuses
a NUL in a regex. Names, ids, titles and prefixes refuse every control character."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support import Api, assert_rejected

AT = "2022-09-12T12:00:00Z"
CASES: list[tuple[str, str, Any]] = [
    ("{ sensors(filter: {titlePrefix: $s}) { totalCount } }", "filter.titlePrefix", "String"),
    ("mutation { createSensor(title: $s) { id } }", "title", "String!"),
    ("{ user(userId: $s) { userId } }", "userId", "String!"),
    ("{ users(userIds: [$s]) { userId } }", "userIds[0]", "String!"),
    (
        'mutation { upsertOrders(userId: "u", name: $s, orders: []) { userId } }',
        "name",
        "String",
    ),
    (
        'mutation { upsertOrders(userId: "u", orders: [{id: $s, '
        'createTime: "2024-01-01T00:00:00Z"}]) { userId } }',
        "orders[0].id",
        "ID!",
    ),
    (
        'mutation { upsertOrders(userId: "u", orders: [{id: "1", info: $s, '
        'createTime: "2024-01-01T00:00:00Z"}]) { userId } }',
        "orders[0].info",
        "String",
    ),
    ('mutation { deleteOrders(userId: $s, orderIds: ["1"]) { userId } }', "userId", "String!"),
    ("{ sensor(id: $s) { id } }", "id", "ID!"),
    (
        "mutation { recordTrades(customerId: 1, trades: [{type: BUY, ticker: $s, qty: 1, "
        f'date: "{AT}"}}]) {{ pageNumbers }} }}',
        "trades[0].ticker",
        "String!",
    ),
]


@pytest.mark.parametrize("hostile", ["a\u0000b", "a\ud800b", "\udfff"])
@pytest.mark.parametrize(("operation", "argument", "type_name"), CASES)
async def test_a_hostile_string_is_bad_user_input_and_writes_nothing(
    api: Api, operation: str, argument: str, type_name: str, hostile: str
) -> None:
    await api.data(
        'mutation { upsertOrders(userId: "u", orders: [{id: "1", createTime: '
        '"2024-01-01T00:00:00Z"}]) { userId } }'
    )
    kind = "mutation" if operation.startswith("mutation") else "query"
    body = operation.removeprefix("mutation ").removeprefix("query ")
    query = f"{kind}($s: {type_name}) {body}"
    await assert_rejected(api, query, {"s": hostile}, code="BAD_USER_INPUT", argument=argument)


@pytest.mark.parametrize("control", ["\t", "\n", "\u001b", "\u007f"])
async def test_names_and_ids_refuse_control_characters(api: Api, control: str) -> None:
    await assert_rejected(
        api,
        "query($s: String!) { user(userId: $s) { userId } }",
        {"s": f"u{control}1"},
        code="BAD_USER_INPUT",
        argument="userId",
    )


@pytest.mark.parametrize("other", ["\u200b", "\u00a0", "\u2028", "\ue000"])
async def test_names_and_ids_keep_unprintable_characters_that_are_not_controls(
    api: Api, other: str
) -> None:
    # A format character, a no-break space, a line separator, a private-use character: not
    # printable, yet no control character (Cc) nor surrogate (Cs).
    user_id = f"u{other}1"
    mutation = (
        'mutation($u: String!) { upsertOrders(userId: $u, orders: [{id: "1", createTime: '
        '"2024-01-01T00:00:00Z"}]) { userId } }'
    )
    assert await api.data(mutation, {"u": user_id}) == {"upsertOrders": {"userId": user_id}}
