"""Reading a session's messages by `seq`, any number of sessions in one command.

`seq` runs 1, 2, 3... without gaps (`store/chat/chat_pages.py`), so every read is a range of `seq`s,
`first_seq` to `last_seq` (or to the newest). A range is two `$unionWith` branches
(`store/unions.py`), each on the (sessionId, firstSeq) index: the pages starting inside the
range, and the one page starting at or before its first `seq` (the page that holds it). The
pages are found by where they start, never by how many messages a page is assumed to hold, so
pages written under another cap (a rolling change of `ARRAYGRAPH_MESSAGES_PER_PAGE`) cost
nothing more. Each page is cut to the range on the server (`$slice`): no message outside it
is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from bson import ObjectId

from store import unions
from store.chat.chat_pages import MessageDoc, message_from_document
from store.protocols import AsyncCollection

# Pages a range to the newest is expected to touch (it starts the page size plus one before
# the counted newest): beyond it, the rest of the reply costs a `getMore`, never a wrong answer.
OPEN_RANGE_PAGES = 101


@dataclass(frozen=True, slots=True)
class MessageRange:
    """Messages `first_seq` to `last_seq` (both included; None: to the newest) of a session."""

    session_id: ObjectId
    first_seq: int
    last_seq: int | None


def _cut(read: MessageRange, start: Any) -> dict[str, Any]:
    """The page's messages from `start` (an index expression) to the range's end."""
    if read.last_seq is None:
        count: Any = {"$max": [1, {"$size": "$messages"}]}
    else:
        count = {"$max": [1, {"$subtract": [read.last_seq + 1, {"$add": ["$firstSeq", start]}]}]}
    return {"$slice": ["$messages", start, count]}


def _branches(read: MessageRange) -> list[list[dict[str, Any]]]:
    starts_inside: dict[str, Any] = {"$gt": read.first_seq}
    if read.last_seq is not None:
        starts_inside["$lte"] = read.last_seq
    project: dict[str, Any] = {"_id": 0, "firstSeq": 1}
    inside: list[dict[str, Any]] = [
        {"$match": {"sessionId": read.session_id, "firstSeq": starts_inside}},
        {"$sort": {"firstSeq": 1}},
        {"$project": {**project, "messages": _cut(read, 0)}},
    ]
    start = {"$subtract": [read.first_seq, "$firstSeq"]}
    holding_first: list[dict[str, Any]] = [
        {"$match": {"sessionId": read.session_id, "firstSeq": {"$lte": read.first_seq}}},
        {"$sort": {"firstSeq": -1}},
        {"$limit": 1},
        {"$project": {**project, "messages": _cut(read, start)}},
    ]
    return [holding_first, inside]


def _rows_at_most(read: MessageRange) -> int:
    """Pages a range can touch: every page but the first holds a message, so a range of n
    `seq`s touches at most n + 1; a range to the newest, as many as a largest page asks."""
    wanted = OPEN_RANGE_PAGES if read.last_seq is None else read.last_seq - read.first_seq + 1
    return wanted + 2


async def read_messages(
    coll: AsyncCollection, *, reads: Sequence[MessageRange]
) -> list[list[MessageDoc]]:
    """The messages of each range, in ascending `seq`: one command for up to 150 ranges, its
    reply in the first batch whatever the pages hold (up to 16 MiB)."""
    wanted = [read for read in reads if read.last_seq is None or read.last_seq >= read.first_seq]
    rows = await unions.read_branches(
        coll,
        branches=[branch for read in wanted for branch in _branches(read)],
        rows_at_most=sum(_rows_at_most(read) for read in wanted),
    )
    found: dict[MessageRange, list[MessageDoc]] = {}
    for index, read in enumerate(wanted):
        pages = rows[2 * index] + rows[2 * index + 1]
        messages = [message_from_document(m) for page in pages for m in page["messages"]]
        found[read] = sorted(
            (m for m in messages if _within(read, m.seq)), key=lambda message: message.seq
        )
    return [found.get(read, []) for read in reads]


def _within(read: MessageRange, seq: int) -> bool:
    return read.first_seq <= seq and (read.last_seq is None or seq <= read.last_seq)
