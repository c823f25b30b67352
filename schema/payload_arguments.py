"""A mutation's payload arguments are checked before it writes.

A mutation writes, then its payload's fields run. A payload field whose arguments are wrong (a
forged `messages(before:)` cursor, `orders(first: 1000)`, `page(number: 0)`) would fail after
the write, and its error would null the non-null payload: the client would see `data: null`
for a call that did happen. So every field with arguments that a payload can reach declares its
check here, keyed by type and field as `LIST_SIZES` is (`schema/cost.py`); the checks are the
ones its resolver runs first. They run once variables are coerced, before anything executes
(`runtime/limits/payload_arguments.py`, asking `schema/field_facts.py`): a failing one answers
BAD_USER_INPUT at that field's path, and nothing of the operation runs. Queries are not checked
here: a query's bad page argument fails that field alone, beside the rest of the answer.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from resolvers.chat_messages import MESSAGE_CURSOR
from resolvers.orders import ORDER_CURSOR
from resolvers.paging import check_page_arguments, check_page_number
from resolvers.trades import TRADE_CURSOR
from settings import Settings

ArgumentCheck = Callable[[Mapping[str, Any], Settings], object]

PAYLOAD_ARGUMENT_CHECKS: Mapping[tuple[str, str], ArgumentCheck] = {
    ("ChatSession", "messages"): lambda arguments, settings: check_page_arguments(
        arguments, MESSAGE_CURSOR, maximum=settings.max_page_size
    ),
    ("User", "orders"): lambda arguments, settings: check_page_arguments(
        arguments, ORDER_CURSOR, maximum=settings.max_page_size
    ),
    ("Customer", "trades"): lambda arguments, settings: check_page_arguments(
        arguments, TRADE_CURSOR, maximum=settings.max_page_size
    ),
    ("Customer", "page"): lambda arguments, _: check_page_number(arguments["number"]),
}
