"""Checks of argument shapes and limits, run once at the edge before anything is written.

Every check raises `BadUserInput` naming the argument (`events[3].count`, `userId`...).
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sized
from datetime import datetime
from typing import Any

from bson import ObjectId
from bson.errors import InvalidId

from resolvers.errors import BadUserInput, shown
from settings import MAX_TITLE_LENGTH
from store.times import stored_time


def object_id(value: str, *, argument: str) -> ObjectId:
    try:
        return ObjectId(value)
    except (InvalidId, TypeError):
        raise BadUserInput(
            f"{argument}: {shown(value)} is not a valid ID", argument=argument
        ) from None


def is_storable_text(value: str) -> bool:
    """True when BSON can hold the string: no NUL, no lone surrogate (not UTF-8 encodable)."""
    if "\x00" in value:
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _has_control_characters(value: str) -> bool:
    # A printable string (one C call) has none; `isprintable` refuses more (spaces other than
    # " ", format characters...), which the exact check then lets through.
    if value.isprintable():
        return False
    return any(unicodedata.category(ch) in ("Cc", "Cs") for ch in value)


def is_text(value: str, *, maximum: int) -> bool:
    """Whether `text` would accept `value`."""
    return 0 < len(value) <= maximum and not _has_control_characters(value)


def text(value: str, *, argument: str, maximum: int) -> str:
    """A non-empty identifier or label: 1 to `maximum` characters, no control characters."""
    if not value:
        raise BadUserInput(f"{argument}: must not be empty", argument=argument)
    if len(value) > maximum:
        raise BadUserInput(
            f"{argument}: at most {maximum} characters, got {len(value)}", argument=argument
        )
    if _has_control_characters(value):
        raise BadUserInput(f"{argument}: must not contain control characters", argument=argument)
    return value


def free_text(value: str, *, argument: str, maximum: int) -> str:
    """Text as the client wrote it (newlines and tabs kept): at most `maximum` characters, and
    storable (no NUL, no lone surrogate)."""
    if len(value) > maximum:
        raise BadUserInput(
            f"{argument}: at most {maximum} characters, got {len(value)}", argument=argument
        )
    if not is_storable_text(value):
        raise BadUserInput(
            f"{argument}: must not contain NUL or unpaired surrogates", argument=argument
        )
    return value


def multiline_text(value: str, *, argument: str, maximum: int) -> str:
    """`free_text` under the rule of titles and authors (no control characters), tabs and line
    breaks aside: a newline, or a carriage return that ends a line before one (CRLF). A lone
    CR rewrites the line it ends in a terminal, as an escape sequence restyles it."""
    free_text(value, argument=argument, maximum=maximum)
    if _has_control_characters(value.replace("\r\n", "\n").replace("\n", "").replace("\t", "")):
        raise BadUserInput(
            f"{argument}: must not contain control characters other than tab and line breaks",
            argument=argument,
        )
    return value


def title(value: str, *, argument: str = "title") -> str:
    return text(visible(value, argument=argument), argument=argument, maximum=MAX_TITLE_LENGTH)


# What shows nothing besides spaces and format characters (Cf): the rest of Unicode's
# Default_Ignorable_Code_Point (variation selectors, the Hangul fillers, the combining grapheme
# joiner...), and the blank Braille pattern U+2800, a common stand-in for a space.
_INVISIBLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2065, 0x2065),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0xE0000, 0xE0FFF),
)


def _invisible(character: str) -> bool:
    if character.isspace() or unicodedata.category(character) == "Cf":
        return True
    code = ord(character)
    return any(low <= code <= high for low, high in _INVISIBLE_RANGES)


def visible(value: str, *, argument: str) -> str:
    """Something that shows: not empty, nor only spaces and characters that show nothing."""
    if all(map(_invisible, value)):
        raise BadUserInput(f"{argument}: must not be empty or invisible", argument=argument)
    return value


def finite(value: float, *, argument: str) -> float:
    if not math.isfinite(value):
        raise BadUserInput(f"{argument}: must be a finite number", argument=argument)
    return value


def positive(value: int, *, argument: str) -> int:
    if value < 1:
        raise BadUserInput(f"{argument}: must be at least 1, got {value}", argument=argument)
    return value


def at_most(items: Sized, limit: int, *, argument: str, minimum: int = 0) -> None:
    """A list argument of `minimum` to `limit` elements a call."""
    count = len(items)
    if count > limit:
        raise BadUserInput(
            f"{argument}: at most {limit} per call, got {count} "
            f"({argument}[{limit}] is the first over the limit)",
            argument=argument,
        )
    if count < minimum:
        raise BadUserInput(
            f"{argument}: at least {minimum} per call, got {count}", argument=argument
        )


def parse_datetime(value: Any) -> datetime:
    """The DateTime scalar's input: ISO-8601 with an offset, to UTC milliseconds."""
    if type(value) is str:
        # The common form, read as it is (Python 3.11 reads a trailing Z itself); any other
        # is written out by `_parse_written_datetime`, with its error.
        try:
            parsed = datetime.fromisoformat(value)
        except ValueError:
            pass
        else:
            if parsed.tzinfo is not None and ("T" in value or " " in value):
                return _stored(parsed, value)
    return _parse_written_datetime(value)


def _stored(parsed: datetime, value: str) -> datetime:
    """MongoDB stores milliseconds in UTC: round the same way on the way in."""
    try:
        return stored_time(parsed)
    except OverflowError:  # its offset moves it past what a datetime holds: year 1 or 9999
        raise ValueError(f"DateTime {shown(value)} is out of range in UTC") from None


def _parse_written_datetime(value: Any) -> datetime:
    if not isinstance(value, str):
        raise ValueError("DateTime must be an ISO-8601 string, such as 2024-01-31T10:00:00Z")
    written = value.strip()
    if written.endswith(("z", "Z")):
        written = written[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(written)
    except ValueError:
        raise ValueError(f"DateTime {shown(value)} is not ISO-8601") from None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise ValueError(f"DateTime {shown(value)} has no offset: add Z or +hh:mm")
    if "T" not in written and " " not in written:
        raise ValueError(f"DateTime {shown(value)} needs a time, not only a date")
    return _stored(parsed, value)
