"""ARRAYGRAPH_COST_BUDGET_PER_MINUTE: unset or 0, no budget (none is kept, nothing charged);
a negative number is refused at start-up."""

from __future__ import annotations

import pytest

from app import create_app
from settings import Settings, SettingsError


def test_no_budget_unless_set() -> None:
    assert Settings.from_env({}).cost_budget_per_minute == 0
    assert Settings.from_env({"ARRAYGRAPH_COST_BUDGET_PER_MINUTE": "0"}).cost_budget_per_minute == 0
    assert create_app(Settings()).state.schema.cost_budgets is None
    budgeted = Settings.from_env({"ARRAYGRAPH_COST_BUDGET_PER_MINUTE": "600000"})
    budgets = create_app(budgeted).state.schema.cost_budgets
    assert budgets is not None and budgets.per_minute == 600_000


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(SettingsError, match="ARRAYGRAPH_COST_BUDGET_PER_MINUTE must be at least 0"):
        Settings.from_env({"ARRAYGRAPH_COST_BUDGET_PER_MINUTE": "-1"})
