"""Checks of argument shapes and limits, run once at the edge before anything is written."""

from __future__ import annotations

import math
import unicodedata

from bson import ObjectId
from bson.errors import InvalidId

from resolvers.errors import BadUserInput
from settings import MAX_TITLE_LENGTH


def object_id(value: str, *, argument: str) -> ObjectId:
    try:
        return ObjectId(value)
    except (InvalidId, TypeError):
        raise BadUserInput(f"{argument}: {value!r} is not a valid ID", argument=argument) from None


def has_control_characters(text: str) -> bool:
    return any(unicodedata.category(ch) == "Cc" for ch in text)


def title(value: str, *, argument: str = "title") -> str:
    if not value.strip():
        raise BadUserInput(f"{argument}: must not be empty", argument=argument)
    return text(value, argument=argument, maximum=MAX_TITLE_LENGTH)


def page_size(value: int | None, *, default: int, maximum: int, argument: str) -> int:
    if value is None:
        return default
    if value < 0:
        raise BadUserInput(f"{argument}: must not be negative, got {value}", argument=argument)
    if value > maximum:
        raise BadUserInput(f"{argument}: at most {maximum}, got {value}", argument=argument)
    return value


def finite(value: float, *, argument: str) -> float:
    if not math.isfinite(value):
        raise BadUserInput(f"{argument}: must be a finite number", argument=argument)
    return value


def text(value: str, *, argument: str, maximum: int) -> str:
    """A non-empty identifier or label: 1 to `maximum` characters, no control characters."""
    if not value:
        raise BadUserInput(f"{argument}: must not be empty", argument=argument)
    if len(value) > maximum:
        raise BadUserInput(
            f"{argument}: at most {maximum} characters, got {len(value)}", argument=argument
        )
    if has_control_characters(value):
        raise BadUserInput(f"{argument}: must not contain control characters", argument=argument)
    return value
