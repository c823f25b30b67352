"""A check's answer is kept per operation and values of the variables it read
(runtime/limits/check_memo.py), and no longer than the operation's document lives: the memo holds no
document, so the document cache's byte budget still bounds what parsed documents hold (issue
14, item 4)."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Callable
from typing import Any

from graphql import DocumentNode, GraphQLError, build_schema, parse
from graphql.execution import Executor

from runtime.limits.check_memo import CHECK_ANSWERS_KEPT, AnswersKept
from runtime.limits.operation_fields import OperationFields

SCHEMA = build_schema("type Query { count(first: Int, of: [Int]): Int, other(name: String): Int }")
SIZED = "query($n: Int, $name: String) { count(first: $n) other(name: $name) }"


def operation_fields(
    source: str | DocumentNode, variables: dict[str, Any] | None = None
) -> OperationFields:
    """The fields of `source`'s operation as a check sees them, from graphql-core's executor."""
    document = parse(source) if isinstance(source, str) else source
    built = Executor.build(SCHEMA, document, raw_variable_values=variables or {})
    assert not isinstance(built, list)
    return OperationFields(built)


def _counting(
    read: Callable[[OperationFields], object] = lambda f: None,
) -> tuple[AnswersKept, list[object]]:
    """A check that calls `read` on the fields, and notes each run."""
    seen: list[object] = []

    def check(fields: OperationFields) -> GraphQLError | None:
        seen.append(read(fields))
        return None

    return AnswersKept(check), seen


def _first_of_count(fields: OperationFields) -> object:
    """What a size reads: `count`'s `first` (when `count` is collected)."""
    root = fields.root()
    assert root is not None
    root_type, groups = root
    group = groups.get("count")
    return group and fields.arguments(root_type.fields["count"], group).get("first")


def test_check_memo_answers_an_operation_without_variables_once() -> None:
    kept, seen = _counting()
    fields = operation_fields("{ __typename }")
    for _ in range(3):
        assert kept(fields) is None
    assert len(seen) == 1


def test_check_memo_asks_again_when_a_variable_it_read_changes() -> None:
    kept, seen = _counting(_first_of_count)
    document = parse(SIZED)
    for n in (1, 2, 1, 2, None):
        kept(operation_fields(document, {"n": n}))
    assert seen == [1, 2, None]


def test_check_memo_keeps_its_answer_whatever_a_variable_it_did_not_read() -> None:
    kept, seen = _counting(_first_of_count)
    document = parse(SIZED)
    for name in ("a", "b", "c"):
        kept(operation_fields(document, {"n": 5, "name": name}))
    assert seen == [5]


def test_check_memo_asks_again_when_a_skip_variable_changes() -> None:
    kept, seen = _counting(_first_of_count)
    document = parse("query($s: Boolean!) { count(first: 3) @skip(if: $s) }")
    for skip in (True, False, True, False):
        kept(operation_fields(document, {"s": skip}))
    assert seen == [None, 3]


def test_check_memo_tells_an_int_from_a_bool_of_the_same_hash() -> None:
    kept, seen = _counting(lambda fields: fields.variables.get("v"))
    document = parse("query($v: Int) { count(first: $v) }")
    kept(operation_fields(document, {"v": 1}))
    kept(OperationFields(_forged(document, True)))
    assert seen == [1, True]


def _forged(document: DocumentNode, value: object) -> Any:
    """An executor whose coerced `v` is `value`, whatever its declared type."""
    built: Any = Executor.build(SCHEMA, document, raw_variable_values={"v": 1})
    built.variable_values.coerced["v"] = value
    return built


def test_check_memo_asks_every_time_for_a_value_it_cannot_hash() -> None:
    kept, seen = _counting(lambda fields: fields.variables.get("of"))
    document = parse("query($of: [Int]) { count(of: $of) }")
    for _ in range(3):
        kept(operation_fields(document, {"of": [1, 2]}))
    assert seen == [[1, 2]] * 3


def test_check_memo_keeps_a_bounded_number_of_answers_per_operation() -> None:
    kept, seen = _counting(_first_of_count)
    document = parse(SIZED)
    for n in range(3 * CHECK_ANSWERS_KEPT):
        kept(operation_fields(document, {"n": n}))
    assert all(entry.count <= CHECK_ANSWERS_KEPT for entry in kept.kept.values())
    assert len(seen) == 3 * CHECK_ANSWERS_KEPT


def test_check_memo_forgets_an_answer_when_its_document_goes() -> None:
    kept, seen = _counting()
    fields = operation_fields("{ __typename }")
    kept(fields)
    assert len(kept.kept) == 1
    del fields, seen[:]
    gc.collect()
    assert kept.kept == {}


class _Request:
    """Stands for what a request holds (its context, executor, variables)."""


def test_check_memo_keeps_no_request_alive_through_a_refusal() -> None:
    def refusing(fields: OperationFields) -> GraphQLError | None:
        request = _Request()
        requests.append(weakref.ref(request))
        try:
            raise ValueError(f"refused for {request!r}")  # its traceback holds `request`
        except ValueError as refused:
            return GraphQLError(str(refused), original_error=refused)

    requests: list[weakref.ref[_Request]] = []
    kept = AnswersKept(lambda fields: refusing(fields) if _first_of_count(fields) else None)
    document = parse(SIZED)
    answers = [kept(operation_fields(document, {"n": n})) for n in (1, 2, 3)]
    gc.collect()
    assert all(answer is not None for answer in answers)
    assert [ref() for ref in requests] == [None, None, None]
