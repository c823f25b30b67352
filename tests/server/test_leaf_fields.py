"""Attribute fields of scalar type completed in one step (`runtime/execution/leaf_fields.py`) answer
as graphql-core does: a field with a permission is never read without it, and a field whose read
fails is that field's error, with its own path, its siblings kept."""

from __future__ import annotations

import inspect
from typing import Any

import strawberry
from graphql import ExecutionResult, parse
from strawberry.permission import BasePermission

from runtime.execution.execute import execute_document
from runtime.execution.executor import TypedErrorsExecutionContext


class Deny(BasePermission):
    message = "denied"

    def has_permission(self, source: Any, info: Any, **kwargs: Any) -> bool:
        return False


@strawberry.type
class Item:
    plain: str
    size: int | None
    secret: str | None = strawberry.field(permission_classes=[Deny])


@strawberry.type
class Query:
    @strawberry.field
    def item(self) -> Item | None:
        return Item(plain="p", size=1, secret="s3cr3t")

    @strawberry.field
    def fragile(self) -> Item | None:
        item = Item(plain="p", size=1, secret=None)
        del item.size  # reading it raises AttributeError
        return item


SCHEMA = strawberry.Schema(query=Query, execution_context_class=TypedErrorsExecutionContext)


async def _execute(query: str) -> ExecutionResult:
    """As the lean path runs an operation (no middleware: the fast path is taken)."""
    found = execute_document(
        SCHEMA, parse(query), variables=None, operation_name=None, context=None, extensions=None
    )
    return await found if inspect.isawaitable(found) else found


async def test_leaf_field_with_a_permission_is_checked() -> None:
    result = await _execute("{ item { plain secret } }")
    assert result.data == {"item": {"plain": "p", "secret": None}}
    assert [(e.message, e.path) for e in result.errors or []] == [("denied", ["item", "secret"])]


async def test_leaf_field_whose_read_fails_is_its_own_error() -> None:
    result = await _execute("{ fragile { plain size } }")
    assert result.data == {"fragile": {"plain": "p", "size": None}}
    assert [e.path for e in result.errors or []] == [["fragile", "size"]]
