"""The fields graphql-core's own `execute_field` runs, by name, in order: what the one-step
paths (schema/leaf_fields.py, schema/object_fields.py) left to it."""

from __future__ import annotations

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
