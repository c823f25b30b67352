"""Races a single-process engine cannot produce, forced between the steps of a post: another
writer's page (or another try of the same message) lands first, as on a server under load."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, cast

import pytest
from bson import ObjectId

from store.chat import chat_pages
from store.chat.chat_pages import Appended, NewMessage
from store.database import Database
from store.protocols import AsyncCollection
from tests.chat.conftest import CAP
from tests.chat.support import assert_page_invariants, pages

SESSION = ObjectId()
WHEN = datetime(2024, 1, 1, tzinfo=UTC)

Step = Callable[[], Awaitable[Any]]


class Interleaved:
    """The pages collection, where `before_insert` / `before_update` run just before our next
    insert / findAndModify (once each), as another writer's command would."""

    def __init__(self, coll: AsyncCollection) -> None:
        self._coll = coll
        self.before_insert: Step | None = None
        self.before_update: Step | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self._coll, name)

    async def insert_one(self, document: Any, *args: Any, **kwargs: Any) -> Any:
        step, self.before_insert = self.before_insert, None
        if step is not None:
            await step()
        return await self._coll.insert_one(document, *args, **kwargs)

    async def insert_many(self, documents: Any, *args: Any, **kwargs: Any) -> Any:
        step, self.before_insert = self.before_insert, None
        if step is not None:
            await step()
        return await self._coll.insert_many(documents, *args, **kwargs)

    async def find_one_and_update(self, *args: Any, **kwargs: Any) -> Any:
        step, self.before_update = self.before_update, None
        if step is not None:
            await step()
        return await self._coll.find_one_and_update(*args, **kwargs)


@pytest.fixture
async def coll(database: Database) -> AsyncCollection:
    await database.create_indexes()
    pages_coll = database.collection(chat_pages.COLLECTION)
    await chat_pages.open_first_page(pages_coll, session_id=SESSION)
    return pages_coll


def _message(text: str, client_id: str | None = None) -> NewMessage:
    return NewMessage(ObjectId(), "ada", text, WHEN, client_id)


async def _post(
    coll: AsyncCollection | Interleaved, text: str, client_id: str | None = None
) -> Appended:
    appended = await chat_pages.append_message(
        cast(AsyncCollection, coll), session_id=SESSION, message=_message(text, client_id), cap=CAP
    )
    assert appended is not None
    return appended


async def _fill_first_page(coll: AsyncCollection) -> None:
    for n in range(CAP):
        await _post(coll, f"m{n + 1}")


async def test_a_writer_that_loses_the_next_page_joins_the_winners_page(
    coll: AsyncCollection,
) -> None:
    await _fill_first_page(coll)
    racing = Interleaved(coll)
    racing.before_insert = lambda: _post(coll, "theirs")  # opens page 1 first
    ours = await _post(racing, "ours")
    assert (ours.page, ours.message.seq) == (1, 5)
    docs = await pages(coll, SESSION)
    assert [m["text"] for m in docs[1]["messages"]] == ["theirs", "ours"]
    assert_page_invariants(docs, CAP, 5)


async def test_a_writer_that_loses_to_a_full_page_opens_the_one_after(
    coll: AsyncCollection,
) -> None:
    await _fill_first_page(coll)

    async def fill_next_page() -> None:
        for n in range(CAP):
            await _post(coll, f"theirs {n}")

    racing = Interleaved(coll)
    racing.before_insert = fill_next_page
    ours = await _post(racing, "ours")
    assert (ours.page, ours.message.seq) == (2, 7)
    assert_page_invariants(await pages(coll, SESSION), CAP, 7)


async def test_another_try_that_opened_the_next_page_first_is_returned(
    coll: AsyncCollection,
) -> None:
    await _fill_first_page(coll)
    racing = Interleaved(coll)
    first_try: list[Appended] = []

    async def other_try() -> None:
        first_try.append(await _post(coll, "once", "retry-1"))

    racing.before_insert = other_try
    ours = await _post(racing, "once", "retry-1")
    assert ours.stored is False
    assert ours.message == first_try[0].message
    assert_page_invariants(await pages(coll, SESSION), CAP, 4)


async def test_another_try_in_the_same_open_page_is_returned(coll: AsyncCollection) -> None:
    racing = Interleaved(coll)
    first_try: list[Appended] = []

    async def other_try() -> None:
        first_try.append(await _post(coll, "once", "retry-2"))

    racing.before_update = other_try
    ours = await _post(racing, "once", "retry-2")
    assert (ours.stored, ours.message) == (False, first_try[0].message)
    assert_page_invariants(await pages(coll, SESSION), CAP, 1)


async def test_another_try_stored_in_an_older_page_is_returned(coll: AsyncCollection) -> None:
    await _post(coll, "m1")
    racing = Interleaved(coll)
    first_try: list[Appended] = []

    async def other_try_then_fill() -> None:
        first_try.append(await _post(coll, "once", "retry-3"))  # page 0, seq 2
        await _post(coll, "m3")
        await _post(coll, "m4")  # opens page 1

    racing.before_update = other_try_then_fill
    ours = await _post(racing, "once", "retry-3")  # would copy the id into page 1: E11000
    assert (ours.stored, ours.message, ours.page) == (False, first_try[0].message, 0)
    assert_page_invariants(await pages(coll, SESSION), CAP, 4)
