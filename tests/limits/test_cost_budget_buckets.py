"""The buckets are a bounded LRU: past `kept` callers the least recently charged is forgotten,
and comes back to a full bucket; the others keep what they spent."""

from __future__ import annotations

from resolvers.access.cost_budget import CostBudgets


def test_the_least_recently_charged_caller_is_forgotten() -> None:
    budgets = CostBudgets(60, kept=2, clock=lambda: 0.0)
    assert budgets.charge("a", 60) == 0.0
    assert budgets.charge("b", 60) == 0.0
    assert budgets.charge("a", 1) == 1.0  # spent: a second until one unit is back
    assert budgets.charge("c", 60) == 0.0  # a third caller: b, charged least recently, goes
    assert list(budgets.buckets) == ["a", "c"]
    assert budgets.charge("a", 1) == 1.0  # kept, still spent
    assert budgets.charge("b", 60) == 0.0  # forgotten: a full bucket again


def test_a_cost_over_the_whole_budget_runs_on_a_full_bucket() -> None:
    budgets = CostBudgets(60, clock=lambda: 0.0)
    assert budgets.charge("a", 1_000) == 0.0
    assert budgets.charge("a", 1) == 1.0
