"""Custom scalars."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import strawberry

from resolvers.validation import parse_datetime
from store.times import as_utc


def _serialize(value: datetime) -> str:
    return as_utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


DateTime = strawberry.scalar(
    name="DateTime",
    description="An ISO-8601 date and time with an offset or Z; returned in UTC.",
    serialize=_serialize,
    parse_value=parse_datetime,
)

SCALARS: dict[object, Any] = {datetime: DateTime}
