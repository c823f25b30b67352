"""The points of a series: starts aligned to a granularity in a time zone, as UTC instants.

MINUTE points are the minutes; HOUR points start where the zone's wall clock shows a whole
hour (an hour of elapsed time apart, but where the offset changes by part of an hour); DAY,
WEEK (ISO: Monday) and MONTH points start at local midnights, so a DAY in Europe/Berlin across
the October change lasts 25 hours. Time zones come from the IANA
database (`zoneinfo`, with the `tzdata` package where the system has none).
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from enum import Enum
from functools import cache
from zoneinfo import ZoneInfo, available_timezones

from resolvers.errors import BadUserInput, LimitExceeded

MINUTE = timedelta(minutes=1)
HOUR = timedelta(hours=1)
QUARTER = timedelta(minutes=15)
HALF_YEAR = timedelta(days=182)


class Granularity(Enum):
    MINUTE = "minute"
    HOUR = "hour"
    DAY = "day"
    WEEK = "week"
    MONTH = "month"


@cache
def _zone_names() -> frozenset[str]:
    # The IANA zones only: not the system's `localtime`, not `Factory`, not a directory.
    return frozenset(available_timezones()) - {"localtime", "Factory"}


def time_zone(name: str | None, *, argument: str = "timeZone") -> ZoneInfo:
    if name is None:
        return ZoneInfo("UTC")
    if name not in _zone_names():
        raise BadUserInput(
            f"{argument}: {name[:80]!r} is not an IANA time zone (such as Europe/Berlin)",
            argument=argument,
        )
    return ZoneInfo(name)


def whole_minute(moment: datetime) -> datetime:
    """The rollups keep minutes: a time is read at its minute."""
    return moment.astimezone(UTC).replace(second=0, microsecond=0)


def _midnight(day: date, zone: ZoneInfo) -> datetime:
    """The first instant of `day` in `zone`: its midnight, or, where a change of offset skips
    midnight, the change (Toronto, 1919-03-31: 23:30 became 00:30, and the day began then)."""
    wall = datetime.combine(day, time(), tzinfo=zone)
    moment = whole_minute(wall)
    if moment.astimezone(zone).replace(tzinfo=None) == wall.replace(tzinfo=None):
        return moment
    # Midnight is in a gap (or, for a local mean time of seconds, between whole minutes): read
    # with the offset after the change it comes before the change, with the one before it
    # after; between them, the first minute whose local date is `day`.
    low, minutes = whole_minute(wall.replace(fold=1)), 0
    high = (moment - low) // MINUTE
    if high <= 0:  # no gap: a local mean time's midnight, between two whole minutes
        return moment
    while minutes < high:
        middle = (minutes + high) // 2
        if (low + middle * MINUTE).astimezone(zone).date() >= day:
            high = middle
        else:
            minutes = middle + 1
    return low + minutes * MINUTE


def _add_months(day: date, months: int) -> date:
    index = day.year * 12 + day.month - 1 + months
    return date(index // 12, index % 12 + 1, 1)


def _first_day(start: datetime, granularity: Granularity, zone: ZoneInfo) -> date:
    local = start.astimezone(zone).date()
    if granularity is Granularity.WEEK:
        return local - timedelta(days=local.weekday())
    if granularity is Granularity.MONTH:
        return local.replace(day=1)
    return local


def _calendar_starts(
    start: datetime, end: datetime, granularity: Granularity, zone: ZoneInfo, most: int
) -> list[datetime]:
    first = _first_day(start, granularity, zone)
    starts: list[datetime] = []
    step = 0
    while len(starts) < most:
        if granularity is Granularity.MONTH:
            day = _add_months(first, step)
        else:
            day = first + timedelta(days=step * (7 if granularity is Granularity.WEEK else 1))
        moment = _midnight(day, zone)
        if moment >= end:
            return starts
        if not starts or moment > starts[-1]:
            starts.append(moment)
        step += 1
    return starts


def _next_local_hour(moment: datetime, zone: ZoneInfo) -> datetime:
    """The next instant whose local minute is 0: an hour on, unless the zone's offset changed
    by part of an hour in between (Lord Howe, or Kathmandu in 1986), found by quarter hours,
    or by minutes for a change of no whole quarter (Kiritimati in 1979, -10:40 to -10:00).
    Where no minute is (a local mean time of seconds), the hour on is taken."""
    for quarters in range(1, 8):
        candidate = moment + QUARTER * quarters
        if candidate.astimezone(zone).minute == 0:
            return candidate
    for minutes in range(1, 120):
        local = (moment + MINUTE * minutes).astimezone(zone)
        if local.minute == 0 and local.second == 0:  # not a whole UTC minute of a mean time
            return moment + MINUTE * minutes
    return moment + HOUR


def _minute_starts(start: datetime, end: datetime, most: int) -> list[datetime]:
    """MINUTE points are UTC minutes in every zone: a zone whose offset is whole minutes
    starts its minutes at the same instants, and one whose offset has seconds (a local mean
    time) has no local minute at a whole UTC minute, so `from` starts the first point."""
    count = min(most, -(-(end - start) // MINUTE))
    return [start + MINUTE * index for index in range(count)]


def _hour_starts(start: datetime, end: datetime, zone: ZoneInfo, most: int) -> list[datetime]:
    """One conversion a point: the next start is an hour on while the zone's offset is the
    same an hour on; only across a change of offset are the minutes between searched."""
    local = start.astimezone(zone).replace(minute=0, second=0, microsecond=0)
    moment = whole_minute(local)
    offset = moment.astimezone(zone).utcoffset()
    starts: list[datetime] = []
    while moment < end and len(starts) < most:
        starts.append(moment)
        following = moment + HOUR
        after = following.astimezone(zone).utcoffset()
        if after != offset:
            following = _next_local_hour(moment, zone)
            after = following.astimezone(zone).utcoffset()
        moment, offset = following, after
    return starts


# The shortest a point can be, so that a range bounds its points without computing any.
SHORTEST_POINT = {
    Granularity.MINUTE: MINUTE,
    Granularity.HOUR: HOUR,
    Granularity.DAY: timedelta(hours=23),
    Granularity.WEEK: timedelta(days=7) - HOUR,
    Granularity.MONTH: timedelta(days=28) - HOUR,
}


# The longest a point can be, so that a range shows it has too many points without computing
# any: an hour after a change back of part of an hour, a day (or a week, or a month) with a
# change back of a whole day in it (Alaska, 1867).
LONGEST_POINT = {
    Granularity.MINUTE: MINUTE,
    Granularity.HOUR: 2 * HOUR,
    Granularity.DAY: timedelta(hours=49),
    Granularity.WEEK: timedelta(days=7, hours=49),
    Granularity.MONTH: timedelta(days=31, hours=49),
}


def least_points(start: datetime, end: datetime, granularity: Granularity) -> int:
    """At most the number of points `point_starts` finds for [start, end), by arithmetic."""
    return max(0, (end - start) // LONGEST_POINT[granularity])


def most_points(start: datetime, end: datetime, granularity: Granularity) -> int:
    """At least the number of points `point_starts` finds for [start, end), by arithmetic
    alone: the range over the shortest point, two more for the partial points at its ends,
    and for HOUR one more per half year, for an hour cut short by a change of part of an hour
    (Lord Howe's half-hour changes come twice a year)."""
    if end <= start:
        return 0
    points = -(-(end - start) // SHORTEST_POINT[granularity]) + 2
    if granularity is Granularity.HOUR:
        points += -(-(end - start) // HALF_YEAR)
    return points


def point_starts(
    start: datetime, end: datetime, granularity: Granularity, zone: ZoneInfo, *, limit: int
) -> list[datetime]:
    """The starts s0 <= start < s1 < ... < end of the points covering [start, end), in UTC;
    more than `limit` of them is LIMIT_EXCEEDED, found by computing one past the limit at
    most (whatever the range), so that exactly `limit` points are allowed in any zone."""
    within_limit(start, end, granularity, limit=limit)
    if granularity is Granularity.MINUTE:
        starts = _minute_starts(start, end, limit + 1)
    elif granularity is Granularity.HOUR:
        starts = _hour_starts(start, end, zone, limit + 1)
    else:
        starts = _calendar_starts(start, end, granularity, zone, limit + 1)
    if len(starts) > limit:
        raise _too_many(limit)
    return starts


def within_limit(start: datetime, end: datetime, granularity: Granularity, *, limit: int) -> None:
    """LIMIT_EXCEEDED where the range alone shows more than `limit` points."""
    if least_points(start, end, granularity) > limit:
        raise _too_many(limit)


def _too_many(limit: int) -> LimitExceeded:
    return LimitExceeded(
        f"granularity: more than {limit} points between from and to; "
        "ask for a coarser granularity or a shorter range",
        argument="granularity",
    )
