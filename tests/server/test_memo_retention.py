"""Memos keyed by a document's nodes (a field's literal arguments, the page a user's orders will
ask for) keep nothing of the document alive: their entries go with it. Distinct documents past
the document cache's size, each parsed for its one request, leave no entry behind."""

from __future__ import annotations

import gc

import runtime.execution.literal_arguments as literal_arguments
from resolvers.orders import _PREFETCH
from schema.schema import CACHED_DOCUMENT_CHARS
from tests.support import Api

DOCUMENTS = 30


def _uncached(query: str, number: int) -> str:
    """`query`, made distinct and too long for the document cache (a comment)."""
    return f"{query} # {number} " + "x" * CACHED_DOCUMENT_CHARS


async def test_literal_arguments_keep_no_entry_of_a_document_gone(api: Api) -> None:
    gc.collect()
    before = len(literal_arguments._kept)
    for number in range(DOCUMENTS):
        query = '{ users(userIds: ["a", "b"]) { userId } sensors(first: 2) { totalCount } }'
        assert (await api.data(_uncached(query, number)))["users"] == [None, None]
    gc.collect()
    assert len(literal_arguments._kept) <= before


async def test_the_orders_page_memo_keeps_no_entry_of_a_document_gone(api: Api) -> None:
    gc.collect()
    before = len(_PREFETCH._entries)
    for number in range(DOCUMENTS):
        query = '{ user(userId: "nobody") { orders(first: 3) { totalCount } } }'
        assert (await api.data(_uncached(query, number))) == {"user": None}
    gc.collect()
    assert len(_PREFETCH._entries) <= before
