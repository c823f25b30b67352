"""The operation label stays bounded: client-chosen names are kept up to a limit per app
(`ARRAYGRAPH_METRICS_OPERATIONS`), the rest (and names no GraphQL operation can have) count as
`other`."""

from __future__ import annotations

import dataclasses

import pytest

from settings import Settings
from tests.observability.observed import scrape
from tests.support import Api, ApiFactory
from web.observability.metrics import OTHER, BoundedLabel

REQUESTS = "arraygraph_graphql_requests_total"


def test_operation_label_keeps_names_up_to_its_limit() -> None:
    label = BoundedLabel(2)
    kept = [label(name) for name in ("A", "B", "C", "A", "B", "D")]
    assert kept == ["A", "B", OTHER, "A", "B", OTHER]


@pytest.mark.parametrize("name", ["x" * 65, "has space", "1starts_with_digit", "é"])
def test_operation_label_folds_names_of_another_shape(name: str) -> None:
    assert BoundedLabel(10)(name) == OTHER


async def test_operation_label_folds_names_past_the_setting_into_other(
    make_api: ApiFactory, settings: Settings
) -> None:
    async with make_api(dataclasses.replace(settings, metrics_operations=3)) as api:
        for index in range(6):
            await api.data(f"query Op{index} {{ __typename }}")
        scraped = await scrape(api)
    assert scraped.label_values(REQUESTS, "operation") == {"Op0", "Op1", "Op2", OTHER}
    assert scraped.value(REQUESTS, operation=OTHER, type="query", outcome="ok") == 3


async def test_operation_label_of_a_long_unknown_name_is_other(api: Api) -> None:
    name = "N" * 100  # a GraphQL name no operation in the document has
    await api.client.post("/graphql", json={"query": "{ __typename }", "operationName": name})
    scraped = await scrape(api)
    assert scraped.label_values(REQUESTS, "operation") == {OTHER}
