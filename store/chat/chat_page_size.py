"""The largest chat page the limits allow, in bytes: a full page must stay below MongoDB's
16 MiB, by construction, for every cap arraygraph starts with."""

from __future__ import annotations

from datetime import UTC, datetime

import bson
from bson import ObjectId

from settings import (
    MAX_AUTHOR_LENGTH,
    MAX_BSON_DOCUMENT_BYTES,
    MAX_CLIENT_MESSAGE_ID_LENGTH,
    MAX_MESSAGE_TEXT_LENGTH,
    SettingsError,
)

WIDEST_CHARACTER = "\U0010ffff"  # 4 bytes in UTF-8
LATEST = datetime(9999, 12, 31, tzinfo=UTC)
LARGEST_INT = 2**62  # counters and seq as 64-bit integers, the wider BSON integer
# Kept free below 16 MiB: the room a server's update needs beyond the stored page (the pipeline's
# working field, the page in a reply's envelope), and a margin against a field added later.
HEADROOM_BYTES = 128 * 1024
LARGEST_PAGE_BYTES = MAX_BSON_DOCUMENT_BYTES - HEADROOM_BYTES


def _element_bytes(key: str, value: object) -> int:
    """The bytes `value` takes as an element named `key` (array elements are named by index)."""
    return len(bson.encode({key: value})) - len(bson.encode({}))


def largest_page_bytes(cap: int) -> int:
    """A page of `cap` messages, each at every limit, every character 4 bytes in UTF-8."""
    message = {
        "id": ObjectId(),
        "author": WIDEST_CHARACTER * MAX_AUTHOR_LENGTH,
        "text": WIDEST_CHARACTER * MAX_MESSAGE_TEXT_LENGTH,
        "sentAt": LATEST,
        "clientMessageId": "x" * MAX_CLIENT_MESSAGE_ID_LENGTH,
        "editedAt": LATEST,
        "deleted": True,
        "seq": LARGEST_INT,
    }
    index = "9" * len(str(max(cap - 1, 0)))  # the longest index name in the array
    per_message = _element_bytes(index, message)
    per_client_id = _element_bytes(index, "x" * MAX_CLIENT_MESSAGE_ID_LENGTH)
    empty = {
        "_id": ObjectId(),
        "sessionId": ObjectId(),
        "page": LARGEST_INT,
        "firstSeq": LARGEST_INT,
        "count": LARGEST_INT,
        "sealed": True,
        "messages": [],
        "clientIds": [],
    }
    return len(bson.encode(empty)) + cap * (per_message + per_client_id)


def check_messages_per_page(cap: int) -> None:
    """Refuse a cap whose full page could pass 16 MiB less the headroom (SettingsError naming
    the setting)."""
    largest = largest_page_bytes(cap)
    if largest > LARGEST_PAGE_BYTES:
        raise SettingsError(
            f"ARRAYGRAPH_MESSAGES_PER_PAGE={cap}: a full page of messages at their limits "
            f"would take {largest:,} bytes, over the {LARGEST_PAGE_BYTES:,} a page may take "
            f"(MongoDB's {MAX_BSON_DOCUMENT_BYTES:,} less {HEADROOM_BYTES:,} of headroom); "
            "lower it"
        )
