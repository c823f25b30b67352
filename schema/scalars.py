"""Custom scalars."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import strawberry


def _serialize(value: datetime) -> str:
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)  # stored times are UTC
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse_datetime(value: Any) -> datetime:
    if not isinstance(value, str):
        raise ValueError("DateTime must be an ISO-8601 string, such as 2024-01-31T10:00:00Z")
    text = value.strip()
    if text.endswith(("z", "Z")):
        text = text[:-1] + "+00:00"
    try:
        parsed = datetime.fromisoformat(text)
    except ValueError:
        raise ValueError(f"DateTime {value!r} is not ISO-8601") from None
    if parsed.tzinfo is None or parsed.utcoffset() is None:
        raise ValueError(f"DateTime {value!r} has no offset: add Z or +hh:mm")
    if "T" not in text and " " not in text:
        raise ValueError(f"DateTime {value!r} needs a time, not only a date")
    # MongoDB stores milliseconds: round the same way on the way in.
    utc = parsed.astimezone(UTC)
    return utc.replace(microsecond=utc.microsecond // 1000 * 1000)


DateTime = strawberry.scalar(
    name="DateTime",
    description="An ISO-8601 date and time with an offset or Z; returned in UTC.",
    serialize=_serialize,
    parse_value=parse_datetime,
)

SCALARS: dict[object, Any] = {datetime: DateTime}
