"""Counts and latency histograms kept as plain numbers, read by a collector of their own.

prometheus_client's `Counter.inc` and `Histogram.observe` take a lock each, the histogram walking
its buckets one comparison at a time: on a request as small as `{ __typename }`, the request
metrics alone were a visible share of its time. Here a count is an attribute of a slotted object
and a histogram a list of per-bucket counts found by bisection. The caller makes changes one at a
time: the request metrics change only on the event loop's thread (`RequestLog`), where a scrape
also reads them (`GET /metrics` encodes synchronously); the command metrics, which the engine's
thread changes too, behind a lock of their own (web/observability/metrics.py), under which a
scrape copies them.
A scrape shows them as prometheus_client shows its own: the same names, labels, samples and
`_created` (tests/observability/test_plain_metrics.py compares the two). Only prometheus_client's
public API for custom collectors is used: `Collector`, the `*MetricFamily` classes,
`Metric.add_sample` and, for the `le` labels, a `Histogram` of the same bounds.
"""

from __future__ import annotations

import time
from bisect import bisect_left
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

from prometheus_client import Histogram, Metric
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily
from prometheus_client.registry import Collector

Labels = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Family:
    """A metric's name (a counter's without `_total`), help text and label names."""

    name: str
    help: str
    labels: Labels


@dataclass(slots=True)
class Count:
    value: float = 0.0
    created: float = field(default_factory=time.time)


@dataclass(slots=True)
class Timings:
    """One histogram series: how many fell in each bucket (not cumulative; the last is past
    every bound) and their sum."""

    counts: list[int]
    total: float = 0.0
    created: float = field(default_factory=time.time)


class CountsAndTimings(Collector):
    """A counter and a histogram whose labels are the counter's first ones (the histogram's
    series is the counter's key cut to its labels)."""

    def __init__(
        self,
        counter: Family,
        histogram: Family,
        buckets: Sequence[float],
        *,
        lock: AbstractContextManager[object] | None = None,
    ) -> None:
        self.counter = counter
        self.histogram = histogram
        # The lock under which another thread changes the series, if one does: a scrape copies
        # them under it (the changes' callers take it themselves).
        self.lock = lock
        self.bounds = tuple(float(bound) for bound in buckets)
        self._le = bucket_labels(self.bounds)
        self.counts: dict[Labels, Count] = {}
        self.timings: dict[Labels, Timings] = {}
        self._width = len(histogram.labels)

    def count(self, key: Labels) -> None:
        found = self.counts.get(key)
        if found is None:
            found = self.counts[key] = Count()
        found.value += 1

    def time(self, key: Labels, seconds: float) -> None:
        series = key[: self._width]
        found = self.timings.get(series)
        if found is None:
            found = self.timings[series] = Timings([0] * (len(self.bounds) + 1))
        # A bucket counts what is at most its bound, as prometheus_client's `le` does.
        found.counts[bisect_left(self.bounds, seconds)] += 1
        found.total += seconds

    def describe(self) -> Iterator[Metric]:
        counter, histogram = self.counter, self.histogram
        yield CounterMetricFamily(counter.name, counter.help, labels=counter.labels)
        yield HistogramMetricFamily(histogram.name, histogram.help, labels=histogram.labels)

    def _snapshot(self) -> tuple[list[tuple[Labels, Count]], list[tuple[Labels, Timings]]]:
        with self.lock or nullcontext():
            counts = [(labels, Count(c.value, c.created)) for labels, c in self.counts.items()]
            timings = [
                (labels, Timings(list(t.counts), t.total, t.created))
                for labels, t in self.timings.items()
            ]
        return counts, timings

    def collect(self) -> Iterator[Metric]:
        found_counts, found_timings = self._snapshot()
        counter = self.counter
        counts = CounterMetricFamily(counter.name, counter.help, labels=counter.labels)
        for labels, count in found_counts:
            counts.add_metric(labels, count.value, created=count.created)
        yield counts
        histogram = self.histogram
        timings = HistogramMetricFamily(histogram.name, histogram.help, labels=histogram.labels)
        created = f"{histogram.name}_created"
        for labels, found in found_timings:
            below = 0.0
            buckets: list[tuple[str, float]] = []
            for le, in_bucket in zip(self._le, found.counts, strict=True):
                below += in_bucket
                buckets.append((le, below))
            timings.add_metric(labels, buckets, found.total)
            # prometheus_client's Histogram writes `_created` after `_sum`; the family has no
            # argument for it.
            timings.add_sample(
                created, dict(zip(histogram.labels, labels, strict=True)), found.created
            )
        yield timings


def bucket_labels(bounds: Sequence[float]) -> tuple[str, ...]:
    """The `le` label of each bucket, +Inf last, as prometheus_client writes them: read from a
    Histogram of the same bounds (registered nowhere), so that the two never differ."""
    (family,) = Histogram("bounds", "", buckets=bounds, registry=None).collect()
    return tuple(sample.labels["le"] for sample in family.samples if sample.name == "bounds_bucket")
