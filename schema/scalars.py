"""Custom scalars."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import strawberry
from bson.tz_util import utc as BSON_UTC

from resolvers.validation import parse_datetime
from store.times import as_utc

_combine = datetime.combine
_WITH_MICROSECONDS = len("2000-01-01T00:00:00.000000")


def _serialize(value: datetime) -> str:
    if value.tzinfo is UTC or value.tzinfo is BSON_UTC:
        # The naive copy formats without asking the zone its offset (a Python call for
        # PyMongo's UTC); `combine` builds it at a fraction of `replace`'s cost. `isoformat()`
        # without keywords (parsed on each call) writes microseconds only when there are
        # some: cut to milliseconds, as `timespec="milliseconds"` does, or add them.
        text = _combine(value, value.time()).isoformat()
        return text[:23] + "Z" if len(text) == _WITH_MICROSECONDS else text + ".000Z"
    return as_utc(value).isoformat(timespec="milliseconds").replace("+00:00", "Z")


DateTime = strawberry.scalar(
    name="DateTime",
    description="An ISO-8601 date and time with an offset or Z; returned in UTC.",
    serialize=_serialize,
    parse_value=parse_datetime,
)

SCALARS: dict[object, Any] = {datetime: DateTime}
