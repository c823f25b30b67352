"""Fields of attribute reads completed in one step with their selections
(`runtime/execution/object_fields.py`) answer exactly as graphql-core's own executor does: data,
error messages and paths, whatever goes wrong under them and wherever."""

from __future__ import annotations

import enum
import inspect
from typing import Any

import pytest
import strawberry
from graphql import ExecutionResult, execute, parse
from strawberry.permission import BasePermission

from runtime.execution import object_fields
from runtime.execution.execute import execute_document
from runtime.execution.executor import TypedErrorsExecutionContext
from tests.support.executed import executed_fields


class Deny(BasePermission):
    message = "denied"

    def has_permission(self, source: Any, info: Any, **kwargs: Any) -> bool:
        return False


@strawberry.enum
class Colour(enum.Enum):
    RED = "red"


@strawberry.interface
class Named:
    name: str


@strawberry.type
class Leaf(Named):
    size: int
    colour: Colour | None
    tags: list[str] | None
    secret: str | None = strawberry.field(permission_classes=[Deny])


@strawberry.type
class Branch:
    leaves: list[Leaf]
    first: Leaf | None
    named: Named | None


@strawberry.type
class Query:
    @strawberry.field
    def branch(self, case: str) -> Branch | None:
        return _branch(case)


def _branch(case: str) -> Branch:
    good = Leaf(name="a", size=1, colour=Colour.RED, tags=["x"], secret="s")
    bad: Any = Leaf(name="b", size=2, colour=None, tags=None, secret=None)
    if case == "null":
        bad.name = None  # a null for a non-null field
    elif case == "raises":
        del bad.size
    elif case == "refused":
        bad.size = "not a number"
    elif case == "not a list":
        bad.tags = "xy"
    elif case == "other type":
        bad = Branch(leaves=[], first=None, named=None)
    elif case == "cast to another type":  # a Leaf, that Strawberry's is_type_of refuses
        bad = strawberry.cast(Branch, bad)
    elif case == "number as text":  # String serializes it
        bad.name = 12
    return Branch(leaves=[good, bad], first=good, named=good)


SCHEMA = strawberry.Schema(query=Query, execution_context_class=TypedErrorsExecutionContext)
PLAIN = strawberry.Schema(query=Query)
QUERY = """query($case: String!, $skip: Boolean!) { branch(case: $case) {
  leaves { name size colour tags ...S @skip(if: $skip) }
  first { ... on Leaf { name tags } __typename }
  named { name } } }
fragment S on Leaf { secret }"""
CASES = [
    "good",
    "null",
    "raises",
    "refused",
    "not a list",
    "other type",
    "cast to another type",
    "number as text",
]


async def _answer(schema: strawberry.Schema, variables: dict[str, Any]) -> ExecutionResult:
    if schema is PLAIN:
        found: Any = execute(PLAIN._schema, parse(QUERY), variable_values=variables)
    else:
        found = execute_document(
            schema,
            parse(QUERY),
            variables=variables,
            operation_name=None,
            context=None,
            extensions=None,
        )
    result: ExecutionResult = await found if inspect.isawaitable(found) else found
    return result


def _shape(result: ExecutionResult) -> tuple[Any, list[tuple[str, Any]]]:
    return result.data, sorted((e.message, e.path) for e in result.errors or [])


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("skip", [True, False])
async def test_object_fields_answer_as_graphql_core(case: str, skip: bool) -> None:
    variables = {"case": case, "skip": skip}
    ours, theirs = await _answer(SCHEMA, variables), await _answer(PLAIN, variables)
    assert _shape(ours) == _shape(theirs)


async def test_object_fields_good_answer_is_the_whole_selection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    executed = executed_fields(monkeypatch)
    result = await _answer(SCHEMA, {"case": "good", "skip": True})
    assert executed == ["branch", "named"]  # an interface: graphql-core resolves its type
    assert result.errors is None
    leaves = result.data and result.data["branch"]["leaves"]
    assert leaves == [
        {"name": "a", "size": 1, "colour": "RED", "tags": ["x"]},
        {"name": "b", "size": 2, "colour": None, "tags": None},
    ]


async def test_object_fields_field_with_a_permission_is_checked() -> None:
    result = await _answer(SCHEMA, {"case": "good", "skip": False})
    assert result.data and result.data["branch"]["leaves"][0]["secret"] is None
    assert {tuple(e.path or ()) for e in result.errors or []} == {
        ("branch", "leaves", 0, "secret"),
        ("branch", "leaves", 1, "secret"),
    }


async def test_object_fields_of_one_document_follow_each_requests_skip() -> None:
    document = parse(QUERY)
    answers = []
    for skip in (True, False, True):
        found = execute_document(
            SCHEMA,
            document,
            variables={"case": "good", "skip": skip},
            operation_name=None,
            context=None,
            extensions=None,
        )
        result = await found if inspect.isawaitable(found) else found
        assert result.data is not None
        answers.append("secret" in result.data["branch"]["leaves"][0])
    assert answers == [False, True, False]


async def test_object_fields_plans_of_a_document_without_directives_are_built_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[object] = []
    original = object_fields._object_plan

    def counting(*args: Any, **kwargs: Any) -> Any:
        built.append(args[2])
        return original(*args, **kwargs)

    monkeypatch.setattr(object_fields, "_object_plan", counting)
    document = parse('{ branch(case: "good") { leaves { name tags } first { size } } }')
    for _ in range(3):
        found = execute_document(
            SCHEMA, document, variables=None, operation_name=None, context=None, extensions=None
        )
        result = await found if inspect.isawaitable(found) else found
        assert result.errors is None
    assert [str(t) for t in built] == ["Leaf", "Leaf"]  # `leaves` and `first`, once each
