"""Reading a session's messages by `seq`, backwards or forwards, any number of sessions in one
command.

`seq` runs 1, 2, 3... without gaps (`store/chat_pages.py`), so a page of a connection is a
range of `seq`s known before reading: `first: n, after: a` is a+1 to a+n, `last: n, before: b`
is b-n to b-1. Only the newest messages have no known range. Each read is one branch of a
`$unionWith` (`store/unions.py`): the session's pages with `firstSeq` at most the range's end,
newest first, on the (sessionId, firstSeq) index, as many as the range needs when pages are
full, each cut to the range on the server (`$slice`), so no message outside it is sent. A page
holding fewer than the cap (written under a smaller cap) may leave a range short: it is read
on in one more command.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from store import unions
from store.chat_pages import MessageDoc, message_from_document
from store.protocols import AsyncCollection, Document


@dataclass(frozen=True, slots=True)
class MessageRange:
    """Messages `first_seq` to `last_seq` (both included) of a session."""

    session_id: ObjectId
    first_seq: int
    last_seq: int


@dataclass(frozen=True, slots=True)
class NewestMessages:
    """The newest `count` messages of a session."""

    session_id: ObjectId
    count: int


MessageRead = MessageRange | NewestMessages


def _pages_needed(messages: int, cap: int) -> int:
    # A range of n messages touches at most ceil(n / cap) + 1 full pages.
    return math.ceil(messages / cap) + 1


def _branch(read: MessageRead, cap: int) -> list[dict[str, Any]]:
    where: dict[str, Any] = {"sessionId": read.session_id}
    wanted = _size(read)
    if isinstance(read, MessageRange):
        where["firstSeq"] = {"$lte": read.last_seq}
        start = {"$max": [0, {"$subtract": [read.first_seq, "$firstSeq"]}]}
        cut: Any = {"$slice": ["$messages", start, wanted]}
    else:
        cut = {"$slice": ["$messages", -wanted]}
    return [
        {"$match": where},
        {"$sort": {"firstSeq": -1}},
        {"$limit": _pages_needed(wanted, cap)},
        {"$project": {"_id": 0, "firstSeq": 1, "messages": cut}},
    ]


def _rest(read: MessageRead, pages: list[Document], cap: int) -> MessageRead | None:
    """What `read` still lacks after `pages` (its branch's rows), or None when it has all."""
    if len(pages) < _pages_needed(_size(read), cap):
        return None  # it reached the session's first page
    lowest = min(int(page["firstSeq"]) for page in pages)
    if isinstance(read, MessageRange):
        if lowest <= read.first_seq:
            return None
        return MessageRange(read.session_id, read.first_seq, lowest - 1)
    lacking = read.count - sum(len(page["messages"]) for page in pages)
    if lacking <= 0 or lowest <= 1:
        return None
    return MessageRange(read.session_id, max(1, lowest - lacking), lowest - 1)


def _kept(read: MessageRead, messages: list[MessageDoc]) -> list[MessageDoc]:
    messages.sort(key=lambda message: message.seq)
    if isinstance(read, MessageRange):
        return [m for m in messages if read.first_seq <= m.seq <= read.last_seq]
    return messages[-read.count :] if read.count else []


async def read_messages(
    coll: AsyncCollection, *, reads: Sequence[MessageRead], cap: int
) -> list[list[MessageDoc]]:
    """The messages of each read, in ascending `seq`: one command for all of them (one more
    when pages written under a smaller cap leave some short)."""
    found: list[list[MessageDoc]] = [[] for _ in reads]
    pending = [(index, read) for index, read in enumerate(reads) if _wants_any(read)]
    while pending:
        rows = await unions.read_branches(
            coll,
            branches=[_branch(read, cap) for _, read in pending],
            rows_at_most=sum(_pages_needed(_size(read), cap) for _, read in pending),
        )
        still = []
        for (index, read), pages in zip(pending, rows, strict=True):
            found[index] += [message_from_document(m) for page in pages for m in page["messages"]]
            rest = _rest(read, pages, cap)
            if rest is not None:
                still.append((index, rest))
        pending = still
    return [_kept(read, messages) for read, messages in zip(reads, found, strict=True)]


def _size(read: MessageRead) -> int:
    return read.count if isinstance(read, NewestMessages) else read.last_seq - read.first_seq + 1


def _wants_any(read: MessageRead) -> bool:
    return _size(read) > 0 and (isinstance(read, NewestMessages) or read.last_seq >= 1)
