"""Idempotency keys at the edge: the key's shape, the digest of a call's arguments, and a
call's write run at most once per key (`store/idempotency.py` keeps the records).

A key is its caller's: the record is kept under the caller's identity (`Identity.key`), so the
same key sent by another identity is another key, and never answers the first caller's stored
result; a service token of the `admin` role owns the records stored before identities were.

A try that is refused (bad input found late, a limit, lost bucket races: nothing stored)
gives its key up, so a retry runs afresh and, with the same arguments, meets the same error.
A try that stops on anything else after claiming (the database failing during its write, a
crash) may have written: its key then answers that what it stored is not known.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any, TypeVar

from bson import ObjectId

from resolvers.context import Info
from resolvers.errors import ApiError, BadUserInput
from resolvers.identity import Identity
from settings import IDEMPOTENCY_KEY_PATTERN, IDEMPOTENCY_TTL_SECONDS
from store import idempotency as store
from store.errors import StoreError
from store.idempotency import Claim, Refusal, Refused, Replay
from store.protocols import AsyncCollection, Document
from store.times import as_utc

logger = logging.getLogger("arraygraph.idempotency")
KEY = re.compile(IDEMPOTENCY_KEY_PATTERN)
ARGUMENT = "idempotencyKey"
DESCRIPTION = (
    "1 to 64 of A-Z, a-z, 0-9, _ and -. A retry with the same key (and the same arguments) "
    "within 24 hours by the same caller writes nothing and answers what the first try "
    "answered; another caller's same key is another key."
)
# Whose records keep the form without an owner: every token was admin's before identities.
LEGACY_OWNER = Identity.service("admin").key
T = TypeVar("T")


def idempotency_key(value: str | None) -> str | None:
    if value is not None and not KEY.fullmatch(value):
        raise BadUserInput(f"{ARGUMENT}: 1 to 64 of A-Z, a-z, 0-9, '_' and '-'", argument=ARGUMENT)
    return value


def _plain(value: Any) -> str:
    if isinstance(value, datetime):
        return as_utc(value).isoformat()
    if isinstance(value, ObjectId):
        return str(value)
    raise TypeError(f"not part of a request digest: {type(value).__name__}")


def digest(arguments: Any) -> str:
    """A call's normalised arguments as one string: equal for equal calls."""
    text = json.dumps(arguments, sort_keys=True, separators=(",", ":"), default=_plain)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def owner(identity: Identity) -> str:
    """The owner a key is stored under: the identity's key; "" for admin service tokens."""
    key = identity.key
    return "" if key == LEGACY_OWNER else key


def _refusal(refused: Refused) -> ApiError | StoreError:
    first = f"the first try with this key ({refused.created_at.isoformat()})"
    if refused.reason is Refusal.OTHER_REQUEST:
        hours = IDEMPOTENCY_TTL_SECONDS // 3600
        return BadUserInput(
            f"{ARGUMENT}: used for another request within {hours} hours (other arguments); "
            "nothing was written",
            argument=ARGUMENT,
        )
    if refused.reason is Refusal.RUNNING:
        return store.KeyInUse(
            f"{ARGUMENT}: {first} is still running; nothing was written by this one: retry in "
            "a moment for its answer",
            argument=ARGUMENT,
        )
    return store.KeyInUse(
        f"{ARGUMENT}: {first} stopped on an error after it may have written, and what it "
        "stored is not known; nothing was written by this one",
        argument=ARGUMENT,
    )


async def _settle(coll: AsyncCollection, held: Claim, error: BaseException) -> None:
    """After a failed write: give the key up when nothing was stored, else mark it unknown.
    Best effort: if the database does not answer, the pending record's lease says the same."""
    try:
        if isinstance(error, ApiError | StoreError):
            await store.release(coll, held=held)
        else:
            await store.abandon(coll, held=held)
    except Exception:  # the write's own error is the one to report
        logger.warning("Idempotency key %s left pending after %r", held.id, error, exc_info=True)


async def once(
    info: Info,
    *,
    scope: str,
    key: str | None,
    request: Any,
    write: Callable[[], Awaitable[T]],
    answer: Callable[[T], Document],
    replay: Callable[[Document], Awaitable[T]],
) -> T:
    """`write()` once per (scope, key): a retry gets `replay(answer(first result))`."""
    if key is None:
        return await write()
    context = info.context
    coll = context.collection(store.COLLECTION)
    outcome = await store.claim(
        coll,
        scope=scope,
        key=key,
        request=digest(request),
        now=context.now,
        owner=owner(await context.identity()),  # verified already: the field's guard asked
    )
    if isinstance(outcome, Replay):
        return await replay(outcome.answer)
    if isinstance(outcome, Refused):
        raise _refusal(outcome)
    try:
        result = await write()
    except BaseException as error:
        await _settle(coll, outcome, error)
        raise
    try:
        await store.finish(coll, held=outcome, answer=answer(result))
    except Exception:  # written: this answer is right; a retry will learn it is unknown
        logger.warning("Idempotency key %s written but not marked done", outcome.id, exc_info=True)
    return result
