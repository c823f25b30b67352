"""What a server refuses to store: a document over 16 MiB of BSON, nested over 100 levels, or
holding a value BSON cannot encode; and bounds of a stored document's size that spare an update
of a few values encoding the whole document again.

BSON sizes add up: a document is 5 bytes and its elements, an element 2 bytes, its key and its
value. An update pipeline's new document keeps most values of the stored one as they are
(`stored_form.stored_copy_beside`): its size is at most the stored document's plus what each
changed field could add, which encoding the changed values alone gives (`growth`). Encoding
them also checks them as encoding the whole document would (a value BSON cannot hold, an
integer over 64 bits, a key with a NUL). The old values' bytes are not taken off, so the bound
drifts above the size, a changed bucket's bytes per update; once it passes the limit the
document is encoded whole, and the bound is its exact size again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import bson

from embedded.rules import (
    BAD_VALUE,
    BSON_OBJECT_TOO_LARGE,
    LEAF_TYPES,
    MAX_BSON_DOCUMENT_BYTES,
    MAX_DOCUMENT_NESTING,
    OVERFLOW,
    write_error,
)
from embedded.stored_form import Changed, Placed

_CONTAINER_TYPES = (Mapping, list, tuple)
_EMPTY_DOCUMENT = len(bson.encode({}))
# An array longer than this has indexes of two digits or more.
_ONE_DIGIT_INDEXES = 10


def encoded_size(document: Mapping[str, Any]) -> int:
    """The BSON size of `document`, or the write error a server's driver would give."""
    try:
        return len(bson.encode(document))
    except OverflowError as exc:
        raise write_error(OVERFLOW, f"value does not fit in a 64-bit integer: {exc}") from None
    except bson.errors.InvalidDocument as exc:
        raise write_error(BAD_VALUE, str(exc)) from None


def growth(changed: Sequence[Changed]) -> int:
    """At most how many bytes the changed fields of an update add to the stored document (each
    changed value checked as a whole encoding checks it).

    A replaced or added field adds at most its element. An array that kept elements of the old
    one, each once, adds at most its new elements (`value`) and, past ten elements, a digit or
    more to each kept element's index key."""
    grown = encoded_size({key: value for key, value, _ in changed}) - _EMPTY_DOCUMENT
    for _, _, length in changed:
        if length > _ONE_DIGIT_INDEXES:
            grown += length * (len(str(length - 1)) - 1)
    return grown


def _depth(value: Any, level: int = 0) -> int:
    kind = type(value)
    if kind is dict or isinstance(value, Mapping):
        items: Any = value.values()
    elif kind is list or isinstance(value, list | tuple):
        items = value
    else:
        return level
    deepest = level + 1
    if LEAF_TYPES.issuperset(map(type, items)):  # leaves alone, told apart in one C call
        return deepest
    for item in items:
        kind = type(item)  # the common leaves told apart without an isinstance
        if kind is dict and LEAF_TYPES.issuperset(map(type, item.values())):
            deepest = max(deepest, level + 2)  # a subdocument of leaves (an array's element)
        elif (
            kind is dict
            or kind is list
            or (kind not in LEAF_TYPES and isinstance(item, _CONTAINER_TYPES))
        ):
            deepest = max(deepest, _depth(item, level + 1))
    return deepest


def check_document(
    document: Mapping[str, Any],
    *,
    too_large_code: int,
    placed: Placed | None = None,
    bound: int | None = None,
) -> int:
    """Reject what a server cannot store; give the document's size, or a bound of it. The
    nesting is measured from `placed` when given (the values that may nest deeper than in the
    stored document the update started from: `stored_form.stored_copy_beside`). A `bound` of
    the size within the limit (whose changed values `growth` checked) is taken for the size;
    without one, or past the limit, the document is encoded."""
    if bound is not None and bound <= MAX_BSON_DOCUMENT_BYTES:
        size = bound
    else:
        size = encoded_size(document)
    if size > MAX_BSON_DOCUMENT_BYTES:
        if too_large_code == BSON_OBJECT_TOO_LARGE:
            message = (
                f"object to insert too large. size in bytes: {size}, "
                f"max size: {MAX_BSON_DOCUMENT_BYTES}"
            )
        else:
            message = f"Resulting document after update is larger than {MAX_BSON_DOCUMENT_BYTES}"
        raise write_error(too_large_code, message)
    depth = _depth(document) if placed is None else max((_depth(*p) for p in placed), default=1)
    if depth > MAX_DOCUMENT_NESTING:
        raise write_error(
            OVERFLOW, f"Document exceeds maximum nesting depth of {MAX_DOCUMENT_NESTING}"
        )
    return size
