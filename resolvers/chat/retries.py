"""A post's retry by its `clientMessageId`: what the held message may answer, and to whom."""

from __future__ import annotations

from resolvers.errors import BadUserInput
from resolvers.identity import Identity
from store.chat.chat_pages import MessageDoc, NewMessage


def answer_to_retry(stored: MessageDoc, message: NewMessage, caller: Identity) -> None:
    """A held `clientMessageId` answers its message to a retry of that post only: the same
    author, and the same text unless the message changed since (edited by its author, or
    deleted: its tombstone) and the caller is that author. Anyone else naming it (a member
    reusing another's id; a service, which writes any author and reads no session) would read a
    message they did not write: refused, as an idempotency key's other call is."""
    if stored.author == message.author and (
        stored.text == message.text or stored.deleted or caller.user_id == stored.author
    ):
        return
    raise BadUserInput(
        "clientMessageId: names a message of another author, or of other text than this "
        "post's; nothing was written",
        argument="clientMessageId",
    )
