"""Running statistics: a count, a sum, a minimum and a maximum, folded a value at a time.

A call folds what it writes before it writes (one update per document however many values):
sensors fold a call's events into each sensor's hours (`store/sensors/sensors.py`), series fold
observations into each rollup's fields (`store/series/series.py`); the database then adds the folds
into what it holds (`$inc`/`$add`, `$min`, `$max`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(slots=True)
class RunningStats:
    count: int = 0
    total: float = 0.0
    minimum: float | None = None
    maximum: float | None = None

    def add(self, value: float, times: int = 1) -> None:
        """`value`, `times` times (a sensor event of count n and value v stands for n events
        of value v). Values are finite: the API refuses any other."""
        self.count += times
        self.total += value * times
        if self.minimum is None or value < self.minimum:
            self.minimum = value
        if self.maximum is None or value > self.maximum:
            self.maximum = value
