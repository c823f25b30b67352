"""A name (operation, alias, fragment, variable) over MAX_NAME_LENGTH is refused once, before
the schema's rules quote it in their messages; errors are located by bisection among the line
breaks, at the lines and columns graphql-core gives (it scanned the document per error)."""

from __future__ import annotations

import re

import pytest
from graphql import GraphQLError, Source
from graphql.language.location import SourceLocation

from runtime.execution.error_locations import located
from settings import MAX_NAME_LENGTH
from tests.support import Api, error_codes


def _graphql_core_location(source: Source, position: int) -> SourceLocation:
    """graphql-core 3.3's `Source.get_location`, as it was."""
    line, line_start = 1, 0
    for match in re.finditer(r"\r\n|[\n\r]", source.body):
        if match.start() >= position:
            break
        line_start = match.end()
        line += 1
    return SourceLocation(line, position + 1 - line_start)


@pytest.mark.parametrize("body", ["{ a }", "\n\n{ a\r\n b }\r c\n", "\r\n\r\n", "x\ry\n\nz"])
def test_error_locations_are_graphql_cores(body: str) -> None:
    source = Source(body)
    for position in range(len(body) + 1):
        assert located(source, position) == _graphql_core_location(source, position), position


def test_error_locations_locate_a_graphql_error() -> None:
    error = GraphQLError("x", source=Source("{\n  a\r\n  b }"), positions=[4, 9])
    assert error.locations == [SourceLocation(2, 3), SourceLocation(3, 3)]


@pytest.mark.parametrize(
    "document",
    [
        "query {name} {{ __typename }}",
        "{{ {name}: __typename }}",
        "query Q(${name}: Int) {{ __typename }}",
        "{{ ...{name} }} fragment {name} on Query {{ __typename }}",
    ],
)
async def test_name_limit_refuses_a_long_name_once(api: Api, document: str) -> None:
    name = "n" * (MAX_NAME_LENGTH + 1)
    body = await api.post(document.format(name=name))
    assert error_codes(body) == ["LIMIT_EXCEEDED"]
    assert body["errors"][0]["message"] == (
        f"A name of {MAX_NAME_LENGTH + 1} characters. Allowed: {MAX_NAME_LENGTH}"
    )


async def test_name_limit_runs_a_name_at_the_limit(api: Api) -> None:
    name = "n" * MAX_NAME_LENGTH
    assert await api.data(f"query {name} {{ {name}: __typename }}") == {name: "Query"}


async def test_errors_after_a_megabyte_of_blanks_are_located(api: Api) -> None:
    blanks = " " * 1_000_000
    body = await api.post(blanks + "\nquery Q { nodes(ids: [$v, $v]) { id } }")
    assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"] * 2
    assert body["errors"][0]["locations"][0] == {"line": 2, "column": 23}
