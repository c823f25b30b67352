"""The sensors' 24-hour window, written once: the current UTC hour and the 23 before it.

Writes drop the buckets before it, the list filters and sorts on it, and the read model shows
it; all three take it from here.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from settings import SENSOR_WINDOW_HOURS
from store.times import hour_start


@dataclass(frozen=True, slots=True)
class Window:
    start: datetime  # the first hour of the window
    end: datetime  # the current hour: its start

    @classmethod
    def at(cls, now: datetime) -> Window:
        end = hour_start(now)
        return cls(start=end - timedelta(hours=SENSOR_WINDOW_HOURS - 1), end=end)

    def hours(self) -> list[datetime]:
        """Every hour of the window, oldest first."""
        return [self.start + timedelta(hours=offset) for offset in range(SENSOR_WINDOW_HOURS)]
