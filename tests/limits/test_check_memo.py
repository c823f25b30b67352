"""A check's answer is kept per operation without variables (schema/check_memo.py), and no
longer than the operation's document lives: the memo holds no document, so the document
cache's byte budget still bounds what parsed documents hold (issue 14, item 4)."""

from __future__ import annotations

import gc

from graphql import GraphQLError, build_schema, parse
from graphql.execution import Executor

from schema.check_memo import AnswersKept
from schema.strawberry_internals import OperationFields

SCHEMA = build_schema("type Query { count(first: Int): Int }")


def operation_fields(source: str) -> OperationFields:
    """The fields of `source`'s operation as a check sees them, from graphql-core's executor."""
    built = Executor.build(SCHEMA, parse(source), raw_variable_values={})
    assert not isinstance(built, list)
    return OperationFields(built)


def _counting() -> tuple[AnswersKept, list[object]]:
    seen: list[object] = []

    def check(fields: OperationFields) -> GraphQLError | None:
        seen.append(fields.operation)
        return None

    return AnswersKept(check), seen


def test_check_memo_answers_an_operation_without_variables_once() -> None:
    kept, seen = _counting()
    fields = operation_fields("{ __typename }")
    for _ in range(3):
        assert kept(fields) is None
    assert len(seen) == 1


def test_check_memo_asks_again_for_an_operation_with_variables() -> None:
    kept, seen = _counting()
    fields = operation_fields("query($n: Int) { count(first: $n) }")
    for _ in range(3):
        kept(fields)
    assert len(seen) == 3


def test_check_memo_forgets_an_answer_when_its_document_goes() -> None:
    kept, seen = _counting()
    fields = operation_fields("{ __typename }")
    kept(fields)
    assert len(kept.kept) == 1
    del fields, seen[:]
    gc.collect()
    assert kept.kept == {}
