"""Custom scalars."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import strawberry
from bson.tz_util import utc as BSON_UTC

from resolvers.validation import parse_datetime
from store.times import as_utc

_combine = datetime.combine


def _serialize(value: datetime) -> str:
    if value.tzinfo is UTC or value.tzinfo is BSON_UTC:
        # The naive copy formats without asking the zone its offset (a Python call for
        # PyMongo's UTC); `combine` builds it at a fraction of `replace`'s cost.
        naive = _combine(value, value.time())
        return naive.isoformat(timespec="milliseconds") + "Z"
    return as_utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


DateTime = strawberry.scalar(
    name="DateTime",
    description="An ISO-8601 date and time with an offset or Z; returned in UTC.",
    serialize=_serialize,
    parse_value=parse_datetime,
)

SCALARS: dict[object, Any] = {datetime: DateTime}
