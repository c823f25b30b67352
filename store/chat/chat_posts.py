"""Posting a message: the protocol over a session's pages (`store/chat/chat_pages.py`) and its
counters (`store/chat/chat_sessions.py`), two collections that no single command spans.

The page write comes first and is the post: once it is stored, the session's counters are
raised to include it (idempotent: any order of such updates ends the same, so a post that
stopped between the two is made whole by the next). A session deleted while the post ran
matches no counter update; the post then removes the pages it may have opened or written,
which no reader can reach any more, so that nothing of the call stays stored.
"""

from __future__ import annotations

from bson import ObjectId

from store.chat import chat_pages, chat_sessions
from store.chat.chat_pages import Appended, NewMessage
from store.protocols import AsyncCollection


async def post_message(
    pages: AsyncCollection,
    *,
    sessions: AsyncCollection,
    session_id: ObjectId,
    message: NewMessage,
    cap: int,
) -> Appended | None:
    """The message stored at the end of the session (or the one its client id names, stored
    before); None when there is no such session, nothing stored.

    Two commands into an open page: the page write, then the session's counters."""
    appended = await chat_pages.append_message(
        pages, session_id=session_id, message=message, cap=cap
    )
    if appended is None:  # no page: an unknown session, or one whose first page is missing
        if not await chat_sessions.session_exists(sessions, session_id=session_id):
            return None
        await chat_pages.open_first_page(pages, session_id=session_id)
        appended = await chat_pages.append_message(
            pages, session_id=session_id, message=message, cap=cap
        )
        if appended is None:
            return None
    stored = appended.message
    if not await chat_sessions.record_post(
        sessions, session_id=session_id, seq=stored.seq, page=appended.page, sent_at=stored.sent_at
    ):
        # Deleted while this post ran (or before: a page an earlier racing post left).
        await chat_pages.delete_pages(pages, session_id=session_id)
        return None
    return appended
