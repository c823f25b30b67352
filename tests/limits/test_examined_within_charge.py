"""Every root field examines at most `EXAMINED_PER_UNIT` stored documents per unit of cost it
is charged, at its limits' edges over a crowded database: the work the database does for a
request is bounded by what the request pays, whatever else is stored.

The bound is the one a series' rollups are held to (`ROLLUPS_PER_UNIT`, enforced by the
database's `$limit` there); the other fields examine far fewer, through their indexes. The cost
is the one the server computes for the request (`runtime.limits.cost.operation_cost`, recorded as it
runs); the documents examined are the engine's counters (`Api.examines`)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import pytest
from graphql import GraphQLObjectType

import runtime.limits.cost
from resolvers.series_reads import ROLLUPS_PER_UNIT
from schema.schema import build_schema
from settings import Settings
from tests.limits.crowd import MESSAGES_PER_PAGE, REQUESTS, Crowd, seed_crowd
from tests.support import ApiFactory

EXAMINED_PER_UNIT = ROLLUPS_PER_UNIT
SETTINGS = dataclasses.replace(Settings(), messages_per_page=MESSAGES_PER_PAGE)
NAMED = Crowd(sensors=["s0", "s1"], message_ids=["m0"])


@pytest.fixture
def charged(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The cost of each operation, as the server's cost check computed it."""
    costs: list[int] = []
    original = runtime.limits.cost.operation_cost

    def recorded(*args: object, **kwargs: object) -> runtime.limits.cost.Cost | None:
        cost = original(*args, **kwargs)  # type: ignore[arg-type]
        if cost is not None:
            assert cost.complete
            costs.append(cost.total)
        return cost

    monkeypatch.setattr(runtime.limits.cost, "operation_cost", recorded)
    yield costs


def test_every_root_field_has_a_request_at_its_edges() -> None:
    graphql_schema = build_schema().document_cache.schema
    assert graphql_schema is not None
    for kind, requests in REQUESTS.items():
        root = graphql_schema.get_type(kind)
        assert isinstance(root, GraphQLObjectType)
        assert set(requests(NAMED)) == set(root.fields), kind


@pytest.mark.parametrize("kind", sorted(REQUESTS))
async def test_documents_examined_are_within_the_charge(
    make_api: ApiFactory, charged: list[int], kind: str
) -> None:
    """Each root field's request in turn over one crowd (a mutation's deletions come last)."""
    beyond: dict[str, tuple[int, dict[str, int]]] = {}
    async with make_api(SETTINGS) as api:
        crowd = await seed_crowd(api)
        for name, (query, variables) in REQUESTS[kind](crowd).items():
            charged.clear()
            examined = await api.examines(query, variables)
            [cost] = charged
            assert 0 < cost <= SETTINGS.max_cost, name
            if sum(examined.values()) > EXAMINED_PER_UNIT * cost:
                beyond[name] = (cost, examined)
    assert beyond == {}
