"""No free-text id may look like a global id, of whatever type or of none: a new user id, order
id or measurement name shaped like one (base64url of a JSON array that begins with a string)
is BAD_USER_INPUT naming the argument, nothing written, and so is such a string sent to read
one. Stored, it would be answered as the object's own id, and, sent back, read as the object
it is the global id of (`node`, or its own argument once a type's id takes that shape)."""

from __future__ import annotations

import re

import pytest

from resolvers.global_ids import global_id
from settings import SERIES_NAME_PATTERN
from tests.ids.support import BY_MEASUREMENT, BY_USER_ID, RECORD, UPSERT
from tests.support import Api, assert_rejected

HEX, HEX2 = "65f000000000000000000000", "65f000000000000000000001"
OTHER_TYPES = {
    "Sensor": global_id("Sensor", HEX),
    "ChatSession": global_id("ChatSession", HEX),
    "Message": global_id("Message", HEX, HEX2),
    "Customer": global_id("Customer", 7),
    "Trade": global_id("Trade", 7, 1, 0),
    "User": global_id("User", "bob"),
    "Order": global_id("Order", "bob", "1"),
    "Measurement": global_id("Measurement", "alpha"),
}
NO_TYPE = {"unknown type": global_id("Nope", "x"), "type alone": global_id("x")}


def _shaped(own: str, *, longest: int, pattern: str = r".+") -> dict[str, str]:
    """Strings shaped like global ids that no argument of the type `own` reads as one of its
    objects (each otherwise a valid domain id: at most `longest` characters, of `pattern`)."""
    found = {name: value for name, value in OTHER_TYPES.items() if name != own}
    found |= NO_TYPE | {f"malformed {own}": global_id(own, "a\nb")}
    return {
        name: value
        for name, value in found.items()
        if len(value) <= longest and re.fullmatch(pattern, value)
    }


USER_IDS = _shaped("User", longest=128)
ORDER_IDS = _shaped("Order", longest=64)
NAMES = _shaped("Measurement", longest=64, pattern=SERIES_NAME_PATTERN)


@pytest.mark.parametrize("user_id", USER_IDS.values(), ids=USER_IDS.keys())
async def test_a_new_user_id_shaped_like_a_global_id_is_refused(api: Api, user_id: str) -> None:
    await assert_rejected(
        api, UPSERT, {"u": user_id, "o": "1"}, code="BAD_USER_INPUT", argument="userId"
    )


@pytest.mark.parametrize("order_id", ORDER_IDS.values(), ids=ORDER_IDS.keys())
async def test_a_new_order_id_shaped_like_a_global_id_is_refused(api: Api, order_id: str) -> None:
    await api.data(UPSERT, {"u": "carol", "o": "1"})
    await assert_rejected(
        api, UPSERT, {"u": "carol", "o": order_id}, code="BAD_USER_INPUT", argument="orders[0].id"
    )


@pytest.mark.parametrize("name", NAMES.values(), ids=NAMES.keys())
async def test_a_new_measurement_name_shaped_like_a_global_id_is_refused(
    api: Api, name: str
) -> None:
    await assert_rejected(
        api, RECORD, {"x": name}, code="BAD_USER_INPUT", argument="observations[0].measurement"
    )


@pytest.mark.parametrize(
    ("document", "value", "argument"),
    [
        *((d, OTHER_TYPES["Order"], a) for _, d, a in BY_USER_ID),
        *((d, OTHER_TYPES["User"], a) for _, d, a in BY_MEASUREMENT),
    ],
    ids=[name for name, _, _ in BY_USER_ID + BY_MEASUREMENT],
)
async def test_reads_and_writes_refuse_an_id_of_another_type(
    api: Api, document: str, value: str, argument: str
) -> None:
    await api.data(UPSERT, {"u": "bob", "o": "1"})
    await assert_rejected(api, document, {"x": value}, code="BAD_USER_INPUT", argument=argument)
