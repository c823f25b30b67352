"""The DateTime scalar's input: ISO-8601 with an offset, read to UTC whole milliseconds. The
common form is read directly; every form reads as the written-out path reads it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone, tzinfo
from typing import Any

import pytest
from bson.tz_util import utc as bson_utc

from resolvers.validation import _parse_written_datetime, parse_datetime
from schema.scalars import _serialize as serialize_datetime

ACCEPTED = {
    "2024-01-31T10:00:00Z": datetime(2024, 1, 31, 10, tzinfo=UTC),
    "2024-01-31T10:00:00z": datetime(2024, 1, 31, 10, tzinfo=UTC),
    " 2024-01-31T10:00:00Z ": datetime(2024, 1, 31, 10, tzinfo=UTC),
    "2024-01-31 10:00:00+02:00": datetime(2024, 1, 31, 8, tzinfo=UTC),
    "2024-01-31T10:00:00.123987Z": datetime(2024, 1, 31, 10, 0, 0, 123000, tzinfo=UTC),
    "2024-01-31T10:00:00.999999-01:30": datetime(2024, 1, 31, 11, 30, 0, 999000, tzinfo=UTC),
    "20240131T100000Z": datetime(2024, 1, 31, 10, tzinfo=UTC),
}
REFUSED: dict[Any, str] = {
    "2024-01-31x10:00:00Z": "needs a time",  # Python reads any separator; we want T or space
    "2024-01-31T10:00:00": "has no offset",
    "2024-01-31": "has no offset",
    "yesterday": "is not ISO-8601",
    "": "is not ISO-8601",
    1706695200: "must be an ISO-8601 string",
    None: "must be an ISO-8601 string",
    "0001-01-01T00:00:00+01:00": "is out of range in UTC",  # no Python words in the message
    "9999-12-31T23:59:59-01:00": "is out of range in UTC",
}


@pytest.mark.parametrize(("written", "expected"), ACCEPTED.items())
def test_parse_datetime_reads_utc_milliseconds(written: str, expected: datetime) -> None:
    parsed = parse_datetime(written)
    assert parsed == expected
    assert parsed.utcoffset() is not None and parsed.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize(("written", "reason"), REFUSED.items())
def test_parse_datetime_refuses_with_the_reason(written: Any, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_datetime(written)


@pytest.mark.parametrize("written", [*ACCEPTED, *REFUSED])
def test_parse_datetime_answers_as_the_written_out_path(written: Any) -> None:
    def outcome(parse: Any) -> object:
        try:
            return parse(written)
        except ValueError as exc:
            return str(exc)

    assert outcome(parse_datetime) == outcome(_parse_written_datetime)


@pytest.mark.parametrize(
    "moment",
    [
        datetime(2024, 1, 31, 10, 0, 0, 123000, tzinfo=UTC),
        datetime(2024, 1, 31, 10, 0, 0, 123000, tzinfo=bson_utc),
        datetime(2024, 1, 31, 12, 0, 0, 123000, tzinfo=timezone(timedelta(hours=2))),
        datetime(2024, 1, 31, 10, 0, 0, 123000),  # naive: UTC, as a driver without tz_aware
    ],
    ids=["UTC", "PyMongo's UTC", "offset", "naive"],
)
def test_datetime_serializes_in_utc_to_the_millisecond(moment: datetime) -> None:
    assert serialize_datetime(moment) == "2024-01-31T10:00:00.123Z"


@pytest.mark.parametrize(
    ("microsecond", "written"),
    [(0, "00.000Z"), (999, "00.000Z"), (123999, "00.123Z"), (999999, "00.999Z")],
)
@pytest.mark.parametrize("zone", [UTC, bson_utc], ids=["UTC", "PyMongo's UTC"])
def test_datetime_serializes_milliseconds_cut_never_rounded(
    zone: tzinfo, microsecond: int, written: str
) -> None:
    moment = datetime(9999, 12, 31, 23, 59, 0, microsecond, tzinfo=zone)
    assert serialize_datetime(moment) == "9999-12-31T23:59:" + written
