"""Time helpers every collection shares: MongoDB stores UTC milliseconds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bson.tz_util import utc as BSON_UTC  # the zone PyMongo's tz_aware datetimes carry


def as_utc(moment: datetime) -> datetime:
    """A stored time as an aware UTC datetime (a driver without `tz_aware` gives naive UTC).
    PyMongo's own UTC zone is kept: it is UTC (equal, hashed and formatted alike), and a page
    of orders would otherwise copy each of its dates once more."""
    zone = moment.tzinfo
    if zone is UTC or zone is BSON_UTC:
        return moment
    if zone is None:
        return moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC)


def hour_start(moment: datetime) -> datetime:
    utc = as_utc(moment)  # built, not `replace`d: a batch computes one per event
    return datetime(utc.year, utc.month, utc.day, utc.hour, tzinfo=utc.tzinfo)


def stored_time(moment: datetime) -> datetime:
    """`moment` as MongoDB keeps it: UTC, whole milliseconds (BSON dates hold no finer)."""
    moment = as_utc(moment)
    extra = moment.microsecond % 1000
    return moment - _MICROSECONDS[extra] if extra else moment


# Each number of microseconds below a millisecond, built once: subtracting one is the cheapest
# way to a whole millisecond (an event batch rounds a thousand times).
_MICROSECONDS = tuple(timedelta(microseconds=n) for n in range(1000))
