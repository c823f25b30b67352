"""The depth and alias limits measure each fragment once: the answers of Strawberry's limiters,
in time linear in the document, where theirs walked a fragment again at every spread (a
1 KB chain of doubling fragments took 8.7 s)."""

from __future__ import annotations

import pytest
from graphql import parse, validate
from strawberry.extensions import MaxAliasesLimiter, QueryDepthLimiter

from runtime.request.limit_rules import alias_limit, depth_limit, selection_limit
from schema.schema import build_schema
from settings import MAX_SELECTIONS
from tests.support import Api, error_codes

SCHEMA = build_schema()._schema
DOCUMENTS = [
    "{ sensors { edges { node { hourly { hour } } } } }",
    "{ a: sensors { edges { node { ...F } } } } fragment F on Sensor { t: title hourly { hour } }",
    "query Q { sensors { edges { ... on SensorEdge { node { ... on Sensor { hourly { hour } } } } } } }",  # noqa: E501
    "{ __schema { types { fields { type { ofType { ofType { ofType { name } } } } } } } }",
    "{ x: __typename y: __typename sensors { edges { z: cursor } } }",
    "query A { a: __typename } query B { b: sensors { edges { node { c: title } } } }",
    "{ sensors { edges { node { ...F ...F ...G } } } } fragment F on Sensor { a: title ...G } "
    "fragment G on Sensor { b: title hourly { c: hour } }",
]


def errors(rule: type, document: str) -> list[str]:
    return [error.message for error in validate(SCHEMA, parse(document), [rule])]


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("max_depth", [0, 1, 2, 3, 4, 5, 12])
def test_depth_limit_answers_as_strawberry_did(document: str, max_depth: int) -> None:
    [strawberry_rule] = QueryDepthLimiter(max_depth=max_depth).validation_rules
    assert errors(depth_limit(max_depth), document) == sorted(
        set(errors(strawberry_rule, document))
    )


@pytest.mark.parametrize("document", DOCUMENTS)
@pytest.mark.parametrize("max_aliases", [0, 1, 2, 3, 5, 30])
def test_alias_limit_answers_as_strawberry_did(document: str, max_aliases: int) -> None:
    [strawberry_rule] = MaxAliasesLimiter(max_alias_count=max_aliases).validation_rules
    assert errors(alias_limit(max_aliases), document) == errors(strawberry_rule, document)


def doubling(levels: int) -> str:
    """A chain of fragments, each spreading the next twice: 2^levels aliases, spread out."""
    chain = " ".join(
        f"fragment F{i} on Sensor {{ ...F{i + 1} ...F{i + 1} }}" for i in range(levels)
    )
    return f"{{ sensors {{ edges {{ node {{ ...F0 }} }} }} }} {chain} fragment F{levels} on Sensor {{ a: title }}"  # noqa: E501


def test_alias_limit_counts_a_doubling_chain_without_spreading_it() -> None:
    assert errors(alias_limit(30), doubling(60)) == [f"{2**60} aliases found. Allowed: 30"]


def test_depth_limit_measures_a_doubling_chain_without_spreading_it() -> None:
    assert errors(depth_limit(3), doubling(60)) == []
    assert errors(depth_limit(2), doubling(60)) == [
        "'anonymous' exceeds maximum operation depth of 2"
    ]


def test_limit_rules_measure_cycles_and_unknown_fragments_as_nothing() -> None:
    cyclic = "{ sensors { ...A } } fragment A on SensorConnection { ...B } fragment B on SensorConnection { ...A x: totalCount }"  # noqa: E501
    assert errors(alias_limit(0), cyclic) == ["1 aliases found. Allowed: 0"]
    assert errors(depth_limit(1), "{ sensors { ...Nope } }") == []


def test_selection_limit_counts_fields_once_per_spread() -> None:
    document = "{ sensors { edges { node { ...F ...F } } } } fragment F on Sensor { title id }"
    assert errors(selection_limit(7), document) == []
    assert errors(selection_limit(6), document) == [
        "7 fields selected (fragments spread). Allowed: 6"
    ]


def test_selection_limit_counts_a_doubling_chain_without_spreading_it() -> None:
    assert errors(selection_limit(500), doubling(60))[0].startswith(f"{2**60 + 3} fields")


async def test_a_doubling_chain_of_fragments_is_refused_before_anything_runs(api: Api) -> None:
    api.commands.reset()
    body = await api.post(doubling(24))
    assert error_codes(body) == ["LIMIT_EXCEEDED", "LIMIT_EXCEEDED"]  # its aliases, its fields
    assert [error["message"] for error in body["errors"]] == [
        f"{2**24} aliases found. Allowed: 30",
        f"{2**24 + 3} fields selected (fragments spread). Allowed: {MAX_SELECTIONS}",
    ]
    assert api.commands.count == 0


async def test_a_document_at_the_selection_limit_is_served(api: Api) -> None:
    # sensors, edges, node, and the rest as titles: MAX_SELECTIONS fields in all.
    titles = "title " * (MAX_SELECTIONS - 3)
    body = await api.post(f"{{ sensors {{ edges {{ node {{ {titles}}} }} }} }}")
    assert body == {"data": {"sensors": {"edges": []}}}


async def test_an_empty_selection_set_is_a_validation_error(api: Api) -> None:
    body = await api.post("{ sensors { } }")
    assert error_codes(body) == ["GRAPHQL_VALIDATION_FAILED"]
    assert body["errors"][0]["message"] == "A selection set must select at least one field."
