"""One capped-page append (`store/buckets/buckets.py`): a customer's trades and a chat session's
messages both go through it, each with its own layout."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from store.buckets import buckets
from store.buckets.bucket_layout import BucketLayout
from tests.chat.support import create_session, post
from tests.support import Api
from tests.trades.support import RECORD, trade


@pytest.fixture
def layouts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BucketLayout]]:
    """The layout of every append, in order."""
    seen: list[BucketLayout] = []
    original = buckets.append

    async def recorded(coll: Any, *, layout: BucketLayout, **options: Any) -> Any:
        seen.append(layout)
        return await original(coll, layout=layout, **options)

    monkeypatch.setattr(buckets, "append", recorded)
    yield seen


async def test_trades_and_messages_are_appended_by_one_implementation(
    api: Api, layouts: list[BucketLayout]
) -> None:
    await api.data(RECORD, {"c": 1, "t": [trade(1), trade(2)]})
    session_id = await create_session(api)
    await post(api, session_id, "hello", client_id="c1")
    assert [(layout.owner_field, layout.items_field) for layout in layouts] == [
        ("customerId", "history"),
        ("sessionId", "messages"),
    ]
