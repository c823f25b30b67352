"""The fields graphql-core's own `execute_field` runs, by name, in order: what the one-step
paths (runtime/execution/leaf_fields.py, runtime/execution/object_fields.py) left to it; and the
calls of any function, counted by name."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from graphql.execution import Executor


def executed_fields(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The list that each field graphql-core executes is appended to, from now on."""
    executed: list[str] = []
    original = Executor.execute_field

    def counting(self: Any, parent_type: Any, source: Any, fields: Any, *args: Any) -> Any:
        executed.append(fields[0].node.name.value)
        return original(self, parent_type, source, fields, *args)

    monkeypatch.setattr(Executor, "execute_field", counting)
    return executed


def count_calls(
    monkeypatch: pytest.MonkeyPatch, owner: object, name: str, calls: list[str]
) -> None:
    """Count the calls of `owner.name` in `calls`, keeping what it does."""
    original: Callable[..., Any] = getattr(owner, name)

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(name)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, counting)
