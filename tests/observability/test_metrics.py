"""GET /metrics: Prometheus' text format, scraped and parsed after a few requests."""

from __future__ import annotations

import asyncio
import dataclasses
from typing import Any

import pytest

from app import create_app
from resolvers import sensors as resolvers_sensors
from settings import Settings
from store.database import Database
from store.sensors.sensor_pages import list_sensors
from tests.observability.observed import Scrape, scrape
from tests.support import Api, ApiFactory, FakeClock, running

REQUESTS = "arraygraph_graphql_requests_total"
LATENCY = "arraygraph_graphql_request_duration_seconds"


async def _a_few_requests(api: Api) -> None:
    await api.data('mutation Create { createSensor(title: "A") { id } }')
    for _ in range(2):
        await api.data("query Few { sensors(first: 2) { totalCount } }")
    await api.post('query Bad { sensor(id: "not an id") { id } }')
    await api.data("{ __typename }")


async def test_metrics_count_requests_by_operation_type_and_outcome(api: Api) -> None:
    await _a_few_requests(api)
    scraped = await scrape(api)
    assert scraped.value(REQUESTS, operation="Create", type="mutation", outcome="ok") == 1
    assert scraped.value(REQUESTS, operation="Few", type="query", outcome="ok") == 2
    assert (
        scraped.value(REQUESTS, operation="Bad", type="query", outcome="error:BAD_USER_INPUT") == 1
    )
    assert scraped.value(REQUESTS, operation="anonymous", type="query", outcome="ok") == 1
    assert scraped.total(REQUESTS) == 5


async def test_metrics_time_each_request_in_a_histogram(api: Api) -> None:
    await _a_few_requests(api)
    scraped = await scrape(api)
    assert scraped.value(f"{LATENCY}_count", operation="Few", type="query") == 2
    assert scraped.value(f"{LATENCY}_bucket", operation="Few", type="query", le="+Inf") == 2
    assert scraped.value(f"{LATENCY}_sum", operation="Few", type="query") > 0
    assert scraped.total(f"{LATENCY}_count") == 5


async def test_metrics_count_a_request_refused_before_the_view(
    make_api: ApiFactory, settings: Settings
) -> None:
    async with make_api(dataclasses.replace(settings, max_request_bytes=64)) as api:
        response = await api.client.post("/graphql", json={"query": "{ __typename }" + " " * 99})
        assert response.status_code == 413
        scraped = await scrape(api)
    labels = {"operation": "anonymous", "type": "none", "outcome": "error:LIMIT_EXCEEDED"}
    assert scraped.value(REQUESTS, **labels) == 1


async def test_metrics_leave_out_other_routes_and_the_ide_page(api: Api) -> None:
    await api.client.get("/healthz")
    await api.client.get("/graphql", headers={"accept": "text/html"})
    await scrape(api)
    scraped = await scrape(api)
    assert scraped.total(REQUESTS) == 0


async def test_metrics_leave_out_a_refused_preflight_and_the_ide_page_when_off(
    make_api: ApiFactory, settings: Settings
) -> None:
    changed = dataclasses.replace(settings, cors_origins=("https://app.example",), graphiql=False)
    async with make_api(changed) as api:
        preflight = await api.client.options(
            "/graphql",
            headers={"origin": "https://evil.example", "access-control-request-method": "POST"},
        )
        page = await api.client.get("/graphql", headers={"accept": "text/html"})
        assert (preflight.status_code, page.status_code) == (400, 404)
        scraped = await scrape(api)
    assert scraped.total(REQUESTS) == 0


async def test_metrics_show_no_request_in_flight_between_requests(api: Api) -> None:
    await _a_few_requests(api)
    scraped = await scrape(api)
    assert scraped.value("arraygraph_graphql_requests_in_flight") == 0


async def test_metrics_show_the_document_cache_size(api: Api) -> None:
    await _a_few_requests(api)
    scraped = await scrape(api)
    assert scraped.value("arraygraph_document_cache_documents") == 4  # distinct documents


async def test_metrics_are_served_in_prometheus_text_format(api: Api) -> None:
    response = await api.client.get("/metrics")
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    assert "# TYPE arraygraph_graphql_requests_total counter" in response.text


async def test_metrics_are_openmetrics_when_the_scraper_asks(api: Api) -> None:
    response = await api.client.get(
        "/metrics", headers={"accept": "application/openmetrics-text; version=1.0.0"}
    )
    assert response.headers["content-type"].startswith("application/openmetrics-text")
    assert response.text.endswith("# EOF\n")


async def test_metrics_of_two_apps_in_one_process_are_counted_apart(
    api: Api, database: Database, clock: FakeClock
) -> None:
    other = create_app(Settings(), clock=clock, database=database)
    async with running(other) as client:
        await client.post("/graphql", json={"query": "query OnlyHere { __typename }"})
        theirs = Scrape((await client.get("/metrics")).text)
    ours = await scrape(api)
    assert theirs.total(REQUESTS, operation="OnlyHere") == 1
    assert ours.total(REQUESTS, operation="OnlyHere") == 0


async def test_metrics_show_a_request_in_flight_while_it_runs(
    api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    entered, release = asyncio.Event(), asyncio.Event()

    async def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        await release.wait()
        return await list_sensors(*args, **kwargs)

    monkeypatch.setattr(resolvers_sensors, "list_sensors", held)
    running_request = asyncio.create_task(api.post("{ sensors { totalCount } }"))
    await entered.wait()
    during = await scrape(api)
    release.set()
    await running_request
    assert during.value("arraygraph_graphql_requests_in_flight") == 1
    assert (await scrape(api)).value("arraygraph_graphql_requests_in_flight") == 0
