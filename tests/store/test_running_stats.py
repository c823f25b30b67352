"""One running-statistics fold (store/running_stats.py), for sensors' hours and series'
rollups alike: a value added n times counts as n equal values."""

from __future__ import annotations

import random

from store.running_stats import RunningStats


def test_a_fold_holds_the_count_sum_minimum_and_maximum_of_what_it_was_given() -> None:
    chosen = random.Random(7)
    given = [(float(chosen.randrange(-50, 50)), chosen.randrange(1, 4)) for _ in range(200)]
    stats = RunningStats()
    for value, times in given:
        stats.add(value, times)
    values = [value for value, times in given for _ in range(times)]
    assert (stats.count, stats.total) == (len(values), sum(values))
    assert (stats.minimum, stats.maximum) == (min(values), max(values))


def test_an_empty_fold_has_no_minimum_or_maximum() -> None:
    assert RunningStats() == RunningStats(count=0, total=0.0, minimum=None, maximum=None)
