"""Changing one message in place: an edit or a tombstone, one command each, found by its id on
the (sessionId, messages.id) index and changed through an array filter."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bson import ObjectId
from pymongo import ReturnDocument

from store.chat.chat_pages import MessageDoc, message_from_document, pick
from store.expressions import literal
from store.protocols import AsyncCollection, Document


async def find_message(
    coll: AsyncCollection, *, session_id: ObjectId, message_id: ObjectId
) -> MessageDoc | None:
    found = await coll.find_one(
        {"sessionId": session_id, "messages.id": message_id},
        projection={"_id": 0, "found": pick("id", message_id)},
    )
    if found is None or not found["found"]:
        return None
    return message_from_document(found["found"][0])


async def _change_message(
    coll: AsyncCollection, where: Document, message_id: ObjectId, changes: Document
) -> MessageDoc | None:
    found = await coll.find_one_and_update(
        where,
        {"$set": {f"messages.$[m].{field}": value for field, value in changes.items()}},
        array_filters=[{"m.id": message_id}],
        projection={"_id": 0, "found": pick("id", message_id)},
        return_document=ReturnDocument.AFTER,
    )
    if found is None or not found["found"]:
        return None
    return message_from_document(found["found"][0])


def _by(author: str | None) -> Document:
    """The condition on the message's author: none, or that `author` wrote it."""
    return {} if author is None else {"author": author}


async def edit_message(
    coll: AsyncCollection,
    *,
    session_id: ObjectId,
    message_id: ObjectId,
    text: str,
    now: datetime,
    author: str | None = None,
) -> MessageDoc | None:
    """The message with its new text; None when there is no such message, it is deleted, or
    `author` (when given) did not write it (`find_message` tells which). One command."""
    where = {
        "sessionId": session_id,
        "messages": {"$elemMatch": {"id": message_id, "deleted": {"$ne": True}, **_by(author)}},
    }
    return await _change_message(coll, where, message_id, {"text": text, "editedAt": now})


async def delete_message(
    coll: AsyncCollection,
    *,
    session_id: ObjectId,
    message_id: ObjectId,
    author: str | None = None,
) -> MessageDoc | None:
    """The message as a tombstone (text emptied, `seq` kept); None when there is no such
    message, or `author` (when given) did not write it. Idempotent. One command."""
    where = {
        "sessionId": session_id,
        "messages": {"$elemMatch": {"id": message_id, **_by(author)}},
    }
    return await _change_message(coll, where, message_id, {"text": "", "deleted": True})


async def find_messages(
    coll: AsyncCollection, *, keys: Sequence[tuple[ObjectId, ObjectId]]
) -> dict[tuple[ObjectId, ObjectId], MessageDoc]:
    """Messages by (session, message id), only those asked read from each page, on the
    (sessionId, messages.id) index: one command."""
    wanted: dict[ObjectId, list[ObjectId]] = {}
    for session_id, message_id in keys:
        wanted.setdefault(session_id, []).append(message_id)
    where = [{"sessionId": s, "messages.id": {"$in": ids}} for s, ids in wanted.items()]
    every_id = sorted({message_id for _, message_id in keys})
    keep = {"$in": ["$$this.id", literal(every_id)]}
    projection = {
        "_id": 0,
        "sessionId": 1,
        "found": {"$filter": {"input": "$messages", "cond": keep}},
    }
    docs = await coll.find({"$or": where}, projection=projection).to_list()
    found = {
        (raw["sessionId"], m["id"]): message_from_document(m) for raw in docs for m in raw["found"]
    }
    return {key: found[key] for key in keys if key in found}
