"""What PyMongo does to a command before it reaches a server, which the adapter does too.

PyMongo encodes each command itself, so a value BSON cannot hold (a lone surrogate, an int past
64 bits, a set) fails in the client (`bson.errors.InvalidDocument`, `UnicodeEncodeError`,
`OverflowError`), and a single-statement command larger than the server's maxBsonObjectSize plus
16 KiB of command overhead is refused with `DocumentTooLarge`
(`pymongo.asynchronous.command_runner`): neither is a round trip, and a server never sees it.
Bulk writes are not measured here: PyMongo sends their statements for the server to judge.

PyMongo also checks a write's arguments before sending it (`pymongo.common`): an update must be
operators or a pipeline ("update only works with $ operators"), a replacement must hold no
operator ("replacement can not include $ operators"), a filter must be a document; each request
of a bulk write is checked as it is added, before the first command goes. The adapter calls the
same checks, so it refuses what PyMongo refuses, with PyMongo's exception and message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import bson
from pymongo import common
from pymongo.errors import DocumentTooLarge
from pymongo.write_concern import validate_boolean

from embedded.rules import MAX_BSON_DOCUMENT_BYTES

COMMAND_OVERHEAD = 16_382  # pymongo.message._COMMAND_OVERHEAD
# What PyMongo adds to the command it is given: the message header, `lsid`, `$db`.
_MESSAGE_EXTRA = 64
MAX_COMMAND_BYTES = MAX_BSON_DOCUMENT_BYTES + COMMAND_OVERHEAD


# Aggregation stages that store code builds once and shares between requests (a page's pipeline) are
# encoded once: their sizes are remembered by identity, each stage held so that its id stays its
# own. Such stages are never changed after they are built (`embedded.stages.reads` relies on it
# too).
_STAGE_SIZES: dict[int, tuple[object, int]] = {}
_STAGE_SIZES_LIMIT = 4096


def _stage_size(stage: object) -> int:
    hit = _STAGE_SIZES.get(id(stage))
    if hit is not None and hit[0] is stage:
        return hit[1]
    size = len(bson.encode({"0": stage}))
    if len(_STAGE_SIZES) >= _STAGE_SIZES_LIMIT:
        _STAGE_SIZES.clear()
    _STAGE_SIZES[id(stage)] = (stage, size)
    return size


def check_command(command: Mapping[str, Any]) -> None:
    """Raise what PyMongo raises before sending `command`, if anything."""
    pipeline = command.get("pipeline") if next(iter(command)) == "aggregate" else None
    if isinstance(pipeline, list):
        rest = {k: v for k, v in command.items() if k != "pipeline"}
        size = len(bson.encode(rest)) + sum(_stage_size(stage) for stage in pipeline)
    else:
        size = len(bson.encode(command))
    size += _MESSAGE_EXTRA
    if size <= MAX_COMMAND_BYTES:
        return
    name = next(iter(command))
    if name == "insert":
        raise DocumentTooLarge(
            f"BSON document too large ({size} bytes) - the connected server supports"
            f" BSON document sizes up to {MAX_COMMAND_BYTES} bytes."
        )
    raise DocumentTooLarge(f"{name} command document too large")


def check_update(filter: Any, update: Any, upsert: Any, array_filters: Any = None) -> None:
    """What PyMongo's update_one and update_many check: operators or a pipeline."""
    common.validate_is_mapping("filter", filter)
    validate_boolean("upsert", upsert)
    common.validate_ok_for_update(update)
    common.validate_list_or_none("array_filters", array_filters)


def check_replacement(filter: Any, replacement: Any, upsert: Any) -> None:
    """What PyMongo's replace_one and find_one_and_replace check: a document of no operator."""
    common.validate_is_mapping("filter", filter)
    validate_boolean("upsert", upsert)
    common.validate_ok_for_replace(replacement)


def check_filter(filter: Any) -> None:
    """What PyMongo's deletes check: the filter is a document."""
    common.validate_is_mapping("filter", filter)
