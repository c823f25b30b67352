"""The plain counts and histograms read exactly as prometheus_client's own would."""

from __future__ import annotations

import re

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from web.observability.plain_metrics import CountsAndTimings, Family, bucket_labels

BUCKETS = (0.001, 0.01, 0.1, 1.0)
OBSERVED = [
    (("q", "query", "ok"), 0.0005),
    (("q", "query", "ok"), 0.001),  # at a bound: counted in that bucket (`le`)
    (("q", "query", "error:X"), 0.05),
    (("m", "mutation", "ok"), 3.0),  # past every bound: only +Inf
]


def _without_created(text: bytes) -> str:
    return re.sub(r"(_created\{[^}]*\}) \S+", r"\1 T", text.decode())


def _prometheus_client_exposition() -> str:
    registry = CollectorRegistry()
    counter = Counter("requests", "Requests", ["operation", "type", "outcome"], registry=registry)
    histogram = Histogram(
        "latency_seconds", "Latency", ["operation", "type"], buckets=BUCKETS, registry=registry
    )
    for key, _seconds in OBSERVED:
        counter.labels(*key).inc()
    for key, seconds in OBSERVED:
        histogram.labels(*key[:2]).observe(seconds)
    return _without_created(generate_latest(registry))


def test_plain_metrics_expose_what_prometheus_client_exposes_for_the_same_observations() -> None:
    registry = CollectorRegistry()
    plain = CountsAndTimings(
        Family("requests", "Requests", ("operation", "type", "outcome")),
        Family("latency_seconds", "Latency", ("operation", "type")),
        BUCKETS,
    )
    registry.register(plain)
    for key, seconds in OBSERVED:
        plain.count(key)
        plain.time(key, seconds)
    assert _without_created(generate_latest(registry)) == _prometheus_client_exposition()


def test_bucket_labels_are_written_as_prometheus_client_writes_them() -> None:
    # As Go writes floats: an exponent from 1e+07 on, where Python's repr has none.
    assert bucket_labels((0.00025, 1, 30, 1e7)) == ("0.00025", "1.0", "30.0", "1e+07", "+Inf")


def test_plain_metrics_count_a_value_at_a_bound_in_that_bound() -> None:
    plain = CountsAndTimings(Family("c", "C", ("a",)), Family("h_seconds", "H", ("a",)), BUCKETS)
    plain.time(("x",), 0.01)
    assert plain.timings[("x",)].counts == [0, 1, 0, 0, 0]


def test_plain_metrics_are_copied_for_a_scrape_under_the_lock_their_writers_take() -> None:
    # The command metrics change on the engine's thread too: a scrape copies them under the
    # lock those changes take, so a series added meanwhile never breaks its iteration.
    entered: list[str] = []

    class Recording:
        def __enter__(self) -> None:
            entered.append("scrape")

        def __exit__(self, *exc: object) -> None:
            return None

    plain = CountsAndTimings(
        Family("c", "C", ("a",)), Family("h_seconds", "H", ("a",)), BUCKETS, lock=Recording()
    )
    plain.count(("x",))
    plain.time(("x",), 0.5)
    families = list(plain.collect())
    assert entered == ["scrape"]
    assert [sample.value for sample in families[0].samples][:1] == [1.0]
