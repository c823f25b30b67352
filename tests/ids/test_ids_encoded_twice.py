"""A global id encoded twice (the global id of a global id) names nothing: BAD_USER_INPUT naming
the argument, nothing written. Before, its inner id was stored as a new object's own id, which
that object then answered (`userId`, `orderId`, `name`) and which, sent back, read, wrote and
deleted another object: bob's orders, order "1", alpha's series."""

from __future__ import annotations

from typing import Any

import pytest

from resolvers.global_ids import global_id
from tests.ids.support import ALPHA, BOB, BY_MEASUREMENT, BY_USER_ID, RECORD, UPSERT
from tests.support import Api, assert_rejected

BOB_TWICE = global_id("User", BOB)  # "WyJVc2VyIiwiV3lKVmMyVnlJaXdpWW05aUlsMCJd"
ALPHA_TWICE = global_id("Measurement", ALPHA)
NODE = "query($x: ID!) { node(id: $x) { id } }"


async def _bob_and_alpha(api: Api) -> None:
    await api.data(UPSERT, {"u": "bob", "o": "1"})
    await api.data(RECORD, {"x": "alpha"})


async def test_a_user_id_encoded_twice_creates_no_user(api: Api) -> None:
    await _bob_and_alpha(api)
    assert BOB_TWICE == "WyJVc2VyIiwiV3lKVmMyVnlJaXdpWW05aUlsMCJd"  # the issue's
    body = await assert_rejected(
        api, UPSERT, {"u": BOB_TWICE, "o": "2"}, code="BAD_USER_INPUT", argument="userId"
    )
    assert "encoded twice" in body["errors"][0]["message"]


async def test_an_order_id_encoded_twice_creates_no_order(api: Api) -> None:
    await _bob_and_alpha(api)
    twice = global_id("Order", "bob", global_id("Order", "bob", "1"))
    await assert_rejected(
        api, UPSERT, {"u": "bob", "o": twice}, code="BAD_USER_INPUT", argument="orders[0].id"
    )


async def test_a_measurement_name_encoded_twice_creates_no_measurement(api: Api) -> None:
    await _bob_and_alpha(api)
    await assert_rejected(
        api,
        RECORD,
        {"x": ALPHA_TWICE},
        code="BAD_USER_INPUT",
        argument="observations[0].measurement",
    )


@pytest.mark.parametrize(
    ("document", "variables", "argument"),
    [
        *((d, {"x": BOB_TWICE}, a) for _, d, a in BY_USER_ID),
        *((d, {"x": ALPHA_TWICE}, a) for _, d, a in BY_MEASUREMENT),
        (NODE, {"x": BOB_TWICE}, "id"),
        (NODE, {"x": ALPHA_TWICE}, "id"),
        (NODE, {"x": global_id("Order", "bob", global_id("Order", "bob", "1"))}, "id"),
    ],
    ids=[*(n for n, _, _ in BY_USER_ID), *(n for n, _, _ in BY_MEASUREMENT), "node-user",
         "node-measurement", "node-order"],
)  # fmt: skip
async def test_every_argument_refuses_an_id_encoded_twice(
    api: Api, document: str, variables: dict[str, Any], argument: str
) -> None:
    await _bob_and_alpha(api)
    await assert_rejected(api, document, variables, code="BAD_USER_INPUT", argument=argument)
